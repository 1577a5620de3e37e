import { toUnits } from '../metrics.js'
import type { Result } from '../sdk/index.js'
import type { CycleDeps } from './types.js'

/** Folds one finished execution into the dashboard history, the metrics, the log and the event stream. */
export function recordResult(deps: Pick<CycleDeps, 'state' | 'metrics' | 'logger' | 'events'>, adapter: string, label: string, result: Result): void {
  const rec = deps.state.fold(adapter, label, result)
  if (rec.success) {
    deps.metrics.liquidationsTotal.inc()
    deps.metrics.profitTotal.inc(toUnits(rec.profit))
  }
  deps.metrics.tasksTotal.inc({ adapter, outcome: rec.success ? 'filled' : 'unfilled' })
  deps.logger.info(
    {
      adapter,
      label,
      drew: rec.drew.toString(),
      proceeds: rec.proceeds.toString(),
      profit: rec.profit.toString(),
      responseTimeMs: rec.responseTimeMs,
      success: rec.success,
    },
    'task executed',
  )
  deps.events.push(rec.success ? 'fill' : 'miss', `${adapter}: ${label}: ${result.note ?? (rec.success ? 'filled' : 'not filled')}`, {
    adapter,
    drew: rec.drew.toString(),
    proceeds: rec.proceeds.toString(),
    profit: rec.profit.toString(),
    responseTimeMs: rec.responseTimeMs,
  })
}
