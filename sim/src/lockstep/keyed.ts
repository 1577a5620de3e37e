/**
 * Seeded draws keyed by what is being decided rather than by call order: the same request in
 * the same ledger gets the same draw however the event loop interleaved the agents' calls.
 */
import { createHash } from 'node:crypto'

/** A uniform number in [0, 1) from the SHA-256 of the parts. */
export function keyedUniform(...parts: (string | number)[]): number {
  const h = createHash('sha256').update(parts.join('\u0000')).digest()
  // 53 bits: exact in a double.
  const hi = h.readUInt32BE(0) >>> 5
  const lo = h.readUInt32BE(4) >>> 6
  return (hi * 67_108_864 + lo) / 9_007_199_254_740_992
}

/** A standard normal draw (Box–Muller on two keyed uniforms). */
export function keyedNormal(...parts: (string | number)[]): number {
  const u1 = Math.max(keyedUniform(...parts, 'n1'), Number.MIN_VALUE)
  const u2 = keyedUniform(...parts, 'n2')
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2)
}

/** Counts repeats of the same key within one ledger, so identical requests get distinct draws. */
export class Occurrences {
  private ledger = -1
  private readonly seen = new Map<string, number>()

  next(ledger: number, key: string): number {
    if (ledger !== this.ledger) {
      this.ledger = ledger
      this.seen.clear()
    }
    const n = this.seen.get(key) ?? 0
    this.seen.set(key, n + 1)
    return n
  }
}
