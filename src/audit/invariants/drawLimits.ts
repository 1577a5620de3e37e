import { drawLimit } from '../../core/index.js'
import { formatAmount, formatDelta, offender, result } from '../format.js'
import type { AuditSnapshot } from '../snapshot.js'
import type { InvariantResult, Offender } from '../types.js'

export const DRAW_LIMITS = { id: 9, name: "no draw above its keeper's draw_limit (what its bond covers)" } as const

/**
 * Invariant 9: every two-step draw outstanding is backed by its keeper's bond. The registry
 * refuses a new draw above the keeper's `draw_limit` (floor(stake × (10000 − slash_rate_bps) /
 * 10000), recomputed whenever the stake changes), which is what `slash` can still take from the
 * bond after the lateness penalty: a draw within it is recovered in full if the keeper never
 * returns it. So for each registered keeper, the vault's outstanding draw (`get_keeper_draw`) must
 * not exceed its `draw_limit`, and the limit must be what src/core's drawLimit makes of its
 * stake and the registry's slash rate (a limit above it would not leave the penalty covered). Flash draws are repaid within their call and never outstanding. A
 * draw of a keeper that is not registered at all is invariant 3's.
 */
export function checkDrawLimits(s: Pick<AuditSnapshot, 'draws' | 'registrySettings'>): InvariantResult {
  const { id, name } = DRAW_LIMITS
  const offenders: Offender[] = []
  let open = 0
  let sumDraws = 0n
  let sumLimits = 0n
  let excess = 0n
  for (const d of s.draws) {
    const k = d.keeper
    if (k === undefined || d.draw <= 0n) continue
    open++
    sumDraws += d.draw
    sumLimits += k.drawLimit
    if (d.draw > k.drawLimit) {
      excess += d.draw - k.drawLimit
      offenders.push(
        offender(d.account, d.draw - k.drawLimit, `draw ${formatAmount(d.draw)} above its draw_limit ${formatAmount(k.drawLimit)} (stake ${formatAmount(k.stake)})`),
      )
    } else {
      const covered = drawLimit(k.stake, s.registrySettings.slashRateBps)
      if (k.drawLimit > covered)
        offenders.push(
          offender(d.account, k.drawLimit - covered, `draw_limit ${formatAmount(k.drawLimit)} above what its stake ${formatAmount(k.stake)} covers after the penalty (${formatAmount(covered)})`),
        )
    }
  }
  const figures = {
    slashRateBps: String(s.registrySettings.slashRateBps),
    keepersWithDraw: String(open),
    sumOfDraws: formatAmount(sumDraws),
    sumOfTheirDrawLimits: formatAmount(sumLimits),
    excess: formatDelta(excess),
  }
  const holds = offenders.length === 0
  return result(id, name, {
    holds,
    figures,
    offenders,
    detail: holds
      ? `${open} outstanding draw(s), together ${figures.sumOfDraws} USDC, each within its keeper's draw_limit.`
      : `${offenders.length} outstanding draw(s) are not covered by their keeper's bond (${figures.excess} USDC above the limits).`,
  })
}
