/** Helpers that turn compared figures into an `InvariantResult`. */
import type { InvariantResult, Offender } from './types.js'

/**
 * An i128 amount with 7 decimals as an exact decimal string: `12_5000000n` -> `'12.5000000'`,
 * `-1n` -> `'-0.0000001'`.
 */
export function formatAmount(v: bigint, decimals = 7): string {
  const neg = v < 0n
  const abs = neg ? -v : v
  const s = abs.toString().padStart(decimals + 1, '0')
  const int = s.slice(0, s.length - decimals)
  return `${neg ? '-' : ''}${int}.${s.slice(s.length - decimals)}`
}

/** A difference with its sign always shown: `'+1.0000000'`, `'-0.5000000'`, `'0.0000000'`. */
export function formatDelta(v: bigint): string {
  return v > 0n ? `+${formatAmount(v)}` : formatAmount(v)
}

/** A share price (7 decimals) as a decimal string. */
export const formatPrice = (p: bigint): string => formatAmount(p)

/** An offender entry; `note` is left out when empty. */
export function offender(account: string, amount: bigint | string, note?: string): Offender {
  const o: Offender = { account, amount: typeof amount === 'bigint' ? formatAmount(amount) : amount }
  if (note !== undefined && note !== '') o.note = note
  return o
}

/** Builds a result; `warning` defaults to false. */
export function result(
  id: number,
  name: string,
  r: { holds: boolean; warning?: boolean; detail: string; figures: Record<string, string>; offenders?: Offender[] },
): InvariantResult {
  return { id, name, holds: r.holds, warning: r.warning ?? false, detail: r.detail, figures: r.figures, offenders: r.offenders ?? [] }
}

/** An address shortened for prose: `GABC…WXYZ`. */
export const short = (a: string): string => (a.length > 12 ? `${a.slice(0, 4)}…${a.slice(-4)}` : a)
