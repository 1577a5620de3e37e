/**
 * What the previews refuse before a wallet is asked to sign: a deposit above the wallet's USDC or
 * above the room left under the vault's deposit cap, a withdrawal of more shares than are held.
 * Each in words with both figures, so the person sees how far off the amount is.
 */
import { formatAmount } from './amounts.js'

/**
 * An amount with its decimals trimmed to at least two: 10_000_000_000n → "1,000.00",
 * 125_000_000n → "12.50", 124_999_999n → "12.4999999" (never rounded, so a figure shown as the
 * limit is the limit).
 */
export function briefAmount(value: bigint): string {
  return formatAmount(value).replace(/(\.\d\d\d*?)0+$/, '$1')
}

/**
 * Why a deposit of `amount` cannot go ahead, in words, or undefined when it can. An unknown
 * wallet balance or cap (still reading, no trustline) refuses nothing: the simulation still
 * checks, and its refusal reads in words too.
 *
 * @example
 * depositRefusal(50_000_000_000n, 10_000_000_000n, undefined)
 * // 'You hold 1,000.00 USDC; this deposit needs 5,000.00.'
 */
export function depositRefusal(amount: bigint, walletUsdc: bigint | undefined, capLeft: bigint | undefined): string | undefined {
  const reasons: string[] = []
  if (walletUsdc !== undefined && amount > walletUsdc) reasons.push(`You hold ${briefAmount(walletUsdc)} USDC; this deposit needs ${briefAmount(amount)}.`)
  if (capLeft !== undefined && amount > capLeft)
    reasons.push(`This deposit would take the vault over its deposit cap: it can take ${briefAmount(capLeft)} USDC more.`)
  return reasons.length === 0 ? undefined : reasons.join(' ')
}

/** Why a withdrawal of `shares` cannot go ahead (more than `held`), or undefined. */
export function withdrawRefusal(shares: bigint, held: bigint | undefined): string | undefined {
  if (held === undefined || shares <= held) return undefined
  return `You hold ${briefAmount(held)} shares; this withdrawal needs ${briefAmount(shares)}.`
}
