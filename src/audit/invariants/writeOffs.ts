import { formatAmount, formatDelta, offender, result } from '../format.js'
import type { AuditSnapshot } from '../snapshot.js'
import type { InvariantResult, Offender } from '../types.js'

export const WRITE_OFFS = { id: 10, name: 'no keeper cost the vault more than the registry recovered from it' } as const

/**
 * Invariant 10: a slash makes the depositors whole. `registry.slash` takes the lateness penalty
 * and then the outstanding draw (up to what is left of the bond) and sends both to the vault,
 * whose `write_off` removes the draw (`written_down`) and books what came in (`recovered`). With
 * every draw within its keeper's bond (invariant 9), recovered = outstanding + penalty, so per
 * keeper the vault's write-off events must show written_down ≤ recovered: a keeper whose
 * write-offs wrote down more than was recovered cost the depositors the difference.
 *
 * The registry's side: a registered keeper's `total_slashed` is everything slashed from it,
 * which the vault received as `recovered`. With the whole history the two agree per keeper; with
 * part of it, the window's write-offs may fall short of `total_slashed` (a warning), never exceed
 * it.
 */
export function checkWriteOffs(s: Pick<AuditSnapshot, 'keepers' | 'history'>): InvariantResult {
  const { id, name } = WRITE_OFFS
  const perKeeper = new Map<string, { writtenDown: bigint; recovered: bigint; count: number; ledgers: number[] }>()
  for (const e of s.history.events) {
    if (e.kind !== 'write_off') continue
    const k = perKeeper.get(e.account) ?? { writtenDown: 0n, recovered: 0n, count: 0, ledgers: [] }
    k.writtenDown += e.writtenDown
    k.recovered += e.recovered
    k.count++
    k.ledgers.push(e.ledger)
    perKeeper.set(e.account, k)
  }
  const offenders: Offender[] = []
  const warnings: Offender[] = []
  let writtenDown = 0n
  let recovered = 0n
  let loss = 0n
  for (const [account, k] of perKeeper) {
    writtenDown += k.writtenDown
    recovered += k.recovered
    if (k.writtenDown > k.recovered) {
      loss += k.writtenDown - k.recovered
      offenders.push(
        offender(
          account,
          k.recovered - k.writtenDown,
          `written down ${formatAmount(k.writtenDown)}, recovered ${formatAmount(k.recovered)} (write-off at ledger ${k.ledgers.join(', ')}): the depositors lost the difference`,
        ),
      )
    }
  }
  const registered = new Map(s.keepers.map((k) => [k.operator, k]))
  for (const k of s.keepers) {
    const got = perKeeper.get(k.operator)?.recovered ?? 0n
    if (got === k.totalSlashed) continue
    const note = `the registry slashed ${formatAmount(k.totalSlashed)} from it, the vault's write-offs recovered ${formatAmount(got)}`
    if (got > k.totalSlashed || s.history.complete) offenders.push(offender(k.operator, got - k.totalSlashed, note))
    else warnings.push(offender(k.operator, got - k.totalSlashed, `${note} in the events from ledger ${s.history.fromLedger} (older ones are outside the RPC's event window)`))
  }
  const figures = {
    keepersWrittenOff: String(perKeeper.size),
    unregisteredKeepersWrittenOff: String([...perKeeper.keys()].filter((a) => !registered.has(a)).length),
    writtenDown: formatAmount(writtenDown),
    recovered: formatAmount(recovered),
    depositorsLoss: formatAmount(loss),
    gainedBeyondDraws: formatAmount(recovered - writtenDown + loss),
    historyComplete: String(s.history.complete),
  }
  const holds = offenders.length === 0
  return result(id, name, {
    holds,
    warning: holds && warnings.length > 0,
    figures,
    offenders: holds ? warnings : offenders,
    detail: !holds
      ? `${offenders.length} keeper(s) whose write-offs or slashes do not balance: the depositors lost ${figures.depositorsLoss} USDC to slashed keepers.`
      : warnings.length > 0
        ? `No write-off cost the depositors anything; ${warnings.length} keeper(s) were slashed for more than the window's write-offs show (older events, unverified).`
        : `${perKeeper.size} keeper(s) written off: ${figures.writtenDown} USDC written down, ${figures.recovered} recovered; the depositors lost nothing.`,
  })
}
