import { formatAmount, formatDelta, offender, result } from '../format.js'
import type { AuditSnapshot } from '../snapshot.js'
import type { InvariantResult } from '../types.js'

export const VAULT_USDC = { id: 1, name: "vault USDC = total_usdc - active_liq" } as const

/**
 * Invariant 1: the USDC the vault contract holds equals its books' idle capital,
 * `total_usdc - active_liq` (contracts/vault/src/types.rs states it). A shortfall means depositors'
 * money is gone: broken. A surplus is USDC sent to the vault outside deposit / return / slash (a
 * donation): it belongs to no share and no withdrawal can pay it out, so it is a warning.
 */
export function checkVaultUsdc(s: Pick<AuditSnapshot, 'addresses' | 'books' | 'vaultUsdcBalance'>): InvariantResult {
  const expected = s.books.totalUsdc - s.books.activeLiq
  const diff = s.vaultUsdcBalance - expected
  const figures = {
    vaultUsdcBalance: formatAmount(s.vaultUsdcBalance),
    totalUsdc: formatAmount(s.books.totalUsdc),
    activeLiq: formatAmount(s.books.activeLiq),
    expected: formatAmount(expected),
    difference: formatDelta(diff),
  }
  const { id, name } = VAULT_USDC
  if (diff === 0n)
    return result(id, name, { holds: true, figures, detail: `The vault holds ${figures.expected} USDC, exactly its idle capital.` })
  if (diff > 0n)
    return result(id, name, {
      holds: true,
      warning: true,
      figures,
      detail: `The vault holds ${figures.difference} USDC more than its books (${figures.expected}): a donation no share accounts for.`,
      offenders: [offender(s.addresses.vault, diff, 'surplus: USDC sent to the vault outside deposit, return or slash')],
    })
  return result(id, name, {
    holds: false,
    figures,
    detail: `The vault holds ${figures.vaultUsdcBalance} USDC but its books say ${figures.expected} (total_usdc - active_liq): a shortfall of ${formatAmount(-diff)}.`,
    offenders: [offender(s.addresses.vault, diff, `shortfall: holds ${figures.vaultUsdcBalance}, books say ${figures.expected}`)],
  })
}
