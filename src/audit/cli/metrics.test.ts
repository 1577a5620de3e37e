import { afterEach, describe, expect, it } from 'vitest'
import type { Server } from 'node:http'
import { fixtureSnapshot } from '../../../test/audit/snapshotFixture.js'
import { auditSnapshot } from '../audit.js'
import { createAuditMetrics, serveMetrics } from './metrics.js'

describe('audit metrics', () => {
  let server: Server | undefined
  afterEach(async () => {
    server?.closeAllConnections()
    await new Promise((r) => (server ? server.close(r) : r(undefined)))
    server = undefined
  })

  it('serves one gauge per invariant, the verdict and the readable flag; /healthz follows the chain', async () => {
    const metrics = createAuditMetrics()
    const served = await serveMetrics(metrics, 0, '127.0.0.1')
    server = served.server
    expect((await fetch(served.url.replace('/metrics', '/healthz'))).status).toBe(503)

    const s = fixtureSnapshot()
    s.vaultUsdcBalance -= 1n
    metrics.audited(auditSnapshot(s), 0.25)
    let text = await (await fetch(served.url)).text()
    expect(text).toMatch(/^audit_invariant_holds\{invariant="1",name="vault USDC = total_usdc - active_liq"\} 0$/m)
    expect(text).toMatch(/^audit_invariant_holds\{invariant="2",name="[^"]+"\} 1$/m)
    expect(text).toMatch(/^audit_invariant_offenders\{invariant="1",name="[^"]+"\} 1$/m)
    expect(text).toMatch(/^audit_holds 0$/m)
    expect(text).toMatch(/^audit_chain_readable 1$/m)
    expect(text).toMatch(/^audit_duration_seconds 0\.25$/m)
    expect(text).toMatch(/^audit_checks_total\{result="broken"\} 1$/m)
    expect((await fetch(served.url.replace('/metrics', '/healthz'))).status).toBe(200)

    metrics.unreadable()
    text = await (await fetch(served.url)).text()
    expect(text).toMatch(/^audit_chain_readable 0$/m)
    expect(text).toMatch(/^audit_checks_total\{result="unreadable"\} 1$/m)
    expect((await fetch(served.url.replace('/metrics', '/healthz'))).status).toBe(503)
    expect((await fetch(served.url.replace('/metrics', '/other'))).status).toBe(404)
  })
})
