import { InvalidInputError } from '../errors.js'
import { MIN_INCLUSION_FEE, type FeeStrategy } from './types.js'

export interface InclusionFeeBidParameters {
  strategy: FeeStrategy
  /** INCLUSION_FEE: the least bid, stroops per operation (integer >= 100). */
  inclusionFee: number
  /** MAX_FEE: the most a bid may be, stroops per operation (integer >= inclusionFee). */
  maxFee: number
  /** The getFeeStats point a `feestats` strategy names (stroops); undefined when unknown. */
  percentileFee?: number | undefined
  /** The execution's expected profit in USDC (7 decimals); undefined when unknown. */
  expectedProfit?: bigint | undefined
  /** The price of one XLM in USDC (7 decimals); undefined when unknown. */
  xlmPrice?: bigint | undefined
}

function assertFee(what: string, v: number, min: number): void {
  if (!Number.isSafeInteger(v) || v < min) throw new InvalidInputError(`${what} must be an integer >= ${min}.`, `${what} = ${v}`)
}

/**
 * The inclusion fee a transaction bids under `strategy`, in stroops per operation: always an
 * integer in [`inclusionFee`, `maxFee`]; a missing input falls back to `inclusionFee`.
 *
 * - `fixed`: `inclusionFee`.
 * - `feestats`: `percentileFee` (floored), clamped.
 * - `profit`: `floor(expectedProfit * bps / 10000)` USDC converted to XLM at `xlmPrice`:
 *   `floor(expectedProfit * bps * 1000 / xlmPrice)` stroops, clamped (floor: never more than the
 *   share of the profit). No profit or no positive XLM price: `inclusionFee`.
 *
 * Errors `InvalidInput`: `inclusionFee` below 100 or not an integer, `maxFee` below
 * `inclusionFee`, `bps` outside 1..10000, a negative or non-finite `percentileFee`.
 *
 * @example
 * import { inclusionFeeBid } from './index.js'
 * inclusionFeeBid({ strategy: { kind: 'fixed' }, inclusionFee: 1000, maxFee: 10_000_000 }) // 1000
 * // 10 % of 5 USDC of profit at 0.25 USDC per XLM: 2 XLM
 * inclusionFeeBid({ strategy: { kind: 'profit', bps: 1000 }, inclusionFee: 100, maxFee: 100_000_000, expectedProfit: 5_0000000n, xlmPrice: 2500000n }) // 20_000_000
 */
export function inclusionFeeBid(p: InclusionFeeBidParameters): number {
  assertFee('inclusionFee', p.inclusionFee, MIN_INCLUSION_FEE)
  assertFee('maxFee', p.maxFee, p.inclusionFee)
  const clamp = (v: bigint): number => Number(v < BigInt(p.inclusionFee) ? BigInt(p.inclusionFee) : v > BigInt(p.maxFee) ? BigInt(p.maxFee) : v)
  const s = p.strategy
  switch (s.kind) {
    case 'fixed':
      return p.inclusionFee
    case 'feestats': {
      const v = p.percentileFee
      if (v === undefined) return p.inclusionFee
      if (!Number.isFinite(v) || v < 0) throw new InvalidInputError('percentileFee must be a finite number >= 0.', `percentileFee = ${v}`)
      return clamp(BigInt(Math.floor(v)))
    }
    case 'profit': {
      if (!Number.isInteger(s.bps) || s.bps < 1 || s.bps > 10_000) throw new InvalidInputError('bps must be an integer in 1..10000.', `bps = ${s.bps}`)
      if (p.expectedProfit === undefined || p.xlmPrice === undefined || p.xlmPrice <= 0n) return p.inclusionFee
      if (p.expectedProfit <= 0n) return p.inclusionFee
      return clamp((p.expectedProfit * BigInt(s.bps) * 1000n) / p.xlmPrice)
    }
  }
}
