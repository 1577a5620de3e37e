/** Helpers to read contract structs decoded by `scValToNative` (snake_case keys). Browser-safe. */

export function toBigInt(v: unknown, dflt = 0n): bigint {
  if (typeof v === 'bigint') return v
  if (typeof v === 'number') return BigInt(Math.trunc(v))
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return BigInt(v)
  return dflt
}

export function toNumber(v: unknown, dflt = 0): number {
  if (typeof v === 'number') return v
  if (typeof v === 'bigint') return Number(v)
  if (typeof v === 'string' && v !== '' && Number.isFinite(Number(v))) return Number(v)
  return dflt
}

export function toBool(v: unknown): boolean {
  return v === true
}

const utf8 = new TextDecoder()

export function toStr(v: unknown): string {
  if (typeof v === 'string') return v
  if (v instanceof Uint8Array) return utf8.decode(v)
  return v === undefined || v === null ? '' : String(v)
}

/** Bytes (a `BytesN<32>` hash, ...) as lowercase hex; a string is taken as it is. */
export function toHex(v: unknown): string {
  if (typeof v === 'string') return v
  if (v instanceof Uint8Array) return Array.from(v, (b) => b.toString(16).padStart(2, '0')).join('')
  return ''
}

export function asRecord(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : {}
}

/** First present key among `names` (contracts may name a field slightly differently). */
export function pick(r: Record<string, unknown>, ...names: string[]): unknown {
  for (const n of names) if (n in r) return r[n]
  return undefined
}
