/**
 * Where the keeper can sell a token for USDC, read fresh for each ledger (the adapter shares one read per ledger among its valuations): the primary
 * router's pair, the fallback router's pair, a path through an intermediate asset on the primary
 * router (the token's pair with that asset, then the asset's pair with USDC), and every Comet
 * weighted pool (COMET_POOLS) that holds both tokens. Each route carries the venue the executor
 * sells on (a router with its path, or a Comet pool) and its pools as the core prices them
 * (core `routeOut`, `bestSale`), each pool with an id so this keeper's own sales in a ledger can
 * be taken off it (SaleReservations).
 */
import { addr, ContractError, read, type Chain } from '../../chain/index.js'
import { cometMaxIn, type SalePool } from '../../core/index.js'
import type { SwapVenue } from '../clients/executor.js'

/** One pool of a route, as the seller meets it. */
export interface RouteHop {
  /** The pair's or the Comet pool's address. */
  id: string
  tokenIn: string
  pool: SalePool
}

/** One way to sell `path[0]` for `path[path.length - 1]`. */
export interface SaleVenueRoute {
  /** A short name for logs: primary, fallback, primary via <asset>, comet <pool>. */
  name: string
  venue: SwapVenue
  path: string[]
  hops: RouteHop[]
}

export interface SaleRouteSources {
  primaryRouter?: string | undefined
  fallbackRouter?: string | undefined
  cometPools?: readonly string[] | undefined
}

/** Reads the routes selling `tokenIn` for `tokenOut`; `mids`: assets a path may pass through. */
export type SaleRoutes = (chain: Chain, tokenIn: string, tokenOut: string, mids?: readonly string[]) => Promise<SaleVenueRoute[]>

interface Pair {
  pair: string
  token0: string
}

/** The pair a router keeps for two tokens, with its `token_0` (cached: a router never moves a pair), or null when it has none. */
export function pairFinder(router: string) {
  const pairs = new Map<string, Pair | null>()
  return async (chain: Chain, a: string, b: string): Promise<Pair | null> => {
    const key = a < b ? `${a}:${b}` : `${b}:${a}`
    const known = pairs.get(key)
    if (known !== undefined) return known
    let found: Pair | null
    try {
      const pair = await read<string>(chain, router, 'router_pair_for', [addr(a), addr(b)])
      found = { pair, token0: await read<string>(chain, pair, 'token_0') }
    } catch (err) {
      // No pair for these tokens: a contract error of the router, not a node failure.
      if (!(err instanceof ContractError)) throw err
      found = null
    }
    pairs.set(key, found)
    return found
  }
}

async function pairHop(chain: Chain, p: Pair, tokenIn: string): Promise<RouteHop | undefined> {
  const [r0, r1] = await read<[bigint, bigint]>(chain, p.pair, 'get_reserves')
  const pool = p.token0 === tokenIn ? { reserveIn: r0, reserveOut: r1 } : { reserveIn: r1, reserveOut: r0 }
  if (pool.reserveIn <= 0n || pool.reserveOut <= 0n) return undefined
  return { id: p.pair, tokenIn, pool }
}

export function saleRoutes(s: SaleRouteSources): SaleRoutes {
  const primaryPair = s.primaryRouter === undefined ? undefined : pairFinder(s.primaryRouter)
  const fallbackPair = s.fallbackRouter === undefined ? undefined : pairFinder(s.fallbackRouter)
  const cometTokens = new Map<string, string[]>()

  async function direct(chain: Chain, router: string, find: ReturnType<typeof pairFinder>, name: string, tokenIn: string, tokenOut: string): Promise<SaleVenueRoute | undefined> {
    const p = await find(chain, tokenIn, tokenOut)
    const hop = p === null ? undefined : await pairHop(chain, p, tokenIn)
    return hop === undefined ? undefined : { name, venue: { kind: 'router', router }, path: [tokenIn, tokenOut], hops: [hop] }
  }

  async function via(chain: Chain, tokenIn: string, mid: string, tokenOut: string): Promise<SaleVenueRoute | undefined> {
    const [first, second] = await Promise.all([primaryPair!(chain, tokenIn, mid), primaryPair!(chain, mid, tokenOut)])
    if (first === null || second === null) return undefined
    const [a, b] = await Promise.all([pairHop(chain, first, tokenIn), pairHop(chain, second, mid)])
    if (a === undefined || b === undefined) return undefined
    return { name: `primary via ${mid.slice(0, 6)}`, venue: { kind: 'router', router: s.primaryRouter! }, path: [tokenIn, mid, tokenOut], hops: [a, b] }
  }

  async function comet(chain: Chain, pool: string, tokenIn: string, tokenOut: string): Promise<SaleVenueRoute | undefined> {
    let tokens = cometTokens.get(pool)
    if (tokens === undefined) {
      tokens = await read<string[]>(chain, pool, 'get_tokens')
      cometTokens.set(pool, tokens)
    }
    if (!tokens.includes(tokenIn) || !tokens.includes(tokenOut)) return undefined
    const [balanceIn, balanceOut, weightIn, weightOut, fee] = await Promise.all([
      read<bigint>(chain, pool, 'get_balance', [addr(tokenIn)]),
      read<bigint>(chain, pool, 'get_balance', [addr(tokenOut)]),
      read<bigint>(chain, pool, 'get_normalized_weight', [addr(tokenIn)]),
      read<bigint>(chain, pool, 'get_normalized_weight', [addr(tokenOut)]),
      read<bigint>(chain, pool, 'get_swap_fee'),
    ])
    if (balanceIn <= 0n || balanceOut <= 0n) return undefined
    return {
      name: `comet ${pool.slice(0, 6)}`,
      venue: { kind: 'comet', pool },
      path: [tokenIn, tokenOut],
      hops: [{ id: pool, tokenIn, pool: { kind: 'weighted', balanceIn, balanceOut, weightIn, weightOut, fee, maxIn: cometMaxIn(balanceIn) } }],
    }
  }

  return async (chain, tokenIn, tokenOut, mids = []) => {
    const found = await Promise.all([
      primaryPair === undefined ? undefined : direct(chain, s.primaryRouter!, primaryPair, 'primary', tokenIn, tokenOut),
      fallbackPair === undefined ? undefined : direct(chain, s.fallbackRouter!, fallbackPair, 'fallback', tokenIn, tokenOut),
      ...(primaryPair === undefined ? [] : mids.filter((m) => m !== tokenIn && m !== tokenOut).map((m) => via(chain, tokenIn, m, tokenOut))),
      ...(s.cometPools ?? []).map((pool) => comet(chain, pool, tokenIn, tokenOut)),
    ])
    return found.filter((r): r is SaleVenueRoute => r !== undefined)
  }
}
