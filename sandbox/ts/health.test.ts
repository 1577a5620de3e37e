/**
 * getHealth's ledger close times and getVersionInfo's build facts, through rpc.Server, in
 * stellar-rpc's shapes (get_health.go, get_version_info.go).
 */
import { spawnSync } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, REPO_ROOT, type Sandbox } from './launch.js'

let sb: Sandbox

beforeAll(async () => {
  sb = await startSandbox({ manual: true, seed: 7, extraArgs: ['--start-time', '1767225600'] })
})
afterAll(async () => {
  await sb?.stop()
})

function git(...args: string[]): { ok: boolean; out: string } {
  const r = spawnSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' })
  return { ok: r.status === 0, out: (r.stdout ?? '').trim() }
}

describe('getHealth and getVersionInfo', () => {
  it('getHealth: latestLedgerCloseTime and oldestLedgerCloseTime, unix seconds as strings', async () => {
    await sb.closeLedgers(2)
    const h = (await sb.server.getHealth()) as unknown as Record<string, unknown>
    expect(Object.keys(h).sort()).toEqual(['latestLedger', 'latestLedgerCloseTime', 'ledgerRetentionWindow', 'oldestLedger', 'oldestLedgerCloseTime', 'status'])
    const latest = await sb.server.getLatestLedger()
    expect(h.latestLedger).toBe(latest.sequence)
    expect(h.latestLedgerCloseTime).toBe(latest.closeTime)
    expect(typeof h.oldestLedgerCloseTime).toBe('string')
    const oldest = await sb.server.getLedgers({ startLedger: h.oldestLedger as number, pagination: { limit: 1 } })
    expect(h.oldestLedgerCloseTime).toBe(String(oldest.ledgers[0]!.ledgerCloseTime))
    expect(Number(h.latestLedgerCloseTime)).toBeGreaterThan(Number(h.oldestLedgerCloseTime))
  })

  it('getVersionInfo: commitHash of the checkout it was built from, buildTimestamp in stellar-rpc layout', async () => {
    const v = await sb.server.getVersionInfo()
    expect(v.version).toMatch(/^sandbox-/)
    expect(v.captiveCoreVersion).toMatch(/soroban-env-host/)
    expect(v.protocolVersion).toBe(28)
    // A commit of this repository (HEAD when built; the binary may predate later commits).
    if (git('rev-parse', 'HEAD').ok) {
      expect(v.commitHash).toMatch(/^[0-9a-f]{40}$/)
      expect(git('merge-base', '--is-ancestor', v.commitHash, 'HEAD').ok).toBe(true)
    } else {
      expect(v.commitHash).toBe('unknown')
    }
    // `date '+%Y-%m-%dT%H:%M:%S'` (here UTC), not in the future.
    expect(v.buildTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/)
    expect(Date.parse(`${v.buildTimestamp}Z`)).toBeLessThanOrEqual(Date.now())
  })
})
