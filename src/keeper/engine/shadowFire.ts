/**
 * A due execution in a dry run (DRY_RUN=true). A staged adapter fires as it would live, with a
 * `wouldFill` hook on its context: it values the fill afresh and reports it there, and the first
 * transaction it then sends is simulated and refused before it leaves the process (the chain's
 * `refusingSends`). What the simulation said and what the fill would have drawn and made become
 * one shadow record. A plain adapter's `execute` sends its own transactions and is not run.
 */
import { ContractError, DryRunRefusal } from '../../chain/index.js'
import type { Result, WouldFill } from '../sdk/index.js'
import type { ShadowFill } from '../state/shadow.js'
import { errMessage, type Entry } from './book.js'

/** Where the engine books would-fills (a ShadowBook). */
export interface ShadowSink {
  record(fill: Omit<ShadowFill, 'at' | 'expectedReward'>): ShadowFill
}

/**
 * The shadow record of `e`: `would` as the adapter reported it (undefined for a plain adapter,
 * which is not run), and how its send ended: the dry run's refusal after a passed simulation,
 * another error (the simulation refused it), or a result the adapter made of such an error.
 */
export function shadowRecord(e: Entry, would: WouldFill | undefined, ended: unknown): Omit<ShadowFill, 'at' | 'expectedReward'> {
  const err = isResult(ended) ? (ended.error ?? new Error(ended.note ?? 'no transaction')) : ended
  const simulation: ShadowFill['simulation'] = would === undefined ? 'none' : err instanceof DryRunRefusal ? 'passed' : 'refused'
  const reason =
    would === undefined
      ? 'a plain adapter runs its own transactions: not run in a dry run'
      : err instanceof DryRunRefusal
        ? `simulated ${err.call}, fee ${err.fee} stroops`
        : err instanceof ContractError
          ? `refused in simulation: contract error #${err.code}`
          : `refused: ${errMessage(err)}`
  return {
    adapter: e.adapterName,
    key: e.plan.key,
    label: e.label,
    target: would?.target ?? null,
    path: e.plan.path,
    plannedAt: e.plannedAt,
    firstPlannedLedger: e.firstTarget,
    targetLedger: e.plan.targetLedger,
    fillLedger: would?.ledger ?? null,
    percent: would?.percent ?? null,
    drew: would?.drew ?? e.plan.capital,
    expectedProfit: would?.expectedProfit ?? null,
    simulation,
    reason,
  }
}

/** The one-line account of a shadow record, for the log, the event stream and the execution's note. */
export function shadowNote(r: Omit<ShadowFill, 'at' | 'expectedReward'>): string {
  if (r.fillLedger === null) return `dry run: not run (${r.reason})`
  const part = r.percent === null ? '' : ` ${r.percent} %`
  return `dry run: would fill${part} at ledger ${r.fillLedger} (first planned ${r.firstPlannedLedger}), drawing ${r.drew}; simulation ${r.simulation}: ${r.reason}`
}

function isResult(v: unknown): v is Result {
  return typeof v === 'object' && v !== null && 'drew' in v && 'proceeds' in v
}
