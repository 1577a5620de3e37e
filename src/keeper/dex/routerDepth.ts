/**
 * How deep a Soroswap-interface router's pool for a pair is: the pair's address from
 * `router_pair_for(a, b)` (kept: a router never moves a pair), its `token_0()` (kept), then its
 * reserves from `get_reserves()` on every call, oriented as the seller sees them. The keeper values
 * a lot with these through the core's constant-product math instead of asking for one quote per
 * candidate fill.
 */
import { read, type Chain } from '../../chain/index.js'
import type { ConstantProductPool } from '../../core/index.js'
import { pairFinder } from './saleRoutes.js'

/** Reads the pool a router would sell `tokenIn` for `tokenOut` into; undefined when it has none. */
export type PoolDepth = (chain: Chain, tokenIn: string, tokenOut: string) => Promise<ConstantProductPool | undefined>

export function routerDepth(router: string): PoolDepth {
  const pairOf = pairFinder(router)
  return async (chain, tokenIn, tokenOut) => {
    const p = await pairOf(chain, tokenIn, tokenOut)
    if (p === null) return undefined
    const [r0, r1] = await read<[bigint, bigint]>(chain, p.pair, 'get_reserves')
    return p.token0 === tokenIn ? { reserveIn: r0, reserveOut: r1 } : { reserveIn: r1, reserveOut: r0 }
  }
}
