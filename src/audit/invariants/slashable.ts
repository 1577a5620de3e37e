import { formatAmount, offender, result } from '../format.js'
import type { AuditSnapshot } from '../snapshot.js'
import type { InvariantResult, Offender } from '../types.js'

export const SLASHABLE = { id: 7, name: 'no draw past slash_timeout left unslashed' } as const

/**
 * Invariant 7 (a warning, never a break): a draw the registry has held for more than
 * `slash_timeout` seconds (strictly, as `registry.slash` requires) can be slashed by anyone now,
 * and until someone does, the capital is out of the pool with no one answering for it. Each such
 * draw is listed with its keeper, amount and age at the close time of the audited ledger.
 */
export function checkSlashable(s: Pick<AuditSnapshot, 'draws' | 'registrySettings' | 'closeTime'>): InvariantResult {
  const { id, name } = SLASHABLE
  const timeout = s.registrySettings.slashTimeout
  const offenders: Offender[] = []
  let total = 0n
  for (const d of s.draws) {
    const k = d.keeper
    if (k === undefined || !k.hasActiveDraw) continue
    const age = s.closeTime - k.drawTimestamp
    if (age > timeout) {
      const amount = d.draw > 0n ? d.draw : k.drawAmount
      total += amount
      offenders.push(offender(d.account, amount, `slashable now: drawn ${age} s ago (slash_timeout ${timeout} s), at ledger time ${k.drawTimestamp}`))
    }
  }
  const figures = {
    slashTimeoutSeconds: timeout.toString(),
    ledgerCloseTime: s.closeTime.toString(),
    slashableDraws: String(offenders.length),
    slashableAmount: formatAmount(total),
  }
  return result(id, name, {
    holds: true,
    warning: offenders.length > 0,
    figures,
    offenders,
    detail:
      offenders.length === 0
        ? `No draw is older than slash_timeout (${timeout} s).`
        : `${offenders.length} draw(s), ${figures.slashableAmount} USDC, are older than slash_timeout (${timeout} s) and nobody slashed them.`,
  })
}
