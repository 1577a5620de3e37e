import { clampPriority } from '../../core/priority/clampPriority.js'
import type { ExecutionPlan } from '../sdk/index.js'

/**
 * Ledgers a due fill may wait past the target of its first plan before it goes ahead of the more
 * profitable fills of its band: without it, a fill that earns less than the others waits for as
 * long as more profitable ones keep coming (one draw at a time on the two-step path).
 */
export const STARVATION_LEDGERS = 10

/**
 * The order in which due plans get capital, across every pool the keeper watches: higher priority
 * first (the health-factor bands: lower health factor); within a band, fills that have waited
 * `STARVATION_LEDGERS` or more past their first target, the longest-waiting first; then the larger
 * expected profit (plans whose profit is unknown after those that give one), then the larger draw
 * (more of the pool's money at stake), then the earlier target ledger; ties keep their arrival
 * order. Priorities are compared clamped to [0, 10] (NaN as 0), so a plan with a priority out of
 * range cannot break the order. `latest` is the latest ledger (no waiting is counted without it).
 */
export function orderDue<T extends { plan: Pick<ExecutionPlan, 'priority' | 'capital' | 'targetLedger' | 'expectedProfit'>; seq: number; firstTarget?: number }>(
  due: readonly T[],
  latest?: number,
): T[] {
  const waited = (e: T): number => {
    if (latest === undefined) return 0
    const over = latest - (e.firstTarget ?? e.plan.targetLedger)
    return over >= STARVATION_LEDGERS ? over : 0
  }
  return [...due].sort((a, b) => {
    const pa = clampPriority(a.plan.priority)
    const pb = clampPriority(b.plan.priority)
    if (pa !== pb) return pb - pa
    const wa = waited(a)
    const wb = waited(b)
    if (wa !== wb) return wb - wa
    const ea = a.plan.expectedProfit
    const eb = b.plan.expectedProfit
    if (ea !== eb) {
      if (ea === undefined) return 1
      if (eb === undefined) return -1
      return ea > eb ? -1 : 1
    }
    if (a.plan.capital !== b.plan.capital) return a.plan.capital > b.plan.capital ? -1 : 1
    if (a.plan.targetLedger !== b.plan.targetLedger) return a.plan.targetLedger - b.plan.targetLedger
    return a.seq - b.seq
  })
}

/** Ledgers before the target at which a plan becomes due: the two-step draw must land one ledger early. */
export function leadLedgers(path: ExecutionPlan['path']): number {
  return path === 'two-step' ? 2 : 1
}
