import { formatAmount, formatDelta, offender, result } from '../format.js'
import type { AuditSnapshot } from '../snapshot.js'
import type { InvariantResult, Offender } from '../types.js'

export const DRAWS = { id: 3, name: 'Σ keeper draws = active_liq, registry agrees' } as const

/**
 * Invariant 3: the capital out with keepers is accounted for keeper by keeper. The outstanding
 * draws (`vault.get_keeper_draw`) of every registered keeper, and of every keeper the vault's
 * events name, add up to `active_liq`; and for each keeper the registry's record agrees with the
 * vault: `has_active_draw` exactly when the vault has a draw outstanding, with the same
 * `draw_amount` (the registry mirrors partial returns). The registry's record is what `slash`
 * reads, so a draw the registry does not know about could never be slashed.
 */
export function checkDraws(s: Pick<AuditSnapshot, 'addresses' | 'books' | 'draws'>): InvariantResult {
  const { id, name } = DRAWS
  const offenders: Offender[] = []
  let sum = 0n
  let open = 0
  for (const d of s.draws) {
    sum += d.draw
    if (d.draw > 0n) open++
    const k = d.keeper
    if (k === undefined) {
      if (d.draw !== 0n) offenders.push(offender(d.account, d.draw, 'draw outstanding for a keeper that is not registered'))
      continue
    }
    if (k.hasActiveDraw !== d.draw > 0n)
      offenders.push(
        offender(d.account, d.draw, `vault draw ${formatAmount(d.draw)} but registry has_active_draw = ${k.hasActiveDraw} (draw_amount ${formatAmount(k.drawAmount)})`),
      )
    else if (k.hasActiveDraw && k.drawAmount !== d.draw)
      offenders.push(offender(d.account, d.draw - k.drawAmount, `vault draw ${formatAmount(d.draw)}, registry draw_amount ${formatAmount(k.drawAmount)}`))
  }
  const diff = sum - s.books.activeLiq
  if (diff !== 0n)
    offenders.push(offender(s.addresses.vault, diff, `keeper draws add up to ${formatAmount(sum)}, active_liq is ${formatAmount(s.books.activeLiq)}`))
  const figures = {
    keepers: String(s.draws.length),
    keepersWithDraw: String(open),
    sumOfDraws: formatAmount(sum),
    activeLiq: formatAmount(s.books.activeLiq),
    difference: formatDelta(diff),
  }
  const holds = offenders.length === 0
  const detail = holds
    ? `${open} of ${s.draws.length} keepers hold a draw; their draws add up to active_liq (${figures.activeLiq}) and the registry agrees on each.`
    : `Keeper draws ${figures.sumOfDraws} vs active_liq ${figures.activeLiq} (difference ${figures.difference}); ${offenders.length} disagreement(s).`
  return result(id, name, { holds, detail, figures, offenders })
}
