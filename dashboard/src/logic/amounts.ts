/**
 * 7-decimal i128 amounts (USDC, shares, XLM in stroops) between what people type and bigint:
 * parsing is exact (no float ever touches an amount), formatting shows every decimal.
 */
import { I128_MAX } from '../../../src/core/index.js'

/** Decimals of every amount on the page: USDC, vault shares and XLM all have 7. */
export const DECIMALS = 7

/** An amount typed by a person: the exact value, or why it cannot be one in words. */
export type ParsedAmount = { ok: true; value: bigint } | { ok: false; error: string }

/** What an amount field takes, in words: shown under the field and in every refusal of its format. */
export const AMOUNT_HINT = 'Digits and at most one “.” for the decimals (up to 7), no “,” or spaces: 1000 or 0.5.'

/** Digits with an optional fraction ("0.5", ".5", "5."). */
const AMOUNT = /^(\d*)(?:\.(\d*))?$/

/**
 * Parses a positive amount typed by a person into its 7-decimal integer, exactly. Only digits and
 * one "." (AMOUNT_HINT): a "," is refused in words, never guessed at, since "1,000" is a thousand
 * in one notation and one in another.
 *
 * @example
 * parseAmount('100')   // { ok: true, value: 1_000_000_000n }
 * parseAmount('0.5')   // { ok: true, value: 5_000_000n }
 * parseAmount('1,000') // { ok: false, error: 'Type the amount without “,”: 1000 for a thousand, 1.5 for one and a half. …' }
 * parseAmount('1e3')   // { ok: false, error: 'Enter a number such as 100 or 0.5 …' }
 */
export function parseAmount(text: string, decimals = DECIMALS): ParsedAmount {
  const t = text.trim()
  if (t === '') return { ok: false, error: 'Enter an amount.' }
  if (t.startsWith('-')) return { ok: false, error: 'The amount must be greater than zero.' }
  if (t.includes(',')) return { ok: false, error: `Type the amount without “,”: 1000 for a thousand, 1.5 for one and a half (not “${t}”).` }
  const m = AMOUNT.exec(t)
  if (m === null || (m[1] === '' && (m[2] ?? '') === '')) {
    return { ok: false, error: `Enter a number such as 100 or 0.5 (digits and at most one “.”), not “${t}”.` }
  }
  const whole = m[1] ?? ''
  const fraction = m[2] ?? ''
  if (fraction.length > decimals) return { ok: false, error: `At most ${decimals} decimal places (the token has ${decimals}).` }
  const value = BigInt(whole === '' ? '0' : whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0')
  if (value === 0n) return { ok: false, error: 'The amount must be greater than zero.' }
  if (value > I128_MAX) return { ok: false, error: 'The amount is too large.' }
  return { ok: true, value }
}

/** {@link parseAmount} for code that wants the value or an Error carrying the words. */
export function parseAmountOrThrow(text: string, decimals = DECIMALS): bigint {
  const parsed = parseAmount(text, decimals)
  if (!parsed.ok) throw new AmountInputError(parsed.error)
  return parsed.value
}

/** A typed amount that is not one; its message is for the person who typed it. */
export class AmountInputError extends Error {
  override name = 'AmountInputError'
}

export interface FormatAmountOptions {
  /** Thousands separators (default true); false gives text `parseAmount` and inputs take back. */
  group?: boolean
  decimals?: number
}

/**
 * A 7-decimal integer with every decimal shown.
 *
 * @example
 * formatAmount(12_345_678_901n) // '1,234.5678901'
 * formatAmount(-5n)             // '-0.0000005'
 * formatAmount(12_345_678_901n, { group: false }) // '1234.5678901'
 */
export function formatAmount(value: bigint, options: FormatAmountOptions = {}): string {
  const decimals = options.decimals ?? DECIMALS
  const negative = value < 0n
  const abs = negative ? -value : value
  const scale = 10n ** BigInt(decimals)
  const whole = (abs / scale).toString()
  const grouped = options.group === false ? whole : whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  const fraction = decimals > 0 ? `.${(abs % scale).toString().padStart(decimals, '0')}` : ''
  return `${negative ? '-' : ''}${grouped}${fraction}`
}
