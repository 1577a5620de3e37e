/**
 * The atomic path of a user liquidation: the vault's flash draw to the keeper's executor contract
 * (the registered keeper, deployed by the registry from its approved code). The operator sends
 * `vault.flash_draw`; the vault lends, the executor fills + repays + withdraws the collateral,
 * sells it on the DEX and hands all the USDC back, and the vault pays the keeper its fee, in ONE
 * transaction. A lost race or a sale below the draw reverts the whole transaction, so no capital
 * is ever outstanding across a ledger and a crash can never strand it. The sale follows the plan:
 * each lot asset on one venue or split between two, through an intermediate asset where that
 * pays more, each part with its own floor. The registry's bond limit
 * does not bound it (that is for two-step draws).
 */
import { ContractError, DryRunRefusal, LedgerMissedError, type SubmissionLanes } from '../../../chain/index.js'
import type { ExecutorContract, ExecutorSwap } from '../../clients/executor.js'
import { mulDiv, SCALAR_12, slippageFloor } from '../../../core/index.js'
import { executionFee, makeResult, type Result } from '../../sdk/index.js'
import type { FillPlan } from './auctionPlan.js'
import type { AtomicExecutor, AtomicFill } from './context.js'
import { ErrAlreadyFilled } from './errors.js'
import { failedTransaction } from './failureBudget.js'
import { usdcValue } from './sellCollateral.js'
import { AuctionType } from './storage.js'
import { lostRace, sameAuction } from './userLiquidation.js'
import type { PoolReader } from './scan.js'
import { loadAuction } from './loadPool.js'

/** The executor's atomic `liquidate` (the vault's flash draw), sent from a lane with the operator's authorization. */
export type ExecutorLiquidator = Pick<ExecutorContract, 'contractId' | 'liquidate'>

export interface AtomicExecutorParameters {
  executor: ExecutorLiquidator
  lanes: SubmissionLanes
  pool: string
  usdc: (chain: AtomicFill['chain']) => Promise<string>
  /** Router the executor sells the seized collateral on. */
  router: string
  slippageBps: number
  reader: PoolReader
}

/** The seized collateral the fill is planned to yield (bTokens at the current b_rate, floor). */
function expectedUnderlying(bTokens: bigint, bRate: bigint): bigint {
  return mulDiv(bTokens, bRate, SCALAR_12, 'floor')
}

/**
 * The executor's swaps for a fill: the planned parts of each lot asset's sale on their venues
 * and paths, the last part of each asset selling whatever balance is left (0n: the executor's
 * whole balance, so rounding in the pool's withdrawal never leaves collateral unsold); an asset
 * without planned parts gets `single(asset)`.
 */
export function plannedSwaps(fill: Pick<FillPlan, 'swaps'>, lotAssets: readonly string[], single: (asset: string) => ExecutorSwap): ExecutorSwap[] {
  const out: ExecutorSwap[] = []
  for (const asset of lotAssets) {
    const parts = fill.swaps?.filter((s) => s.asset === asset) ?? []
    if (parts.length === 0) {
      out.push(single(asset))
      continue
    }
    parts.forEach((s, i) => out.push({ venue: s.venue, path: s.path, amountIn: i === parts.length - 1 ? 0n : s.amountIn, minOut: s.minOut }))
  }
  return out
}

/** The planned swaps as the result names them (route names; the last part of an asset: 0n, the rest). */
function saleRecord(fill: Pick<FillPlan, 'swaps'>, lotAssets: readonly string[]): NonNullable<Result['sales']> {
  const out: NonNullable<Result['sales']> = []
  for (const asset of lotAssets) {
    const parts = fill.swaps?.filter((s) => s.asset === asset) ?? []
    parts.forEach((s, i) => out.push({ asset, route: s.route, amountIn: i === parts.length - 1 ? 0n : s.amountIn, minOut: s.minOut }))
  }
  return out
}

export function atomicExecutor(p: AtomicExecutorParameters): AtomicExecutor {
  return {
    async liquidateAtomic(f: AtomicFill): Promise<Result> {
      const { fill, order, reserves, prices, fc, plan } = f
      const usdc = await p.usdc(f.chain)
      const swaps = plannedSwaps(fill, order.lotAssets, (asset) => {
        // Not valued across venues: the whole balance on the router, floor from the oracle here.
        const amount = expectedUnderlying(fill.lot[asset] ?? 0n, reserves.get(asset)?.data.b_rate ?? SCALAR_12)
        const minOut = fill.minOut?.[asset] ?? slippageFloor(usdcValue(amount, asset, usdc, reserves, prices), p.slippageBps)
        return { venue: { kind: 'router', router: p.router }, path: [asset, usdc], amountIn: 0n, minOut }
      })
      await fc.waitUntilSendable(fill.block)
      // Fixed when sent: the transaction is meant for the next ledger, the planned one.
      const responseTimeMs = await fc.responseTimeMs(fill.block)
      let sent: Awaited<ReturnType<ExecutorLiquidator['liquidate']>>
      try {
        // Valued for the planned ledger only: a fill that misses it is planned again on the
        // figures of the ledger it would land in, never sent (or fee-bumped) into a later one.
        sent = await p.lanes.run((lane) =>
          p.executor.liquidate(
            { pool: p.pool, draw: order.drew, requests: order.requests, swaps, minProceeds: order.drew, responseTimeMs },
            lane,
            { ...f.fee, lastLedger: fill.block },
          ),
        )
      } catch (err) {
        // A dry run: the flash draw's simulation passed and nothing was sent.
        if (err instanceof DryRunRefusal) throw err
        if (err instanceof LedgerMissedError) {
          // Nothing was applied or charged: not a failure of the fill, so no failure budget.
          return makeResult({ drew: 0n, proceeds: 0n, responseTimeMs: 0, success: false, note: `atomic fill of ${fill.percent} % missed ledger ${fill.block}; planned again`, error: err })
        }
        // Nothing was drawn: the transaction either landed whole or not at all.
        const now = await loadAuction(p.reader, p.pool, AuctionType.UserLiquidation, plan.data.user).catch(() => f.auction)
        const lost = now === undefined || !sameAuction(now, f.auction)
        const why = err instanceof ContractError ? `contract error #${err.code}` : err instanceof Error ? err.message : String(err)
        if (lost) {
          const details = `another fill ran first (${now === undefined ? 'all of it' : 'part of it'}); this one failed: ${why}`
          return { ...lostRace(new ErrAlreadyFilled(plan.data.user, details)), failedTransaction: failedTransaction(err, true) }
        }
        return makeResult({
          drew: 0n,
          proceeds: 0n,
          responseTimeMs: 0,
          success: false,
          note: `atomic fill of ${fill.percent} % failed (nothing drawn): ${why}`,
          failedTransaction: failedTransaction(err, false),
          ...(err instanceof Error ? { error: err } : {}),
        })
      }
      for (const step of ['drawn', 'filled', 'swapped', 'returned'] as const) await fc.step(step, { ledger: sent.ledger, txHash: sent.hash })
      // Everything the fill gained went to the vault: the depositors' profit and the keeper's fee.
      return makeResult({
        drew: order.drew,
        proceeds: order.drew + sent.profit + sent.fee,
        responseTimeMs,
        success: true,
        txHash: sent.hash,
        note: `filled ${fill.percent} % atomically at ledger ${sent.ledger} (planned ${plan.targetLedger})`,
        fee: executionFee(sent.submitted),
        reward: sent.fee,
        ...(fill.swaps === undefined ? {} : { sales: saleRecord(fill, order.lotAssets) }),
      })
    },
  }
}
