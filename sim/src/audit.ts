/** The invariant audit of a run's final chain state (src/audit), in the report's shape. */
import type { rpc } from '@stellar/stellar-sdk'
import { audit } from '../../src/audit/index.js'
import type { World } from '../../src/world/index.js'
import type { AuditResult } from './report/types.js'

export async function auditWorld(world: World, server: rpc.Server): Promise<AuditResult> {
  const r = await audit(server, { vault: world.service!.vault, registry: world.service!.registry, usdc: world.usdc.contract })
  return {
    holds: r.holds,
    invariants: r.invariants.map((i) => ({ id: i.id, name: i.name, holds: i.holds, warning: i.warning, detail: i.detail })),
  }
}
