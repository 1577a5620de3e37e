import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../sandbox/ts/launch.js'
import { runScenario } from './run.js'
import { loadScenario, type Override } from './scenario/load.js'

const SCENARIOS = join(REPO_ROOT, 'sim', 'scenarios')
const OUT = join(REPO_ROOT, 'target', 'test-sim-fees')

/**
 * crash-short with the node ordering each ledger (core): keeper-1 sends at once and bids the
 * network minimum, keeper-2 sends 6 s late (a ledger later) and bids 100,000 stroops. A fill is
 * bounded to the ledger it was valued for, so keeper-2's fills, a ledger late, are all dropped
 * unapplied; in full ledgers it sends 3 s late, still inside the ledger.
 */
const race: Override[] = [
  { path: 'chain.ordering', value: 'core' },
  { path: 'keepers.individual.0.latency.ms', value: 6000 },
  { path: 'keepers.individual.0.fee.inclusionFee', value: 100_000 },
]
/** ...and other users keep every ledger full: 20 transactions a ledger bidding ~2,000 stroops for 6 places. */
const full: Override[] = [
  { path: 'chain.limits.txCount', value: 6 },
  { path: 'chain.background.txPerLedger', value: 20 },
  { path: 'chain.background.accounts', value: 30 },
  { path: 'chain.background.fee', value: { model: 'lognormal', medianStroops: 2000, sigma: 0.5 } },
  { path: 'keepers.individual.0.latency.ms', value: 3000 },
]

describe('competing on fees with the node ordering the ledger', () => {
  it('in full ledgers the keeper bidding more wins inclusion and the auctions; in empty ones the faster keeper bidding the minimum wins', { timeout: 300_000 }, async () => {
    const loaded = (extra: Override[]) => loadScenario(join(SCENARIOS, 'crash-short.yaml'), [...race, ...extra])
    const crowded = await runScenario({ loaded: loaded(full), seed: 1 })
    const [low, high] = crowded.keepers as [(typeof crowded.keepers)[number], (typeof crowded.keepers)[number]]
    expect(crowded.summary.fees.ordering).toBe('core')
    expect(crowded.summary.fees.background!.dropped).toBeGreaterThan(0)
    expect([low.feeStrategy, high.feeStrategy]).toEqual(['fixed 100', 'fixed 100000'])
    expect(high.wins).toBeGreaterThan(0)
    expect(low.wins).toBe(0)
    expect(crowded.summary.auctions.filled).toBe(high.wins)
    // The minimum bid waits in the node's queue and is dropped; the high bid never is.
    expect(low.droppedTransactions).toBeGreaterThan(0)
    expect(high.droppedTransactions).toBe(0)
    expect(crowded.summary.replayMismatches).toBe(0)

    // One lane each here: with its channel accounts the fast keeper fires its three fills in one
    // ledger, and the later two, selling the same collateral into the pool the first just moved,
    // fail on their DEX floor (#353) and go to the slow keeper a ledger later: a race against its
    // own fills, not the fee race this run is about.
    const empty = await runScenario({ loaded: loaded([{ path: 'keepers.channelAccounts', value: 0 }]), seed: 1 })
    const [fast, slow] = empty.keepers as [(typeof empty.keepers)[number], (typeof empty.keepers)[number]]
    expect(empty.keepers.map((k) => k.lanes?.count)).toEqual([1, 1])
    expect(fast.wins).toBeGreaterThan(0)
    expect(slow.wins).toBe(0)
    expect(fast.wins).toBe(empty.summary.auctions.filled)
    // Nothing was surged: the fast keeper waited for no ledger; the slow one's fills reached the
    // network after the ledger they were valued for and were dropped, never applied late.
    expect(fast.inclusionDelay.p95).toBe(0)
    expect(fast.droppedTransactions).toBe(0)
    expect(slow.droppedTransactions).toBeGreaterThan(0)
    expect(empty.summary.replayMismatches).toBe(0)
  })

  it('fee-war gives the same report bytes for the same seed, with every strategy in play', { timeout: 600_000 }, async () => {
    const loaded = loadScenario(join(SCENARIOS, 'fee-war.yaml'))
    const a = await runScenario({ loaded, seed: 1, outDir: join(OUT, 'a') })
    expect(a.summary.fees.winsByStrategy.map((w) => w.strategy)).toEqual(['feestats:p90', 'fixed 100', 'profit:2000', 'profit:500'])
    expect(a.summary.fees.background!.applied).toBeGreaterThan(0)
    expect(a.summary.auctions.filled).toBeGreaterThan(0)
    expect(a.summary.replayMismatches).toBe(0)
    await runScenario({ loaded, seed: 1, outDir: join(OUT, 'b') })
    const [ja, jb] = await Promise.all([readFile(join(OUT, 'a', 'report.json'), 'utf8'), readFile(join(OUT, 'b', 'report.json'), 'utf8')])
    expect(jb).toBe(ja)
  })
})
