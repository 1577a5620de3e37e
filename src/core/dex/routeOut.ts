import { constantProductOut, type ConstantProductPool } from './constantProductOut.js'
import { weightedPoolOut, type WeightedPool } from './weightedPoolOut.js'

/** One pool a sale passes through: a constant-product pair (Soroswap's, 0.3 %) or a weighted pool (Comet's). */
export type SalePool = ConstantProductPool | ({ kind: 'weighted' } & WeightedPool)

/** What one pool pays for `amountIn` (see `constantProductOut`, `weightedPoolOut`). */
export function poolOut(amountIn: bigint, pool: SalePool): bigint {
  return 'kind' in pool ? weightedPoolOut(amountIn, pool) : constantProductOut(amountIn, pool)
}

/**
 * What selling `amountIn` along a route pays: each pool's output is the next one's input (a
 * router path of more than two tokens: the token sold, intermediate assets, the token bought).
 * An empty route pays nothing.
 *
 * @example
 * import { routeOut } from './index.js'
 * const xlmToEth = { reserveIn: 1_000_000_0000000n, reserveOut: 100_0000000n }
 * const ethToUsdc = { reserveIn: 1000_0000000n, reserveOut: 2_000_000_0000000n }
 * routeOut(1000_0000000n, [xlmToEth, ethToUsdc]) // 198_5838766n (200 USDC at the pools' prices, less 0.3 % twice and the impact)
 */
export function routeOut(amountIn: bigint, hops: readonly SalePool[]): bigint {
  if (hops.length === 0) return 0n
  let amount = amountIn
  for (const pool of hops) amount = poolOut(amount, pool)
  return amount
}
