/**
 * A stand-in for sim/src/run.ts in the sweep tests: same `runScenario` signature, no sandbox,
 * a few milliseconds per run. The report is the renderers' fixture with a summary derived from
 * the seed and the scenario's keeper settings, so every grid point and seed gives different,
 * predictable figures (see `fakeSummary` and `fakeKeepers`).
 *
 * Failures on purpose, chosen by `keepers.slippageBps`:
 *   666  the run throws ("fake runner: slippage 666 is cursed")
 *   667  the worker process dies (exit code 9) after writing a line to stderr
 */
import { writeFile, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { KeeperResult, Report, Summary } from '../../sim/src/report/types.js'
import type { RunOptions } from '../../sim/src/run.js'
import { reportFixture } from './reportFixture.js'

export const THROWS_AT_SLIPPAGE = 666
export const CRASHES_AT_SLIPPAGE = 667

/**
 * The summary the fake reports for a seed and the scenario's keepers.count / minProfit. The
 * risk inputs: every seed divisible by 3 loses 0.5 % (lpReturn < 0), 10,000 USD is borrowed per
 * keeper, insolvent debt is 100·seed² / count and liquidated collateral 1,000·seed + 10·count.
 */
export function fakeSummary(seed: number, count: number, minProfit: number): Summary {
  const base = reportFixture().summary
  return {
    ...base,
    lpReturn: Number((seed * 0.001 + count * 0.0001 - (minProfit - 1) * 0.01 - (seed % 3 === 0 ? 0.005 : 0)).toFixed(7)),
    sharePriceEnd: Number((1 + seed * 0.001).toFixed(7)),
    vaultProfit: seed * 10 + count,
    auctions: { created: seed + count, filled: seed, expired: count, open: 0 },
    missed: seed % 2,
    // No fills on even seeds: the fill delay is null there and left out of the statistics.
    fillDelay: seed % 2 === 0 ? { median: null, p95: null, max: null } : { median: seed, p95: seed * 2, max: seed * 3 },
    badDebt: 0,
    borrowedStart: 10_000 * count,
    insolventDebt: Number(((100 * seed * seed) / count).toFixed(7)),
    liquidatedCollateral: 1000 * seed + 10 * count,
    slashes: seed % 4 === 0 ? 1 : 0,
    keeperProfit: Number((seed * count * minProfit).toFixed(7)),
    peakUtilisation: Math.min(1, 0.1 * seed),
    replayMismatches: 0,
    auditHolds: seed !== 3,
  }
}

/**
 * The fake's keepers: `count` of them; keeper i's own profit is seed·(i + 1), its vault profit
 * twice that, and keeper 0 wins every fill on odd seeds (the fills are shared evenly on even ones).
 */
export function fakeKeepers(seed: number, count: number): KeeperResult[] {
  const base = reportFixture().keepers[0]!
  return Array.from({ length: count }, (_, i) => ({
    ...base,
    index: i,
    name: `keeper-${i}`,
    profit: seed * (i + 1),
    vaultProfit: 2 * seed * (i + 1),
    winRate: seed % 2 === 1 ? (i === 0 ? 1 : 0) : Number((1 / count).toFixed(7)),
  }))
}

export async function runScenario(opts: RunOptions): Promise<Report> {
  const k = opts.loaded.scenario.keepers
  await new Promise((r) => setTimeout(r, 5))
  if (k.slippageBps === THROWS_AT_SLIPPAGE) throw new Error(`fake runner: slippage ${k.slippageBps} is cursed`)
  if (k.slippageBps === CRASHES_AT_SLIPPAGE) {
    process.stderr.write('fake runner: about to die\n')
    process.exit(9)
  }
  if (opts.outDir !== undefined) {
    await mkdir(opts.outDir, { recursive: true })
    await writeFile(join(opts.outDir, 'keepers.log'), `fake run, seed ${opts.seed}\n`)
  }
  const report = reportFixture()
  return {
    ...report,
    scenario: { ...report.scenario, name: opts.loaded.scenario.name, hash: opts.loaded.hash },
    seed: opts.seed,
    summary: fakeSummary(opts.seed, k.count, k.minProfit),
    keepers: fakeKeepers(opts.seed, k.count),
  }
}
