import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../sandbox/ts/launch.js'
import { runScenario } from './run.js'
import type { AttackResult } from './report/types.js'
import { loadScenario } from './scenario/load.js'

const SCENARIO = join(REPO_ROOT, 'sim', 'scenarios', 'hostile.yaml')
const OUT = join(REPO_ROOT, 'target', 'test-sim-hostile')

const refused = (a: AttackResult, code: number) => a.steps.some((s) => s.result === 'refused' && s.error?.code === code)

describe('every attack in one run (sim/scenarios/hostile.yaml)', () => {
  it('pays no attacker and costs the other depositors nothing, while the honest keepers fill, the audit holds, the replay agrees and the same seed gives the same bytes', { timeout: 300_000 }, async () => {
    const loaded = loadScenario(SCENARIO)
    const r = await runScenario({ loaded, seed: 1, outDir: join(OUT, 'a') })
    const attacks = r.attacks ?? []

    // Every attack was tried, none gained and none cost the depositors who took no part anything.
    expect(new Set(attacks.map((a) => a.kind))).toEqual(new Set(['draw-and-run', 'par-returns', 'skim', 'exit-ahead', 'jit-deposit']))
    for (const a of attacks) {
      expect(a.gain, `${a.attacker} ${a.kind} #${a.attempt}: gain`).toBeLessThanOrEqual(0)
      expect(a.depositorLoss, `${a.attacker} ${a.kind} #${a.attempt}: depositors' loss`).toBeLessThanOrEqual(0)
      expect(a.toLedger, `${a.attacker} ${a.kind} #${a.attempt} ran to its end`).not.toBeNull()
      expect(a.outcome).not.toMatch(/stopped|did not finish/)
    }
    expect(r.summary.attacks).toMatchObject({ attempts: attacks.length })
    expect(r.summary.attacks!.maxGain).toBeLessThanOrEqual(0)
    expect(r.summary.attacks!.maxDepositorLoss).toBeLessThanOrEqual(0)
    const of = (kind: AttackResult['kind']) => attacks.filter((a) => a.kind === kind)

    // draw-and-run: the draw above the bond refused, the bonded draw slashed by the watchdog, the penalty the depositors'
    const [run] = of('draw-and-run')
    expect(refused(run!, 216)).toBe(true)
    expect(refused(run!, 116)).toBe(true)
    expect(refused(run!, 209)).toBe(true)
    const slash = r.events.find((e) => e.kind === 'slash')!
    expect(slash.ledger).toBeGreaterThan(run!.fromLedger)
    expect(run!.gain).toBeLessThan(0)
    expect(run!.depositorLoss).toBe(run!.gain)

    // par-returns: the victim is kept out by the draw, requests, the next full draw is refused, and the victim gets out
    const [par] = of('par-returns')
    expect(refused(par!, 110)).toBe(true)
    expect(refused(par!, 124)).toBe(true)
    const out = par!.steps.filter((s) => s.action.startsWith('depositor 0: withdraw') && s.result === 'applied')
    expect(out).toHaveLength(1)
    expect(out[0]!.amount).toBeGreaterThan(0)

    // skim: the approved executor's fill without a sale, and the plain account's flash draw, both refused
    expect(of('skim').map((a) => a.refusedBy)).toEqual([['457 CollateralKept'], ['122 NotApprovedExecutor']])

    // jit-deposit: a fill landed between its deposit and its withdrawal, and it left with no more than it paid in
    const [jit] = of('jit-deposit').slice(-1)
    const fillsBetween = r.auctions.flatMap((a) => a.fills).filter((f) => f.ledger >= jit!.fromLedger && f.ledger <= jit!.toLedger!)
    expect(fillsBetween.length).toBeGreaterThan(0)
    const [deposit, withdrawal] = jit!.steps
    expect([deposit!.result, withdrawal!.result]).toEqual(['applied', 'applied'])
    expect(withdrawal!.amount!).toBeLessThanOrEqual(deposit!.amount!)

    // exit-ahead: out while the draw was overdue, before the slash; it gave up its share of the penalty and of the locked profit
    const [exit] = of('exit-ahead')
    expect(exit!.steps[0]!.ledger).toBeLessThan(slash.ledger)
    expect(exit!.steps[0]!.ledger).toBeGreaterThan(run!.steps.find((s) => s.result === 'applied' && s.action.startsWith('two-step draw'))!.ledger)
    expect(exit!.gain).toBeLessThan(0)

    // the honest keepers still fill every auction, and are paid the vault's fee for it
    expect(r.summary.auctions.filled).toBe(r.summary.auctions.created)
    expect(r.summary.fills).toBeGreaterThan(r.summary.auctions.created)
    expect(r.keepers.map((k) => k.name)).toEqual(['keeper-1', 'keeper-2'])
    expect(r.summary.keeperRewards).toBeGreaterThan(0)
    expect(r.keepers.reduce((t, k) => t + k.rewards!, 0)).toBeCloseTo(r.summary.keeperRewards!, 5)
    expect(r.summary.vaultTerms).toEqual({ keeperFeeBps: 1_000, profitUnlockSecs: 3_600 })
    expect(r.summary.lockedProfitEnd).toBeGreaterThan(0)
    expect(r.series.lockedProfit!.length).toBe(r.series.ledger.length)
    expect(r.summary.replayMismatches).toBe(0)
    expect(r.audit.holds).toBe(true)

    await runScenario({ loaded, seed: 1, outDir: join(OUT, 'b') })
    for (const file of ['report.json', 'timeseries.csv']) {
      const [a, b] = await Promise.all([readFile(join(OUT, 'a', file), 'utf8'), readFile(join(OUT, 'b', file), 'utf8')])
      expect(b === a, `${file} is the same bytes`).toBe(true)
    }
  })
})
