/**
 * The Blend adapter as the keeper builds it from its configuration (AdapterContext).
 */
import { simulateRead, SubmissionLanes } from '../../../chain/index.js'
import { ExecutorContract } from '../../clients/executor.js'
import type { AdapterFactory } from '../../sdk/index.js'
import { atomicExecutor } from './atomic.js'
import { borrowerSourcesOf } from './borrowerSources.js'
import type { AtomicExecutor } from './context.js'
import { lendingPoolAdapter, readerOf } from './adapter.js'
import { SaleReservations } from './saleReservations.js'
import { scAddress } from './storage.js'

/** The key of the keeper's shared SaleReservations in `AdapterContext.shared`. */
const SHARED_SALES = 'blend.sales'

/**
 * Factory the keeper calls once per pool of LENDING_POOLS. With EXECUTOR_CONTRACT and a DEX router,
 * user liquidations take the atomic path through the executor. Borrowers: the pool's events plus
 * WATCH_ADDRESSES, BORROWER_HINTS_FILE and HISTORY_API_URL (an unreadable hints file fails the build).
 */
export const createLendingPoolAdapter: AdapterFactory = async (ctx) => {
  if (ctx.lendingPool === undefined) throw new Error('LENDING_POOLS is not set')
  const pool = ctx.lendingPool
  const borrowerSources = await borrowerSourcesOf(ctx, pool)
  let executor: AtomicExecutor | undefined
  if (ctx.executorContract !== undefined) {
    if (ctx.primaryDexRouter === undefined) throw new Error('EXECUTOR_CONTRACT needs PRIMARY_DEX_ROUTER: the atomic path sells the collateral in the same transaction')
    let usdc = ctx.usdcContract
    executor = atomicExecutor({
      executor: new ExecutorContract(ctx.chain, ctx.executorContract),
      lanes: ctx.lanes ?? new SubmissionLanes(ctx.keypair),
      pool,
      usdc: async (chain) => (usdc ??= scAddress(await simulateRead(chain, ctx.vaultContract, 'get_usdc'), 'get_usdc')),
      router: ctx.primaryDexRouter,
      slippageBps: ctx.slippageBps,
      reader: readerOf(ctx.chain, undefined),
    })
  }
  // One book of the keeper's DEX sales for all its pools (buildAdapters gives them one map).
  const sales = (ctx.shared?.get(SHARED_SALES) as SaleReservations | undefined) ?? new SaleReservations()
  ctx.shared?.set(SHARED_SALES, sales)
  return lendingPoolAdapter({
    pool: ctx.lendingPool,
    sales,
    ...(ctx.usdcContract === undefined ? {} : { usdc: ctx.usdcContract }),
    vaultContract: ctx.vaultContract,
    minProfit: ctx.minProfit,
    slippageBps: ctx.slippageBps,
    ...(ctx.profitBasis === undefined ? {} : { profitBasis: ctx.profitBasis }),
    ...(ctx.cometPools === undefined ? {} : { cometPools: ctx.cometPools }),
    ...(ctx.primaryDexRouter === undefined ? {} : { primaryDexRouter: ctx.primaryDexRouter }),
    ...(ctx.fallbackDexRouter === undefined ? {} : { fallbackDexRouter: ctx.fallbackDexRouter }),
    emit: ctx.emit,
    failureSalt: ctx.keypair.publicKey(),
    ...(ctx.fullScanMinutes === undefined ? {} : { fullScanMinutes: ctx.fullScanMinutes }),
    ...(ctx.metrics === undefined ? {} : { metrics: ctx.metrics }),
    logger: ctx.logger,
    ...(ctx.now === undefined ? {} : { now: ctx.now }),
    ...(ctx.lanes === undefined ? {} : { lanes: ctx.lanes }),
    ...(executor === undefined ? {} : { executor }),
    ...(ctx.fillFee === undefined ? {} : { fillFee: ctx.fillFee }),
    ...(ctx.drawLimit === undefined ? {} : { drawLimit: ctx.drawLimit }),
    borrowerSources,
  })
}
