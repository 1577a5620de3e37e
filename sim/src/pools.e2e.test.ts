/**
 * A two-pool world on the sandbox (two-pools-crash, cut after its first wave of fills): the
 * keepers are given both pools (LENDING_POOLS), the harness observes both, and the report counts
 * each pool's auctions and fills.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../sandbox/ts/launch.js'
import type { World } from '../../src/world/index.js'
import { runScenario } from './run.js'
import { loadScenario } from './scenario/load.js'

const SCENARIO = join(REPO_ROOT, 'sim', 'scenarios', 'two-pools-crash.yaml')

describe('a crash across two pools on the sandbox', () => {
  it('fills in both pools, records each auction with its pool and sums the pools to the run', { timeout: 300_000 }, async () => {
    // 800 ledgers: the first fills land around ledger 670-750 of the run in both pools.
    const loaded = loadScenario(SCENARIO, [{ path: 'run.duration', value: 4_000 }])
    let world: World | undefined
    const r = await runScenario({ loaded, seed: 1, onEnd: async (w) => void (world = w) })
    expect(world!.blend.pools).toHaveLength(2)
    expect(world!.addresses.env.LENDING_POOLS).toBe(world!.blend.pools.join(','))

    const pools = r.summary.pools!
    expect(pools.map((p) => p.pool)).toEqual(world!.blend.pools)
    expect(pools.map((p) => p.borrowers)).toEqual([6, 6])
    for (const p of pools) {
      expect(p.auctions.created).toBeGreaterThan(0)
      expect(p.auctions.filled).toBeGreaterThan(0)
      expect(p.borrowedStart).toBeGreaterThan(0)
      expect(p.bidPaid).toBeGreaterThan(0)
    }
    // every auction names its pool; the pools' figures add up to the run's
    expect(r.auctions.every((a) => a.pool !== undefined && world!.blend.pools.includes(a.pool))).toBe(true)
    const sum = (f: (p: (typeof pools)[number]) => number) => pools.reduce((t, p) => t + f(p), 0)
    expect(sum((p) => p.auctions.created)).toBe(r.summary.auctions.created)
    expect(sum((p) => p.auctions.filled)).toBe(r.summary.auctions.filled)
    expect(sum((p) => p.fills)).toBe(r.summary.fills)
    expect(sum((p) => p.missed)).toBe(r.summary.missed)
    expect(sum((p) => p.borrowedStart)).toBeCloseTo(r.summary.borrowedStart, 4)
    expect(sum((p) => p.vaultProfit)).toBeCloseTo(r.auctions.reduce((t, a) => t + a.fills.reduce((u, f) => u + f.profit, 0), 0), 4)
    // each pool's auctions were on its own borrowers
    for (const a of r.auctions) expect(world!.borrowers.find((b) => b.address === a.user)?.pool).toBe(a.pool)
    expect(r.summary.replayMismatches).toBe(0)
    expect(r.audit.holds).toBe(true)
  })
})
