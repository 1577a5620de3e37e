import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../sandbox/ts/launch.js'
import { runScenario } from './run.js'
import { loadScenario } from './scenario/load.js'

const SCENARIO = join(REPO_ROOT, 'sim', 'scenarios', 'tournament.yaml')
const OUT = join(REPO_ROOT, 'target', 'test-sim-tournament')

describe('the strategy tournament (sim/scenarios/tournament.yaml)', () => {
  it('runs seed-rule and nectar beside the daemon: each sends its fills, the strategies table adds up, the daemon books no loss', { timeout: 180_000 }, async () => {
    const r = await runScenario({ loaded: loadScenario(SCENARIO), seed: 1, outDir: OUT })

    // every keeper says what ran for it
    expect(r.keepers.map((k) => [k.name, k.strategy, k.path])).toEqual([
      ['keeper-1', 'daemon', 'atomic'],
      ['keeper-2', 'daemon', 'atomic'],
      ['keeper-3', 'seed-rule', 'atomic'],
      ['keeper-4', 'seed-rule', 'atomic'],
      ['keeper-5', 'nectar', 'two-step'],
      ['keeper-6', 'nectar', 'two-step'],
    ])

    // the strategy agents fire: each sends transactions from its operator, and each strategy's
    // fills reach the chain (applied, or beaten in the same ledger by another keeper's)
    expect(r.auctions.length).toBeGreaterThan(0)
    const contenders = new Set(r.auctions.flatMap((a) => a.contenders))
    for (const k of r.keepers.filter((k) => k.strategy !== 'daemon')) {
      expect(k.lanes?.accounts, k.name).toEqual([k.operator])
      expect(k.lanes!.applied[0], `${k.name} had transactions applied`).toBeGreaterThan(0)
    }
    for (const strategy of ['seed-rule', 'nectar'] as const) {
      const ks = r.keepers.filter((k) => k.strategy === strategy)
      expect(ks.some((k) => contenders.has(k.name) || k.lostRaceTransactions > 0), `${strategy} sent a fill`).toBe(true)
    }

    // the strategies table: one row per strategy, its keepers' figures summed
    const rows = r.strategies ?? []
    expect(rows.map((s) => [s.strategy, s.keepers])).toEqual([
      ['daemon', ['keeper-1', 'keeper-2']],
      ['seed-rule', ['keeper-3', 'keeper-4']],
      ['nectar', ['keeper-5', 'keeper-6']],
    ])
    for (const s of rows) {
      const ks = r.keepers.filter((k) => k.strategy === s.strategy)
      expect(s.wins).toBe(ks.reduce((t, k) => t + k.wins, 0))
      expect(s.fills).toBe(ks.reduce((t, k) => t + k.fills, 0))
      expect(s.profit).toBeCloseTo(ks.reduce((t, k) => t + k.profit, 0), 6)
      expect(s.vaultProfit).toBeCloseTo(ks.reduce((t, k) => t + k.vaultProfit, 0), 6)
      expect(s.failedTransactions).toBe(ks.reduce((t, k) => t + k.failedTransactions, 0))
      expect(s.lostRaceTransactions).toBe(ks.reduce((t, k) => t + k.lostRaceTransactions, 0))
    }
    expect(rows.reduce((t, s) => t + s.wins, 0)).toBe(r.auctions.filter((a) => a.filledBy !== null).length)
    expect(rows.reduce((t, s) => t + s.fills, 0)).toBe(r.summary.fills)

    // our keeper never books a loss: neither on its own account nor on any fill it landed
    const daemon = rows.find((s) => s.strategy === 'daemon')!
    expect(daemon.profit).toBeGreaterThanOrEqual(0)
    for (const k of r.keepers.filter((k) => k.strategy === 'daemon')) expect(k.profit, k.name).toBeGreaterThanOrEqual(0)
    for (const f of r.auctions.flatMap((a) => a.fills).filter((f) => f.filledBy === 'keeper-1' || f.filledBy === 'keeper-2')) expect(f.profit).toBeGreaterThanOrEqual(0)

    expect(r.summary.replayMismatches).toBe(0)
    expect(r.audit.holds).toBe(true)
    const html = await readFile(join(OUT, 'report.html'), 'utf8')
    expect(html).toContain('<section id="strategies">')
  })
})
