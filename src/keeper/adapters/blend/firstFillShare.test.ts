/**
 * An auction's first fill when other first fills of this keeper sell into the same pool in the
 * same ledger or the two after it: whole where the pool is deep enough that it still pays after
 * the others each sold as much, its share (1/n of its largest part) where it is not.
 */
import { Keypair } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { createChain } from '../../../chain/index.js'
import type { ConstantProductPool } from '../../../core/index.js'
import { makeResult, type ExecutionPlan, type FireContext, type Task } from '../../sdk/index.js'
import type { AtomicFill, BlendContext } from './context.js'
import { AuctionOrigins } from './auctionOrigins.js'
import { FailureBudget } from './failureBudget.js'
import { FakeLedger, randomAccount, randomContract } from './fakeLedger.test-util.js'
import type { UserPlanData } from './plans.js'
import { SaleReservations } from './saleReservations.js'
import type { PoolReader } from './scan.js'
import type { AuctionData } from './storage.js'
import type { BlendTaskData } from './taskData.js'
import { userLiquidations } from './userLiquidation.js'
import { flatReserve } from '../../../../test/keeper/flatReserve.js'

const ONE = 1_0000000n
const chain = createChain({ rpcUrl: 'http://node', networkPassphrase: 'x', server: {} as never })
const usdc = randomContract()
const xlm = randomContract()
const user = randomAccount()
const reserves = new Map([
  [usdc, flatReserve(usdc, 0)],
  [xlm, flatReserve(xlm, 1)],
])
const prices = new Map([
  [usdc, { price: ONE, timestamp: 0n }],
  [xlm, { price: ONE / 10n, timestamp: 0n }],
])
// 100 USDC of debt against 1100 XLM (110 USDC at 0.10).
const auction: AuctionData = { bid: new Map([[usdc, 100n * ONE]]), lot: new Map([[xlm, 1100n * ONE]]), block: 1000 }
const task: Task<BlendTaskData> = { priority: 7, estProfit: 0n, label: user, data: { kind: 'user_liquidation', user, hasAuction: true } as BlendTaskData }
/** An XLM/USDC pool of `depthXlm` XLM at the oracle's price. */
const pool = (depthXlm: bigint): ConstantProductPool => ({ reserveIn: depthXlm * ONE, reserveOut: (depthXlm * ONE) / 10n })

/** Plans the auction, lets `others` first fills of other auctions plan for the same ledger, fires it: the percent sent. */
async function firstFill(depthXlm: bigint, others: number): Promise<number> {
  let ledger = 1000
  const sent: AtomicFill[] = []
  const ctx: BlendContext = {
    pool: randomContract(),
    minProfit: 10_200_000n,
    slippageBps: 1000,
    profitBasis: 'oracle',
    failures: new FailureBudget(),
    sales: new SaleReservations(),
    origins: new AuctionOrigins(),
    reader: () => new FakeLedger() as unknown as PoolReader,
    scan: async () => ({ borrowers: [{ user, auction }], prices: { decimals: 7, prices }, snapshot: { latestLedger: ledger } }) as never,
    usdc: async () => usdc,
    venues: () => [],
    loadAuction: async () => auction,
    openUserAuction: async () => 'open',
    freshValuation: async () => ({ reserves, prices: { decimals: 7, prices }, latest: { id: 'x', sequence: ledger, protocolVersion: 23 } as never }),
    saleDepth: async () => pool(depthXlm),
    executor: {
      liquidateAtomic: async (f: AtomicFill) => {
        sent.push(f)
        return makeResult({ drew: f.order.drew, proceeds: f.order.drew, responseTimeMs: 0, success: true })
      },
    },
  }
  const users = userLiquidations(ctx)
  const plan = (await users.plan(chain, Keypair.random(), task)) as ExecutionPlan<UserPlanData>
  for (let i = 0; i < others; i++) ctx.sales.intend(plan.targetLedger, `other-${i}`, [xlm])
  ledger = plan.targetLedger - 1
  const fc: FireContext = { vault: { draw: async () => {}, returnProceeds: async () => 0n }, step: async () => {}, waitUntilSendable: async () => {}, responseTimeMs: async () => 0 }
  const out = await users.fire(chain, Keypair.random(), plan, fc)
  expect('replan' in out).toBe(false)
  expect(sent).toHaveLength(1)
  return sent[0]!.fill.percent
}

describe("an auction's first fill among others into the same pool", () => {
  it('alone: whole', async () => {
    expect(await firstFill(400_000n, 0)).toBe(100)
  })

  it('in a deep pool, with two others due together: still whole (fewer, larger transactions)', async () => {
    expect(await firstFill(10_000_000n, 2)).toBe(100)
  })

  it('in a pool that pays the whole lot once but not after two more like it: its share', async () => {
    // 1,100 XLM into 400,000: whole alone, but at the first ledger it pays the margin is thin.
    expect(await firstFill(400_000n, 2)).toBe(34)
  })
})
