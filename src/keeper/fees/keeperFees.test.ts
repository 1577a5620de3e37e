import { Keypair, Networks, Operation, type rpc } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { queueNode } from '../../../test/chain/queueNode.js'
import { recordingLogger } from '../../../test/keeper/cycleFakes.js'
import { createChain, submit, type QueuedTransaction } from '../../chain/index.js'
import type { FeeStrategy } from '../../core/index.js'
import { createMetrics } from '../metrics.js'
import { FeeStatsCache } from './feeStats.js'
import { KeeperFees } from './keeperFees.js'

const stats = (p90: string, latestLedger = 50) =>
  ({ sorobanInclusionFee: { p90, max: '90000', p10: '100' }, inclusionFee: { p90: '100' }, latestLedger }) as unknown as rpc.Api.GetFeeStatsResponse

function setup(feeStrategy: FeeStrategy, opts: { inclusionFee?: number; maxFee?: number; feeBumpLedgers?: number; p90?: string; noStats?: boolean } = {}) {
  let ledger = 50
  let reads = 0
  const server = opts.noStats
    ? {}
    : {
        getFeeStats: async () => {
          reads++
          return stats(opts.p90 ?? '2500', ledger)
        },
      }
  const rec = recordingLogger()
  const metrics = createMetrics({ defaultMetrics: false })
  const fees = new KeeperFees({
    settings: { inclusionFee: opts.inclusionFee ?? 100, feeStrategy, maxFee: opts.maxFee ?? 10_000_000, feeBumpLedgers: opts.feeBumpLedgers ?? 2 },
    server,
    latestLedger: () => ledger,
    logger: rec.logger,
    metrics,
  })
  const metric = async (name: string) => (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === name)?.values ?? []
  return { fees, rec, metric, setLedger: (l: number) => (ledger = l), reads: () => reads }
}

const queued = (inclusionFee: bigint): QueuedTransaction => ({ hash: 'ab', inclusionFee, operations: 1, sentLedger: 10, latestLedger: 12 })

describe('the keeper fee strategy', () => {
  it('fixed: every transaction bids INCLUSION_FEE, and the bid gauge says so', async () => {
    const { fees, metric } = setup({ kind: 'fixed' }, { inclusionFee: 1000 })
    expect(await fees.bid()).toBe(1000)
    expect(await fees.fill({ expectedProfit: 10n ** 12n, xlmPrice: 1000000n })).toMatchObject({ inclusionFee: 1000 })
    expect((await metric('service_fee_bid_stroops'))[0]?.value).toBe(1000)
  })

  it('profit:BPS: a fill bids its share of the expected profit in XLM; other transactions bid INCLUSION_FEE', async () => {
    const { fees, rec } = setup({ kind: 'profit', bps: 100 })
    // 1 % of 5 USDC at 0.25 USDC per XLM: 0.2 XLM.
    expect((await fees.fill({ expectedProfit: 5_0000000n, xlmPrice: 2500000n })).inclusionFee).toBe(2_000_000)
    // 1 % of 500 USDC would be 20 XLM: capped at MAX_FEE (1 XLM).
    expect((await fees.fill({ expectedProfit: 500_0000000n, xlmPrice: 2500000n })).inclusionFee).toBe(10_000_000)
    expect(await fees.bid()).toBe(100)
    expect(await fees.chainFees().inclusionFee!()).toBe(100)
    expect(rec.lines.filter((l) => l.level === 'warn')).toEqual([])
  })

  it('reads a lazy XLM price only under profit:BPS; a failed read is no price', async () => {
    let reads = 0
    const read = async () => {
      reads++
      return 2500000n
    }
    expect((await setup({ kind: 'fixed' }).fees.fill({ expectedProfit: 5_0000000n, xlmPrice: read })).inclusionFee).toBe(100)
    expect((await setup({ kind: 'feestats', percentile: 'p90' }).fees.fill({ expectedProfit: 5_0000000n, xlmPrice: read })).inclusionFee).toBe(2500)
    expect(reads).toBe(0)
    expect((await setup({ kind: 'profit', bps: 100 }).fees.fill({ expectedProfit: 5_0000000n, xlmPrice: read })).inclusionFee).toBe(2_000_000)
    expect(reads).toBe(1)
    const failing = setup({ kind: 'profit', bps: 100 }, { inclusionFee: 250 })
    expect((await failing.fees.fill({ expectedProfit: 5_0000000n, xlmPrice: () => Promise.reject(new Error('down')) })).inclusionFee).toBe(250)
  })

  it('profit:BPS without an XLM price falls back to INCLUSION_FEE and says so once', async () => {
    const { fees, rec } = setup({ kind: 'profit', bps: 100 }, { inclusionFee: 300 })
    expect((await fees.fill({ expectedProfit: 5_0000000n })).inclusionFee).toBe(300)
    expect((await fees.fill({ expectedProfit: 7_0000000n })).inclusionFee).toBe(300)
    const warns = rec.lines.filter((l) => l.level === 'warn')
    expect(warns).toHaveLength(1)
    expect(warns[0]!.msg).toMatch(/without an XLM price: FEE_STRATEGY profit:100 bids INCLUSION_FEE/)
  })

  it('feestats:pNN: every transaction bids the percentile, read at most once per ledger', async () => {
    const { fees, reads, setLedger } = setup({ kind: 'feestats', percentile: 'p90' })
    expect(await fees.bid()).toBe(2500)
    expect((await fees.fill({})).inclusionFee).toBe(2500)
    await Promise.all([fees.bid(), fees.bid(), fees.chainFees().inclusionFee!()])
    expect(reads()).toBe(1)
    setLedger(51)
    await fees.bid()
    await fees.bid()
    expect(reads()).toBe(2)
  })

  it('feestats: clamped to [INCLUSION_FEE, MAX_FEE]; no statistics: INCLUSION_FEE, said once', async () => {
    expect(await setup({ kind: 'feestats', percentile: 'max' }, { maxFee: 50_000 }).fees.bid()).toBe(50_000)
    expect(await setup({ kind: 'feestats', percentile: 'p10' }, { inclusionFee: 400 }).fees.bid()).toBe(400)
    const none = setup({ kind: 'feestats', percentile: 'p90' }, { inclusionFee: 700, noStats: true })
    expect(await none.fees.bid()).toBe(700)
    expect(await none.fees.bid()).toBe(700)
    expect(none.rec.lines.filter((l) => l.level === 'warn').map((l) => l.msg)).toEqual(['no Soroban fee statistics from the RPC: bidding INCLUSION_FEE'])
  })

  it('fee bump: after FEE_BUMP_LEDGERS, the smallest bid the network takes, at least the fresh bid; none above MAX_FEE', async () => {
    const { fees, metric, rec } = setup({ kind: 'fixed' }, { inclusionFee: 200, maxFee: 5_000, feeBumpLedgers: 3 })
    const policy = fees.chainFees().feeBump!
    expect(policy.afterLedgers).toBe(3)
    expect(await policy.bid(queued(200n))).toBe(2_000)
    expect(await policy.bid(queued(600n))).toBeUndefined()
    policy.onBump!(queued(200n), { hash: 'cd', inclusionFee: 2_000, outcome: 'accepted' })
    policy.onBump!(queued(200n), { hash: 'ef', inclusionFee: 2_000, outcome: 'refused', reason: 'txInsufficientFee' })
    policy.onBump!(queued(200n), { hash: 'gh', inclusionFee: 2_000, outcome: 'unanswered' })
    policy.onBump!(queued(600n), 'skipped')
    expect(Object.fromEntries((await metric('service_fee_bumps_total')).map((v) => [v.labels.outcome, v.value]))).toEqual({ accepted: 1, refused: 1 })
    expect(rec.lines.map((l) => l.msg)).toEqual([
      'fee bump sent (accepted)',
      'fee bump refused; the transaction stays queued at its bid',
      'fee bump sent (unanswered)',
      'not included yet; no fee bump: the bid the network needs to replace it is above MAX_FEE',
    ])
    // A fill's bump bids at least the fill's own bid.
    const profit = setup({ kind: 'profit', bps: 10_000 })
    const fill = await profit.fees.fill({ expectedProfit: 1_0000000n, xlmPrice: 1_0000000n })
    expect(fill.inclusionFee).toBe(10_000_000)
    expect(await (fill.feeBump as { bid(q: QueuedTransaction): Promise<number | undefined> }).bid(queued(100n))).toBe(10_000_000)
  })

  it('FEE_BUMP_LEDGERS=0: no fee bump anywhere', async () => {
    const { fees } = setup({ kind: 'fixed' }, { feeBumpLedgers: 0 })
    expect(fees.chainFees().feeBump).toBeUndefined()
    expect((await fees.fill({})).feeBump).toBeNull()
  })

  it('drives the submission: the chain defaults bid and bump by the strategy', async () => {
    const { fees } = setup({ kind: 'fixed' }, { inclusionFee: 500 })
    const node = queueNode({ includes: (q) => q.inclusionFee / BigInt(q.operations) >= 5_000n })
    const chain = { ...createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server: node.server, clock: node.clock, retry: { pollIntervalMs: 1_000 } }), fees: fees.chainFees() }
    const op = Operation.invokeContractFunction({ contract: 'CA3D5KRYM6CB7OWQ6TWYRR3Z4T7GNZLKERYNZGGA5SOAOPIFY6YQGAXE', function: 'draw', args: [] })
    const res = await submit(chain, Keypair.random(), op)
    expect(res).toMatchObject({ inclusionFee: 500, bumped: true, feeBump: { inclusionFee: 5_000, outcome: 'accepted' } })
    expect(res.ledger - res.sentLedger!).toBe(3)
  })
})

describe('FeeStatsCache', () => {
  it('shares one read among concurrent callers, keeps a failure for its ledger, and reads nothing from a node without getFeeStats', async () => {
    let ledger = 7
    let calls = 0
    let fail = true
    const cache = new FeeStatsCache(
      {
        getFeeStats: async () => {
          calls++
          if (fail) throw new Error('down')
          return stats('1234', 3)
        },
      },
      () => ledger,
    )
    expect(await Promise.all([cache.percentile('p90'), cache.percentile('max')])).toEqual([undefined, undefined])
    expect(calls).toBe(1)
    fail = false
    expect(await cache.percentile('p90')).toBeUndefined()
    ledger = 8
    // A node behind the keeper's clock: its answer stands for the keeper's ledger.
    expect(await cache.percentile('p90')).toBe(1234)
    expect(await cache.percentile('p10')).toBe(100)
    expect(calls).toBe(2)
    expect(await new FeeStatsCache({}, () => 1).percentile('p90')).toBeUndefined()
  })
})
