/**
 * The "My position" figures that are not read straight from the chain: deposit and withdraw
 * previews (the core's share math on free assets, the same algorithm as the vault), the deposit
 * cap left, the withdraw cooldown and a pending withdrawal request. Share math itself lives only
 * in src/core.
 */
import { BaseError, sharesForDeposit, usdcForShares } from '../../../src/core/index.js'
import { VAULT_ERRORS, type VaultConfig, type VaultState } from '../../../src/chain/records/index.js'
import { formatAmount, parseAmount } from './amounts.js'
import { freeBooks } from './profitLock.js'
import { formatDuration } from './time.js'
import { depositRefusal, withdrawRefusal } from './previewRefusals.js'

/**
 * A preview: the exact value and its sentence, or why there is none in words; `refused` when the
 * amount is a number the wallet, the cap or the shares held cannot cover (the write is not offered).
 */
export type Preview = { ok: true; value: bigint; text: string } | { ok: false; text: string; refused?: true }

/** The books a preview prices on and the ledger close time (s) it prices them at. */
export interface PricedState {
  state: VaultState
  closeTime: number
}

/** What a deposit preview checks besides the share math; undefined figures are not checked. */
export interface DepositLimits {
  walletUsdc: bigint | undefined
  capLeft: bigint | undefined
}

/** A core share-math error in the vault's words (the codes are shared with the contract). */
export function coreErrorInWords(e: unknown): string {
  if (e instanceof BaseError) {
    const known = Object.values(VAULT_ERRORS).find((v) => v.name === e.code)
    return known?.message ?? e.shortMessage
  }
  return e instanceof Error ? e.message : String(e)
}

const CLOCK_UNKNOWN = 'Reading the ledger clock…'

/**
 * Shares a deposit of `amountText` USDC would mint now: "You receive N shares", priced on the free
 * assets at the latest ledger's close time (total_usdc less the profit still locked, as the vault
 * prices it); with `limits`, an amount above the wallet's USDC or the cap left is refused in words
 * instead.
 *
 * @example
 * depositPreview('1000', { state: emptyVaultState, closeTime: 1_700_000_000 })
 * // { ok: true, value: 9_999_999_000n, text: 'You receive 999.9999000 shares' }
 */
export function depositPreview(amountText: string, vault: PricedState | undefined, limits?: DepositLimits): Preview {
  const amount = parseAmount(amountText)
  if (!amount.ok) return { ok: false, text: amount.error }
  const refused = limits === undefined ? undefined : depositRefusal(amount.value, limits.walletUsdc, limits.capLeft)
  if (refused !== undefined) return { ok: false, text: refused, refused: true }
  if (vault === undefined) return { ok: false, text: 'Reading the vault…' }
  const free = freeBooks(vault.state, vault.closeTime)
  if (free === undefined) return { ok: false, text: CLOCK_UNKNOWN }
  try {
    const { shares } = sharesForDeposit({ amount: amount.value, totalUsdc: free.totalUsdc, totalShares: free.totalShares })
    return { ok: true, value: shares, text: `You receive ${formatAmount(shares)} shares` }
  } catch (e) {
    return { ok: false, text: coreErrorInWords(e) }
  }
}

/**
 * USDC a withdrawal of `sharesText` shares would pay now, on free assets at the latest ledger's
 * close time: "You receive N USDC"; more than `held` is refused.
 */
export function withdrawPreview(sharesText: string, vault: PricedState | undefined, held: bigint | undefined): Preview {
  const shares = parseAmount(sharesText)
  if (!shares.ok) return { ok: false, text: shares.error }
  if (vault === undefined) return { ok: false, text: 'Reading the vault…' }
  const refused = withdrawRefusal(shares.value, held)
  if (refused !== undefined) return { ok: false, text: refused, refused: true }
  const free = freeBooks(vault.state, vault.closeTime)
  if (free === undefined) return { ok: false, text: CLOCK_UNKNOWN }
  try {
    const usdc = usdcForShares({ shares: shares.value, totalUsdc: free.totalUsdc, totalShares: free.totalShares })
    return { ok: true, value: usdc, text: `You receive ${formatAmount(usdc)} USDC` }
  } catch (e) {
    return { ok: false, text: coreErrorInWords(e) }
  }
}

/** Room under the deposit cap: deposit_cap − total_usdc, never below 0. */
export function depositCapLeft(config: VaultConfig, state: VaultState): bigint {
  const left = config.depositCap - state.totalUsdc
  return left > 0n ? left : 0n
}

/**
 * Seconds until the depositor may withdraw: last_deposit_time + withdraw_cooldown − the latest
 * ledger close time (the vault compares with the ledger timestamp, not the wall clock). ≤ 0 means
 * ready; a depositor who never deposited is ready.
 */
export function cooldownRemaining(lastDepositTime: number, withdrawCooldown: number, closeTime: number): number {
  if (lastDepositTime === 0) return 0
  return lastDepositTime + withdrawCooldown - closeTime
}

/** "ready", or the time left in words ("2 min 5 s left"). */
export function cooldownText(remaining: number): string {
  return remaining <= 0 ? 'ready' : `${formatDuration(remaining)} left`
}

/**
 * A pending withdrawal request (`request_withdraw`) in words: the shares asked for and what they
 * are worth now (core `usdcForShares` on free assets), or undefined when there is none.
 */
export function withdrawRequestText(requested: bigint, vault: PricedState | undefined): string | undefined {
  if (requested <= 0n) return undefined
  const shares = `${formatAmount(requested)} shares`
  const free = vault === undefined ? undefined : freeBooks(vault.state, vault.closeTime)
  if (free === undefined || free.totalShares <= 0n) return shares
  try {
    return `${shares} (worth ${formatAmount(usdcForShares({ shares: requested, totalUsdc: free.totalUsdc, totalShares: free.totalShares }))} USDC now)`
  } catch {
    return shares
  }
}
