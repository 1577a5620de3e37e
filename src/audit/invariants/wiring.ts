import { offender, result } from '../format.js'
import type { AuditSnapshot } from '../snapshot.js'
import type { InvariantResult, Offender } from '../types.js'

export const WIRING = { id: 8, name: 'vault and registry point at each other, one USDC' } as const

const NA = 'n/a'

/**
 * Invariant 8: configuration sanity. The vault's registry (`get_registry`) is the audited
 * registry, the registry's vault (`get_vault`) is the audited vault, and both hold the same USDC
 * token (the vault's `get_usdc`, the registry's `usdc_token`), which is the expected one when the
 * addresses name it. A vault wired to another registry takes draws from keepers nobody stakes for;
 * a registry holding stake in another token sends slashed "USDC" the vault cannot book.
 */
export function checkWiring(s: Pick<AuditSnapshot, 'addresses' | 'wiring'>): InvariantResult {
  const { id, name } = WIRING
  const { vault, registry, usdc } = s.addresses
  const w = s.wiring
  const vaultRegistry = 'address' in w.vaultRegistry ? w.vaultRegistry.address : `unset (${w.vaultRegistry.error})`
  const registryVault = 'address' in w.registryVault ? w.registryVault.address : `unset (${w.registryVault.error})`
  const offenders: Offender[] = []
  if (vaultRegistry !== registry) offenders.push(offender(vault, NA, `vault.get_registry is ${vaultRegistry}, expected ${registry}`))
  if (registryVault !== vault) offenders.push(offender(registry, NA, `registry.get_vault is ${registryVault}, expected ${vault}`))
  if (w.vaultUsdc !== w.registryUsdc)
    offenders.push(offender(registry, NA, `registry usdc_token is ${w.registryUsdc}, the vault's USDC is ${w.vaultUsdc}`))
  if (usdc !== undefined && w.vaultUsdc !== usdc) offenders.push(offender(vault, NA, `vault USDC is ${w.vaultUsdc}, expected ${usdc}`))
  const figures: Record<string, string> = {
    vaultRegistry,
    registryVault,
    vaultUsdc: w.vaultUsdc,
    registryUsdc: w.registryUsdc,
  }
  if (usdc !== undefined) figures.expectedUsdc = usdc
  const holds = offenders.length === 0
  return result(id, name, {
    holds,
    figures,
    offenders,
    detail: holds
      ? 'The vault and the registry point at each other and hold the same USDC token.'
      : `${offenders.length} wiring mismatch(es) between the vault and the registry.`,
  })
}
