/**
 * The harness's seeded random numbers: xoroshiro128+ (pure-rand) seeded from the SHA-256 of a
 * seed and a list of labels, so every consumer (an asset's price path, a keeper's latency, an
 * agent's choices) draws from its own stream. Adding a consumer, or drawing more in one, never
 * shifts the draws of another.
 *
 * Reproducibility across machines: the generator is 32-bit integer arithmetic, and the
 * distributions below use only +, -, *, /, Math.sqrt (correctly rounded by the standard),
 * Math.log, Math.exp and Math.cos. V8 implements the last three with its own port of fdlibm, not
 * the platform's libm, so one Node version gives bit-identical draws on every OS and CPU. Do not
 * add Math.pow, Math.sin, Math.random or anything locale- or clock-dependent here.
 */
import { createHash } from 'node:crypto'
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64'
import { uniformInt } from 'pure-rand/distribution/uniformInt'
import { xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus'
import type { JumpableRandomGenerator } from 'pure-rand/types/JumpableRandomGenerator'
import { MarketModelError } from './errors.js'

/** A label naming a stream; numbers are written in decimal, so `7` and `'7'` name the same stream. */
export type StreamLabel = string | number

/** Poisson counts are drawn in chunks of at most this mean, so exp(-λ) never underflows. */
const POISSON_CHUNK = 500

/** 128 bits of state from the SHA-256 of the given parts (JSON-encoded, so labels cannot run together). */
function stateFromHash(parts: readonly (string | number)[]): number[] {
  const digest = createHash('sha256').update(JSON.stringify(parts)).digest()
  const state = [digest.readInt32BE(0), digest.readInt32BE(4), digest.readInt32BE(8), digest.readInt32BE(12)]
  // xoroshiro's one forbidden state (all zero); unreachable in practice, but cheap to rule out.
  if ((state[0]! | state[1]! | state[2]! | state[3]!) === 0) state[0] = 1
  return state
}

function labelText(label: StreamLabel): string {
  if (typeof label === 'number' && !Number.isSafeInteger(label)) {
    throw new MarketModelError(`a numeric stream label must be a safe integer, got ${label}`)
  }
  return String(label)
}

/**
 * One stream of random draws. Mutable: every draw advances it. Make streams with {@link derive}.
 *
 * @example
 * import { derive } from './rng.js'
 * const rng = derive(1, 'price', 'WETH')
 * const z = rng.normal()
 */
export class Rng {
  private constructor(private readonly gen: JumpableRandomGenerator) {}

  /** @internal A stream whose state is the first 128 bits of SHA-256(JSON of `parts`). */
  static fromHash(parts: readonly (string | number)[]): Rng {
    return new Rng(xoroshiro128plusFromState(stateFromHash(parts)))
  }

  /** Uniform in [0, 1), a multiple of 2^-53 (two 32-bit outputs). */
  uniform(): number {
    return uniformFloat64(this.gen)
  }

  /** Uniform integer in [min, max], both included (unbiased: pure-rand rejects the remainder). */
  int(min: number, max: number): number {
    if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || min > max) {
      throw new MarketModelError(`int(min, max) needs safe integers with min <= max, got ${min}, ${max}`)
    }
    return uniformInt(this.gen, min, max)
  }

  /**
   * Standard normal, by the Box–Muller transform: z = sqrt(-2 ln(1 - u1)) cos(2π u2). It uses
   * two uniforms per draw and drops the sine twin, so a draw depends on no hidden cache (a
   * stream's state is only the generator's). 1 - u1 lies in (0, 1], so the log is finite; the
   * largest |z| reachable is about 8.6.
   */
  normal(): number {
    const u1 = this.uniform()
    const u2 = this.uniform()
    return Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2)
  }

  /**
   * A Poisson count with mean `lambda`, by multiplying uniforms until the product falls to
   * exp(-λ) (Knuth). That costs about λ + 1 uniforms: meant for small means such as jumps per
   * ledger. Means above 500 are split into chunks (a sum of Poissons is Poisson), so exp(-λ)
   * never underflows.
   */
  poisson(lambda: number): number {
    if (!Number.isFinite(lambda) || lambda < 0) {
      throw new MarketModelError(`poisson(lambda) needs a finite lambda >= 0, got ${lambda}`)
    }
    let count = 0
    let rest = lambda
    while (rest > 0) {
      const chunk = rest > POISSON_CHUNK ? POISSON_CHUNK : rest
      rest -= chunk
      const floor = Math.exp(-chunk)
      let product = this.uniform()
      while (product > floor) {
        count += 1
        product *= this.uniform()
      }
    }
    return count
  }

  /**
   * A child stream named by `label`, made from this stream's current state without advancing
   * it. A model that needs several independent sources (diffusion shocks, jump arrivals) forks
   * one per source, so changing how much one source draws leaves the others' draws unchanged.
   */
  fork(label: StreamLabel): Rng {
    return Rng.fromHash(['fork', ...this.gen.getState(), labelText(label)])
  }

  /** An independent copy at the same position (same future draws). */
  clone(): Rng {
    return new Rng(this.gen.clone())
  }
}

/**
 * The stream named by a seed and labels: `derive(seed, 'price', 'WETH')`,
 * `derive(seed, 'keeper', 2, 'latency')`. Same arguments, same draws; any other arguments, an
 * unrelated stream.
 *
 * @example
 * import { derive } from './rng.js'
 * const a = derive(7, 'price', 'WETH').uniform()
 * const b = derive(7, 'price', 'WETH').uniform() // === a
 */
export function derive(seed: number, ...labels: StreamLabel[]): Rng {
  if (!Number.isSafeInteger(seed)) throw new MarketModelError(`a seed must be a safe integer, got ${seed}`)
  return Rng.fromHash(['seed', String(seed), ...labels.map(labelText)])
}
