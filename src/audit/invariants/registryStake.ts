import { formatAmount, formatDelta, offender, result } from '../format.js'
import type { AuditSnapshot } from '../snapshot.js'
import type { InvariantResult } from '../types.js'

export const REGISTRY_STAKE = { id: 4, name: 'registry USDC = Σ stakes of registered keepers' } as const

/**
 * Invariant 4: the registry holds exactly the stakes of the keepers still registered. Stake enters
 * at `register` (min_stake) and `add_bond`, and leaves at `withdraw_bond` and `deregister` (the
 * refunds) or `slash`, which sends the penalty floor(stake * slash_rate_bps / 10000) plus the
 * outstanding draw it covers to the vault (booked there as `recovered` by write_off) and lowers
 * the keeper's `stake` by the same amount. A shortfall means a keeper could not be refunded or
 * slashed in full: broken. A surplus is USDC sent to the registry outside those paths (a donation
 * nobody can withdraw): a warning.
 */
export function checkRegistryStake(
  s: Pick<AuditSnapshot, 'addresses' | 'keepers' | 'registryUsdcBalance' | 'history'>,
): InvariantResult {
  const { id, name } = REGISTRY_STAKE
  const stakes = s.keepers.reduce((a, k) => a + k.stake, 0n)
  const slashedOfRegistered = s.keepers.reduce((a, k) => a + k.totalSlashed, 0n)
  const recoveredByVault = s.history.events.reduce((a, e) => a + (e.kind === 'write_off' ? e.recovered : 0n), 0n)
  const diff = s.registryUsdcBalance - stakes
  const figures = {
    registryUsdcBalance: formatAmount(s.registryUsdcBalance),
    keepers: String(s.keepers.length),
    sumOfStakes: formatAmount(stakes),
    difference: formatDelta(diff),
    slashedFromRegisteredKeepers: formatAmount(slashedOfRegistered),
    slashedStakeReceivedByVault: formatAmount(recoveredByVault),
  }
  if (diff === 0n)
    return result(id, name, {
      holds: true,
      figures,
      detail: `The registry holds ${figures.sumOfStakes} USDC, the stakes of its ${s.keepers.length} keepers (slashed stake went to the vault: ${figures.slashedStakeReceivedByVault} in the events read).`,
    })
  if (diff > 0n)
    return result(id, name, {
      holds: true,
      warning: true,
      figures,
      detail: `The registry holds ${figures.difference} USDC more than its keepers' stakes (${figures.sumOfStakes}): a donation.`,
      offenders: [offender(s.addresses.registry, diff, 'surplus: USDC sent to the registry outside register and add_bond')],
    })
  return result(id, name, {
    holds: false,
    figures,
    detail: `The registry holds ${figures.registryUsdcBalance} USDC but its keepers' stakes add up to ${figures.sumOfStakes}: a shortfall of ${formatAmount(-diff)}.`,
    offenders: [offender(s.addresses.registry, diff, `shortfall: holds ${figures.registryUsdcBalance}, stakes add up to ${figures.sumOfStakes}`)],
  })
}
