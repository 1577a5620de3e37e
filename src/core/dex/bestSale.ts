import { InvalidInputError } from '../errors.js'
import { assertI128 } from '../fixed/assertI128.js'
import { bestSplitBy } from './bestSplit.js'
import { routeOut, type SalePool } from './routeOut.js'

/** One way to sell a token for another: the pools it passes through, in order. */
export type SaleRoute = { hops: readonly SalePool[] }

/** The most a route's first pool takes in one swap (a weighted pool's `maxIn`), if it has a limit. */
const capOf = (r: SaleRoute): bigint | undefined => {
  const first = r.hops[0]
  return first !== undefined && 'kind' in first ? first.maxIn : undefined
}

export type BestSaleReturnType = {
  /** The parts of the sale (one or two), in the order of `routes`; each with its route's index. */
  parts: { route: number; amountIn: bigint; out: bigint }[]
  /** Paid by all parts together. */
  out: bigint
}

/**
 * The most `amountIn` fetches across `routes` (venues for the same sale: routers' pairs, a path
 * through an intermediate asset, a weighted pool): every route alone, and every pair of routes
 * split at its best ({@link bestSplitBy}); a split is taken only when it pays at least
 * `minGainBps` (default 1: 0.01 %) more than the best route alone, since each part is a swap of
 * its own (fees, resources, one more venue that can fail). At most two parts: a third venue adds little once two share a sale, and each part
 * is a swap of its own. Ties keep the earlier route (the caller lists its primary venue first).
 *
 * Returns no parts and `out` 0 when `amountIn` is 0 or no route pays anything.
 *
 * Errors: `InvalidInput` for a negative amount; the pools' own.
 *
 * @example
 * import { bestSale } from './index.js'
 * const primary = { hops: [{ reserveIn: 1000_0000000n, reserveOut: 1000_0000000n }] }
 * const fallback = { hops: [{ reserveIn: 500_0000000n, reserveOut: 500_0000000n }] }
 * bestSale(100_0000000n, [primary, fallback]) // two parts, 66.7 and 33.3 of the sale: 93_4862786n in all (90_6610893n on the primary alone)
 */
export function bestSale(amountIn: bigint, routes: readonly SaleRoute[], minGainBps = 1): BestSaleReturnType {
  assertI128(amountIn, 'amountIn')
  if (amountIn < 0n) throw new InvalidInputError('amountIn must be >= 0.', `amountIn = ${amountIn}`)
  if (!Number.isInteger(minGainBps) || minGainBps < 0) throw new InvalidInputError('minGainBps must be an integer >= 0.', `minGainBps = ${minGainBps}`)
  if (amountIn === 0n) return { parts: [], out: 0n }
  const outs = routes.map((r) => (x: bigint) => routeOut(x, r.hops))
  let best: BestSaleReturnType = { parts: [], out: 0n }
  outs.forEach((f, i) => {
    const out = f(amountIn)
    if (out > best.out) best = { parts: [{ route: i, amountIn, out }], out }
  })
  const single = best.out
  // A split must pay more than this to be worth its second swap.
  const bar = single + (single * BigInt(minGainBps)) / 10_000n
  for (let i = 0; i < outs.length; i++) {
    for (let j = i + 1; j < outs.length; j++) {
      const caps = { first: capOf(routes[i]!), second: capOf(routes[j]!) }
      const s = bestSplitBy(amountIn, outs[i]!, outs[j]!, {
        ...(caps.first === undefined ? {} : { first: caps.first }),
        ...(caps.second === undefined ? {} : { second: caps.second }),
      })
      if (s.out <= bar || s.out <= best.out || s.first === 0n || s.second === 0n) continue
      best = {
        parts: [
          { route: i, amountIn: s.first, out: outs[i]!(s.first) },
          { route: j, amountIn: s.second, out: outs[j]!(s.second) },
        ],
        out: s.out,
      }
    }
  }
  return best
}
