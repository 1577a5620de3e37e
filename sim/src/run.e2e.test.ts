import { readFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { contractExecutable } from '../../src/chain/ledgerEntries.js'
import { DEFAULT_PASSPHRASE, REPO_ROOT, startSandbox } from '../../sandbox/ts/launch.js'
import type { SnapshotFile } from './record/snapshots.js'
import { runScenario } from './run.js'
import { loadScenario } from './scenario/load.js'

const SCENARIO = join(REPO_ROOT, 'sim', 'scenarios', 'crash-short.yaml')
const OUT = join(REPO_ROOT, 'target', 'test-sim')

describe('a short seeded crash on the sandbox', () => {
  it('fills liquidations with 0 core-replay mismatches, the invariants hold, and the same seed gives the same report and series bytes, fees included', { timeout: 300_000 }, async () => {
    const loaded = loadScenario(SCENARIO)
    const a = await runScenario({ loaded, seed: 1, outDir: join(OUT, 'a') })
    expect(a.summary.auctions.filled).toBeGreaterThan(0)
    expect(a.replay.checks.every((c) => c.checked > 0 || c.kind === 'health-factor')).toBe(true)
    expect(a.summary.replayMismatches).toBe(0)
    expect(a.audit.holds).toBe(true)
    expect(a.events.some((e) => e.kind === 'deposit')).toBe(true)
    // competition: every first fill has its winner's constant latency (200 / 900 ms), a fee and
    // a contender list holding the winner; wins add up to auctions with a fill, the keepers'
    // fills to the run's, and the fills' profits to the vault's; every keeper paid fees
    const withFill = a.auctions.filter((x) => x.fills.length > 0)
    const latency: Record<string, number> = { 'keeper-1': 200, 'keeper-2': 900 }
    for (const x of withFill) {
      expect(x.fillLatencyMs).toBe(latency[x.filledBy!])
      expect(x.fillFee).toBeGreaterThan(0)
      expect(x.fillProfit).toBeGreaterThanOrEqual(0)
      expect(x.contenders).toContain(x.filledBy)
      expect(x.fills[0]!.ledger).toBe(x.filledLedger)
      expect(x.remainingPercent === 0).toBe(x.outcome === 'filled')
    }
    expect(a.keepers.reduce((n, k) => n + k.wins, 0)).toBe(withFill.length)
    expect(a.keepers.reduce((n, k) => n + k.fills, 0)).toBe(a.summary.fills)
    expect(withFill.reduce((t, x) => t + x.fills.reduce((u, f) => u + f.profit, 0), 0)).toBeCloseTo(a.summary.vaultProfit, 5)
    for (const k of a.keepers) expect(k.feesPaid).toBeGreaterThan(0)
    // set up as in production: registration and the channel accounts landed during set-up (their
    // time bounds on the chain's clock), so every keeper sends from its operator and 4 channels
    const log = await readFile(join(OUT, 'a', 'keepers.log'), 'utf8')
    expect(log).not.toMatch(/txTooLate|channel accounts unavailable|registration failed/)
    expect(log.match(/"msg":"channel accounts ready"/g)).toHaveLength(a.keepers.length)
    for (const k of a.keepers) {
      expect(k.lanes?.count).toBe(5)
      expect(new Set(k.lanes?.accounts).size).toBe(5)
      expect(k.lanes?.accounts[0]).toBe(k.operator)
      k.lanes?.applied.forEach((n, i) => expect(n).toBeLessThanOrEqual(k.lanes!.sent[i]!))
    }
    // concurrent fills spread over the lanes: some keeper had more than its operator send
    expect(a.keepers.some((k) => (k.lanes?.applied.slice(1).reduce((n, x) => n + x, 0) ?? 0) > 0)).toBe(true)

    await runScenario({ loaded, seed: 1, outDir: join(OUT, 'b') })
    const [ja, jb] = await Promise.all([readFile(join(OUT, 'a', 'report.json')), readFile(join(OUT, 'b', 'report.json'))])
    expect(jb.toString('utf8')).toBe(ja.toString('utf8'))
    const [sa, sb] = await Promise.all([readFile(join(OUT, 'a', 'timeseries.csv'), 'utf8'), readFile(join(OUT, 'b', 'timeseries.csv'), 'utf8')])
    expect(sb).toBe(sa)

    // seed 2 also writes LedgerSnapshot files mid-run and at the end
    const snapshots: SnapshotFile[] = []
    const c = await runScenario({ loaded, seed: 2, outDir: join(OUT, 'c'), snapshotAt: [130, 'end'], onSnapshot: (f) => snapshots.push(f) })
    const jc = await readFile(join(OUT, 'c', 'report.json'))
    expect(jc.equals(ja)).toBe(false)
    expect(JSON.stringify(c.series)).not.toEqual(JSON.stringify(a.series))

    const { startLedger, endLedger } = c.run
    expect(snapshots.map((f) => f.step)).toEqual([130, 'end'])
    const [mid, end] = snapshots as [SnapshotFile, SnapshotFile]
    // the first close at or after step 130 (fast-forward may have closed past it), and the last ledger
    expect(mid.ledger).toBeGreaterThanOrEqual(startLedger + 130)
    expect(mid.ledger).toBeLessThanOrEqual(endLedger)
    expect(end.ledger).toBe(endLedger)
    for (const f of snapshots) {
      expect(basename(f.path)).toBe(`step-${f.step}-ledger-${f.ledger}.json`)
      expect(f.path).toBe(join(OUT, 'c', 'snapshots', basename(f.path)))
      const snap = JSON.parse(await readFile(f.path, 'utf8')) as { sequence_number: number; ledger_entries: unknown[] }
      expect(snap.sequence_number).toBe(f.ledger)
      expect(snap.ledger_entries.length).toBeGreaterThan(0)
    }

    // a node started from the end snapshot is at the run's last ledger and holds the vault
    const lines = (await readFile(join(OUT, 'c', 'keepers.log'), 'utf8')).split('\n').filter((l) => l !== '')
    const start = lines.map((l) => JSON.parse(l) as { msg: string; vault?: string }).find((l) => l.msg === 'keeper starting')!
    expect(start.vault).toMatch(/^C[A-Z2-7]{55}$/)
    const node = await startSandbox({ manual: true, networkPassphrase: DEFAULT_PASSPHRASE, extraArgs: ['--snapshot', end.path] })
    try {
      expect((await node.server.getLatestLedger()).sequence).toBe(endLedger)
      // the vault's instance entry, read with getLedgerEntries
      expect(await contractExecutable(node.server, start.vault!)).toMatchObject({ kind: 'wasm' })
    } finally {
      await node.stop()
    }
  })
})
