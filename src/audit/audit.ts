/**
 * The auditor: reads one consistent snapshot of the vault, the registry and their USDC, then runs
 * every invariant on it (src/audit/README.md lists them).
 */
import { checkDepositorBalances } from './invariants/depositorBalances.js'
import { checkDrawLimits } from './invariants/drawLimits.js'
import { checkDraws } from './invariants/draws.js'
import { checkLockedProfit } from './invariants/lockedProfit.js'
import { checkPendingShares } from './invariants/pendingShares.js'
import { checkProfit } from './invariants/profit.js'
import { checkRegistryStake } from './invariants/registryStake.js'
import { checkShares } from './invariants/shares.js'
import { checkSlashable } from './invariants/slashable.js'
import { checkVaultUsdc } from './invariants/vaultUsdc.js'
import { checkWiring } from './invariants/wiring.js'
import { checkWriteOffs } from './invariants/writeOffs.js'
import type { AuditTarget } from './rpc.js'
import { readSnapshot, type AuditSnapshot } from './snapshot.js'
import type { AuditAddresses, AuditOptions, AuditReport, InvariantResult } from './types.js'

/** Every invariant check, in id order. */
export const INVARIANT_CHECKS: readonly ((s: AuditSnapshot) => InvariantResult)[] = [
  checkVaultUsdc,
  checkShares,
  checkDraws,
  checkRegistryStake,
  checkProfit,
  checkDepositorBalances,
  checkSlashable,
  checkWiring,
  checkDrawLimits,
  checkWriteOffs,
  checkLockedProfit,
  checkPendingShares,
]

/** Runs every invariant on a snapshot already read (pure). */
export function auditSnapshot(snapshot: AuditSnapshot): AuditReport {
  const invariants = INVARIANT_CHECKS.map((check) => check(snapshot))
  return { holds: invariants.every((r) => r.holds), invariants, ledger: snapshot.ledger }
}

/**
 * Audits a deployment: `target` is a src/chain `Chain`, an RPC URL or `{ server, networkPassphrase }`.
 *
 * @example
 * import { audit } from './index.js'
 * const report = await audit('http://127.0.0.1:8000/rpc', { vault, registry })
 * if (!report.holds) for (const r of report.invariants.filter((r) => !r.holds)) console.log(r.id, r.detail, r.offenders)
 *
 * @throws ChainReadError when the chain cannot be read (never for a broken invariant)
 */
export async function audit(target: AuditTarget, addresses: AuditAddresses, opts: AuditOptions = {}): Promise<AuditReport> {
  return auditSnapshot(await readSnapshot(target, addresses, opts))
}
