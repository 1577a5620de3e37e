import { toUnits } from '../metrics.js'
import { errorTag } from '../engine/index.js'
import type { Result } from '../sdk/index.js'
import type { CycleDeps } from './types.js'

/**
 * Folds one finished execution into the dashboard history, the metrics, the log and the event
 * stream. `service_liquidations_total` counts successful liquidations only: a result that says
 * it was no liquidation (`liquidation: false`, a rebalance) is counted in
 * `service_tasks_total` but not there. The result's typed error (e.g. `ErrAlreadyFilled`) is
 * kept on the record and named in the log line and the event (`error: { name, code, message }`).
 * The fill's fee (`result.fee`) adds to `service_fees_paid_xlm_total` and its inclusion delay
 * (ledgers from sending to inclusion) to `service_inclusion_delay_ledgers`. The keeper's reward
 * (`result.reward`, the fee the vault paid it) adds to the dashboard's `rewards` and
 * `service_keeper_rewards_usdc_total`.
 */
export function recordResult(
  deps: Pick<CycleDeps, 'state' | 'metrics' | 'logger' | 'events'>,
  adapter: string,
  label: string,
  result: Result,
  pool?: string | null,
): void {
  const rec = deps.state.fold(adapter, label, result, pool)
  if (rec.reward > 0n) deps.metrics.rewardsTotal.inc(toUnits(rec.reward))
  if (rec.success) {
    if (rec.liquidation) deps.metrics.liquidationsTotal.inc()
    deps.metrics.profitTotal.inc(toUnits(rec.profit))
    if (rec.liquidation && rec.pool !== undefined) {
      deps.metrics.poolFills.inc({ pool: rec.pool })
      deps.metrics.poolDrawn.inc({ pool: rec.pool }, toUnits(rec.drew))
      deps.metrics.poolProfit.inc({ pool: rec.pool }, toUnits(rec.profit))
    }
  }
  deps.metrics.tasksTotal.inc({ adapter, outcome: rec.success ? 'filled' : 'unfilled' })
  if (result.failedTransaction !== undefined) {
    deps.metrics.failedTransactions.inc({ reason: result.failedTransaction.reason })
    if (result.failedTransaction.feeCharged > 0n) deps.metrics.failedTransactionFees.inc(toUnits(result.failedTransaction.feeCharged))
  }
  const fee = result.fee
  if (fee !== undefined) {
    if (fee.chargedStroops !== null) deps.metrics.feesPaid.inc(toUnits(fee.chargedStroops))
    if (fee.sentLedger !== null) deps.metrics.inclusionDelay.observe(Math.max(0, fee.includedLedger - fee.sentLedger))
  }
  const error = errorTag(result.error)
  deps.logger.info(
    {
      adapter,
      ...(rec.pool === undefined ? {} : { pool: rec.pool }),
      label,
      drew: rec.drew.toString(),
      proceeds: rec.proceeds.toString(),
      profit: rec.profit.toString(),
      reward: rec.reward.toString(),
      responseTimeMs: rec.responseTimeMs,
      success: rec.success,
      ...(fee === undefined
        ? {}
        : { feeBid: fee.bidStroops, feeCharged: fee.chargedStroops?.toString() ?? null, feeBumped: fee.bumped, sentLedger: fee.sentLedger, includedLedger: fee.includedLedger }),
      ...(error ? { error: error.name, ...(error.code === undefined ? {} : { errorCode: error.code }) } : {}),
    },
    'task executed',
  )
  deps.events.push(rec.success ? 'fill' : 'miss', `${adapter}: ${label}: ${result.note ?? (rec.success ? 'filled' : 'not filled')}`, {
    adapter,
    ...(rec.pool === undefined ? {} : { pool: rec.pool }),
    drew: rec.drew.toString(),
    proceeds: rec.proceeds.toString(),
    profit: rec.profit.toString(),
    reward: rec.reward.toString(),
    responseTimeMs: rec.responseTimeMs,
    ...(error ? { error } : {}),
  })
}

/**
 * A keeper fee the vault paid outside an execution's result (a return made by stale-draw
 * recovery): onto the dashboard's `rewards` and `service_keeper_rewards_usdc_total`.
 */
export function bookReward(deps: Pick<CycleDeps, 'state' | 'metrics'>, fee: bigint): void {
  if (fee <= 0n) return
  deps.state.bookReward(fee)
  deps.metrics.rewardsTotal.inc(toUnits(fee))
}
