/**
 * Two-step user liquidations within the registry's bond limit (the keeper's `draw_limit`): a
 * fill whose draw is above it is planned at a smaller percent that fits, or skipped with words
 * that say why; a flash (atomic) fill is not bound by it.
 */
import { Keypair } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { createChain } from '../../../chain/index.js'
import type { ExecutionPlan, Task } from '../../sdk/index.js'
import type { AtomicExecutor, BlendContext } from './context.js'
import { AuctionOrigins } from './auctionOrigins.js'
import { FailureBudget } from './failureBudget.js'
import { FakeLedger, randomAccount, randomContract } from './fakeLedger.test-util.js'
import type { Reserve } from './loadPool.js'
import type { UserPlanData } from './plans.js'
import { SaleReservations } from './saleReservations.js'
import type { PoolReader } from './scan.js'
import type { BlendTaskData } from './taskData.js'
import { fillOrder, userLiquidations } from './userLiquidation.js'
import { flatReserve } from '../../../../test/keeper/flatReserve.js'

const ONE = 1_0000000n
const chain = createChain({ rpcUrl: 'http://node', networkPassphrase: 'x', server: {} as never })

const reserve = (asset: string, index: number): Reserve => flatReserve(asset, index)

const usdc = randomContract()
const xlm = randomContract()
const user = randomAccount()
const reserves = new Map([
  [usdc, reserve(usdc, 0)],
  [xlm, reserve(xlm, 1)],
])
const prices = new Map([
  [usdc, { price: ONE, timestamp: 0n }],
  [xlm, { price: ONE / 10n, timestamp: 0n }],
])
// 100 USDC of debt against 1100 XLM (110 USDC): at 100 % the draw is the USDC repay of the bid.
const auction = { bid: new Map([[usdc, 100n * ONE]]), lot: new Map([[xlm, 1100n * ONE]]), block: 1000 }
const task: Task<BlendTaskData> = { priority: 7, estProfit: 0n, label: user, data: { kind: 'user_liquidation', user, hasAuction: true } as BlendTaskData }

function context(over: Partial<BlendContext>): BlendContext {
  return {
    pool: randomContract(),
    minProfit: 10_200_000n,
    slippageBps: 100,
    profitBasis: 'oracle',
    failures: new FailureBudget(),
    sales: new SaleReservations(),
    origins: new AuctionOrigins(),
    reader: () => new FakeLedger() as unknown as PoolReader,
    scan: async () => ({ borrowers: [], snapshot: { latestLedger: 999 } }) as never,
    usdc: async () => usdc,
    venues: () => [],
    loadAuction: async () => auction,
    openUserAuction: async () => 'open',
    freshValuation: async () => ({ reserves, prices: { decimals: 7, prices }, latest: { id: 'x', sequence: 1000, protocolVersion: 23 } as never }),
    ...over,
  }
}

const planOf = async (ctx: BlendContext) => userLiquidations(ctx).plan(chain, Keypair.random(), task)

describe('two-step user liquidations within the bond limit', () => {
  it('no limit known: the whole auction', async () => {
    const plan = (await planOf(context({}))) as ExecutionPlan<UserPlanData>
    expect(plan.path).toBe('two-step')
    expect(plan.data.fill.percent).toBe(100)
    expect(plan.capital).toBeGreaterThan(100n * ONE)
  })

  it('a draw above the limit: planned again at a smaller percent whose draw fits', async () => {
    const full = (await planOf(context({}))) as ExecutionPlan<UserPlanData>
    const limit = 40n * ONE
    const lines: { obj: object; msg: string | undefined }[] = []
    const plan = (await planOf(context({ drawLimit: async () => limit, logger: { info: (obj, msg) => lines.push({ obj, msg }) } }))) as ExecutionPlan<UserPlanData>
    expect('skip' in plan).toBe(false)
    expect(plan.capital).toBeLessThanOrEqual(limit)
    expect(plan.capital).toBeGreaterThan(limit / 2n)
    expect(plan.data.fill.percent).toBeLessThan(full.data.fill.percent)
    // what the plan carries is what fire sends: the same order's draw
    const order = fillOrder(user, plan.data.fill, reserves, usdc)
    expect('refuse' in order ? undefined : order.drew).toBe(plan.capital)
    expect(lines).toEqual([
      { obj: { user, percent: plan.data.fill.percent, drew: plan.capital.toString(), drawLimit: limit.toString() }, msg: 'two-step fill sized to the bond limit' },
    ])
  })

  it('a limit no part of the auction fits (below a 1 % draw): skipped, saying so', async () => {
    const outcome = await planOf(context({ drawLimit: async () => 1n * ONE / 2n }))
    expect(outcome).toMatchObject({
      skip: expect.stringMatching(/^needs a two-step draw of \d+ USDC stroops, above the registry's bond limit for this keeper \(draw_limit 5000000\): skipped; add bond to raise it$/),
    })
  })

  it('a flash fill (an executor is the keeper) is not bound by it', async () => {
    const executor: AtomicExecutor = {
      liquidateAtomic: async () => {
        throw new Error('not fired here')
      },
    }
    let asked = 0
    const plan = (await planOf(
      context({
        executor,
        drawLimit: async () => {
          asked++
          return 1n
        },
      }),
    )) as ExecutionPlan<UserPlanData>
    expect(plan.path).toBe('atomic')
    expect(plan.data.fill.percent).toBe(100)
    expect(asked).toBe(0)
  })
})
