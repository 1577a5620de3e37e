/**
 * When a planned user liquidation is planned again (`stale`): its auction changed, an oracle
 * price of one of its assets moved, or, when the sale is what holds the fill back, its venues
 * moved. Anything else leaves the plan alone, without reading the venues.
 */
import { Keypair } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { createChain } from '../../../chain/index.js'
import type { ConstantProductPool } from '../../../core/index.js'
import type { ExecutionPlan, Task } from '../../sdk/index.js'
import type { BlendContext } from './context.js'
import { AuctionOrigins } from './auctionOrigins.js'
import { FailureBudget } from './failureBudget.js'
import { FakeLedger, randomAccount, randomContract } from './fakeLedger.test-util.js'
import type { UserPlanData } from './plans.js'
import { SaleReservations } from './saleReservations.js'
import type { PoolReader } from './scan.js'
import type { AuctionData } from './storage.js'
import type { BlendTaskData } from './taskData.js'
import { planFill } from './auctionPlan.js'
import { userLiquidations } from './userLiquidation.js'
import { flatReserve } from '../../../../test/keeper/flatReserve.js'

const ONE = 1_0000000n
const chain = createChain({ rpcUrl: 'http://node', networkPassphrase: 'x', server: {} as never })
const usdc = randomContract()
const xlm = randomContract()
const eth = randomContract()
const user = randomAccount()
const reserves = new Map([
  [usdc, flatReserve(usdc, 0)],
  [xlm, flatReserve(xlm, 1)],
  [eth, flatReserve(eth, 2)],
])
const price = (xlmPrice: bigint, ethPrice = 3000n * ONE) =>
  new Map([
    [usdc, { price: ONE, timestamp: 0n }],
    [xlm, { price: xlmPrice, timestamp: 0n }],
    [eth, { price: ethPrice, timestamp: 0n }],
  ])
// 100 USDC of debt against 1100 XLM (110 USDC at 0.10).
const auction: AuctionData = { bid: new Map([[usdc, 100n * ONE]]), lot: new Map([[xlm, 1100n * ONE]]), block: 1000 }
const task: Task<BlendTaskData> = { priority: 7, estProfit: 0n, label: user, data: { kind: 'user_liquidation', user, hasAuction: true } as BlendTaskData }
/** An XLM/USDC pool deep enough for the lot, its price `belowOracleBps` under the oracle's 0.10. */
const pool = (belowOracleBps: bigint, depthXlm = 10_000_000n): ConstantProductPool => ({
  reserveIn: depthXlm * ONE,
  reserveOut: (depthXlm * ONE * (10_000n - belowOracleBps)) / 100_000n,
})

/** SLIPPAGE_BPS 10 % unless said: a quarter of it is kept as headroom, and the sale must cover the bid with it. */
function world(o: { pool: ConstantProductPool; slippageBps?: number }) {
  let venue = o.pool
  let depthReads = 0
  let scan = { ledger: 1000, auction, prices: price(ONE / 10n) }
  const ctx: BlendContext = {
    pool: randomContract(),
    minProfit: 10_200_000n,
    slippageBps: o.slippageBps ?? 1000,
    profitBasis: 'oracle',
    failures: new FailureBudget(),
    sales: new SaleReservations(),
    origins: new AuctionOrigins(),
    reader: () => new FakeLedger() as unknown as PoolReader,
    // A new scan object each time, as each poll makes one.
    scan: async () =>
      ({ borrowers: [{ user, auction: scan.auction }], prices: { decimals: 7, prices: scan.prices }, snapshot: { latestLedger: scan.ledger } }) as never,
    usdc: async () => usdc,
    venues: () => [],
    loadAuction: async () => scan.auction,
    openUserAuction: async () => 'open',
    freshValuation: async () => ({ reserves, prices: { decimals: 7, prices: scan.prices }, latest: { id: 'x', sequence: scan.ledger, protocolVersion: 23 } as never }),
    saleDepth: async () => {
      depthReads++
      return venue
    },
  }
  const users = userLiquidations(ctx)
  return {
    plan: async () => (await users.plan(chain, Keypair.random(), task)) as ExecutionPlan<UserPlanData>,
    stale: (plan: ExecutionPlan<UserPlanData>) => users.stale(chain, plan),
    at: (next: Partial<typeof scan>) => (scan = { ...scan, ...next }),
    setVenue: (p: ConstantProductPool) => (venue = p),
    depthReads: () => depthReads,
  }
}

/** The first block at which the lot clears MIN_PROFIT at the oracle alone. */
const oracleFirst = () => planFill({ auction, reserves, prices: price(ONE / 10n), minProfit: 10_200_000n, fromBlock: 1002 })!.block

describe('a planned user liquidation is planned again when its inputs moved', () => {
  it('nothing moved, or a new ledger with the same auction, prices and venues: the plan stands', async () => {
    const w = world({ pool: pool(0n) })
    const plan = await w.plan()
    expect(await w.stale(plan)).toBe(false)
    w.at({ ledger: 1010 })
    expect(await w.stale(plan)).toBe(false)
  })

  it('another keeper filled part of the auction, or it is gone: planned again', async () => {
    const w = world({ pool: pool(0n) })
    const plan = await w.plan()
    w.at({ ledger: 1001, auction: { ...auction, lot: new Map([[xlm, 550n * ONE]]), bid: new Map([[usdc, 50n * ONE]]) } })
    expect(await w.stale(plan)).toBe(true)
    w.at({ ledger: 1002, auction: undefined as never })
    expect(await w.stale(plan)).toBe(true)
  })

  it('the lot became dearer at the oracle: planned again (it pays sooner); another asset moved: not', async () => {
    const w = world({ pool: pool(0n) })
    const plan = await w.plan()
    w.at({ ledger: 1001, prices: price(ONE / 10n, 2900n * ONE) })
    expect(await w.stale(plan)).toBe(false)
    w.at({ ledger: 1002, prices: price((ONE * 11n) / 100n, 2900n * ONE) })
    expect(await w.stale(plan)).toBe(true)
  })

  it('the lot became cheaper: the fill can only come later, which fire finds; the auction gone: planned again', async () => {
    const w = world({ pool: pool(0n) })
    const plan = await w.plan()
    w.at({ ledger: 1001, prices: price((ONE * 99n) / 1000n) })
    expect(await w.stale(plan)).toBe(false)
    // 1100 XLM at 0.05 is 55 USDC against a 100 USDC bid that only decays to nothing at block 1400:
    // still a ledger that pays (the free lot), so not planned again either.
    w.at({ ledger: 1002, prices: price(ONE / 20n) })
    expect(await w.stale(plan)).toBe(false)
    // Every auction pays once its bid is free (block 1400): one that is gone is the one that never does.
    w.at({ ledger: 1003, auction: undefined as never })
    expect(await w.stale(plan)).toBe(true)
  })

  it('the sale holds the fill back: a venue that moved plans it again, one that did not leaves it', async () => {
    // 5 % under the oracle: within a 10 % floor, but the sale covers the bid only later than the oracle ratio clears.
    const w = world({ pool: pool(500n) })
    const plan = await w.plan()
    expect(plan.targetLedger).toBeGreaterThan(oracleFirst())
    w.at({ ledger: 1001 })
    expect(await w.stale(plan)).toBe(false)
    // The venues are read once a ledger: a move shows at the next one.
    w.setVenue(pool(100n))
    w.at({ ledger: 1002 })
    expect(await w.stale(plan)).toBe(true)
  })

  it('the oracle holds the fill back: venues cannot bring it forward and are not read', async () => {
    const w = world({ pool: pool(0n), slippageBps: 100 })
    const plan = await w.plan()
    expect(plan.targetLedger).toBe(oracleFirst())
    const reads = w.depthReads()
    w.at({ ledger: 1001 })
    w.setVenue(pool(0n, 20_000_000n))
    expect(await w.stale(plan)).toBe(false)
    expect(w.depthReads()).toBe(reads)
  })
})
