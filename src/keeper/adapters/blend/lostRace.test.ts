import { Keypair } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { createChain, LedgerMissedError, SubmissionLanes, type SubmitOptions } from '../../../chain/index.js'
import type { ExecutionPlan, FireContext, Task } from '../../sdk/index.js'
import { atomicExecutor, type ExecutorLiquidator } from './atomic.js'
import type { BlendContext } from './context.js'
import { ErrAlreadyFilled } from './errors.js'
import { FailureBudget } from './failureBudget.js'
import { SaleReservations } from './saleReservations.js'
import { AuctionOrigins } from './auctionOrigins.js'
import { FakeLedger, randomAccount, randomContract } from './fakeLedger.test-util.js'
import type { UserPlanData } from './plans.js'
import type { PoolReader } from './scan.js'
import type { AuctionData } from './storage.js'
import type { BlendTaskData } from './taskData.js'
import { userLiquidations } from './userLiquidation.js'

const chain = createChain({ rpcUrl: 'http://node', networkPassphrase: 'x', server: {} as never })
const user = randomAccount()
const usdc = randomContract()
const auction: AuctionData = { bid: new Map([[usdc, 100n]]), lot: new Map([[randomContract(), 1000n]]), block: 50 }
const fill = { block: 240, percent: 100, delta: 190, lotValue: 105n, bidCost: 100n, ratio: 10_500_000n, bid: { [usdc]: 100n }, lot: {} }
const plan: ExecutionPlan<UserPlanData> = {
  key: `0:${user}`,
  targetLedger: 240,
  capital: 100n,
  priority: 7,
  path: 'two-step',
  data: { kind: 'user_liquidation', user, auction, reserves: new Map(), prices: new Map(), fill, venues: '', seen: 230 },
}
const noFire = {} as FireContext
/** A fire context that waits for nothing and records nothing. */
const quietFire: FireContext = {
  vault: { draw: async () => {}, returnProceeds: async () => 0n },
  step: async () => {},
  waitUntilSendable: async () => {},
  responseTimeMs: async () => 0,
}
const order = { drew: 100n, requests: [], lotAssets: [] }

/** An atomic executor for operator `op` whose flash fill is `liquidate`. */
function atomicWith(op: Keypair, liquidate: ExecutorLiquidator['liquidate']) {
  return atomicExecutor({
    executor: { contractId: randomContract(), liquidate },
    lanes: new SubmissionLanes(op),
    pool: randomContract(),
    usdc: async () => usdc,
    router: randomContract(),
    slippageBps: 100,
    reader: new FakeLedger() as unknown as PoolReader,
  })
}

/** A Blend context in which the auction is gone (another keeper filled it). */
function goneContext(): BlendContext {
  return {
    pool: randomContract(),
    minProfit: 10_200_000n,
    slippageBps: 100,
    profitBasis: 'oracle',
    failures: new FailureBudget(),
    sales: new SaleReservations(),
    origins: new AuctionOrigins(),
    reader: () => new FakeLedger() as unknown as PoolReader,
    scan: async () => ({ borrowers: [] }) as never,
    usdc: async () => usdc,
    venues: () => [],
    loadAuction: async () => undefined,
    openUserAuction: async () => 'open',
    freshValuation: async () => {
      throw new Error('not reached')
    },
  }
}

describe('a lost race carries the ErrAlreadyFilled type, not only its words', () => {
  it('two-step fire: the auction is gone before drawing', async () => {
    const r = await userLiquidations(goneContext()).fire(chain, Keypair.random(), plan, noFire)
    expect('replan' in r).toBe(false)
    const result = r as Exclude<typeof r, { replan: number }>
    expect(result).toMatchObject({ success: false, lost: true, drew: 0n, note: `auction for ${user} already filled` })
    expect(result.error).toBeInstanceOf(ErrAlreadyFilled)
    expect(result.error).toMatchObject({ name: 'ErrAlreadyFilled', code: 'ALREADY_FILLED' })
  })

  it('plan: no open auction is a skip with the typed error', async () => {
    const task: Task<BlendTaskData> = { priority: 7, estProfit: 0n, label: user, data: { kind: 'user_liquidation', user, hasAuction: true } as BlendTaskData }
    // A plan values first (the ledger's shared read tells it which ledger it is in), then reads the auction.
    const valued = { reserves: new Map(), prices: { decimals: 7, prices: new Map() }, latest: { sequence: 5 } as never }
    const ctx = { ...goneContext(), scan: async () => ({ borrowers: [], snapshot: { latestLedger: 5 } }) as never, freshValuation: async () => valued }
    const outcome = await userLiquidations(ctx).plan(chain, Keypair.random(), task)
    expect(outcome).toMatchObject({ skip: `auction for ${user} already filled: no open auction` })
    expect((outcome as { error?: Error }).error).toBeInstanceOf(ErrAlreadyFilled)
  })

  it('atomic fill: the executor transaction fails and the auction is gone', async () => {
    const op = Keypair.random()
    const exec = atomicWith(op, async () => {
      throw new Error('HostError: Error(Contract, #1200)')
    })
    const result = await exec.liquidateAtomic({ chain, keypair: op, plan: { ...plan, path: 'atomic' }, auction, fill, order, reserves: new Map(), prices: new Map(), fc: quietFire, fee: {} })
    expect(result).toMatchObject({ success: false, lost: true, drew: 0n })
    expect(result.error).toBeInstanceOf(ErrAlreadyFilled)
  })
})

describe('an atomic fill bounded to its planned ledger', () => {
  it('is sent with the planned ledger as its last; a miss is no failed transaction and no lost race', async () => {
    const op = Keypair.random()
    const seen: Array<SubmitOptions | undefined> = []
    // The auction is still there (the reader's): had it been looked up, nothing would say the race was lost.
    const exec = atomicWith(op, async (_l, _lane, options) => {
      seen.push(options)
      throw new LedgerMissedError(options?.lastLedger ?? -1)
    })
    const result = await exec.liquidateAtomic({ chain, keypair: op, plan: { ...plan, path: 'atomic' }, auction, fill, order, reserves: new Map(), prices: new Map(), fc: quietFire, fee: { inclusionFee: 500 } })
    expect(seen).toEqual([{ inclusionFee: 500, lastLedger: 240 }])
    expect(result).toMatchObject({ success: false, drew: 0n, note: 'atomic fill of 100 % missed ledger 240; planned again' })
    expect(result.lost).toBeFalsy()
    expect(result.failedTransaction).toBeUndefined()
    expect(result.error).toBeInstanceOf(LedgerMissedError)
  })
})
