/**
 * The arbitrage agent: trades each DEX pool toward the market price of `lag` ago, at most
 * `maxTradeUsd` per pool per ledger, leaving pools within `toleranceBps` alone. Without it the
 * pools keep the opening price and keepers would sell seized collateral far above the market.
 *
 * The pools: each collateral's USDC pair on both routers; where the world has them, its Comet
 * weighted pool against USDC and its `via` pair against another collateral on the primary router
 * (priced at the cross rate of the two market prices).
 *
 * Constant product x·y = k (fees ignored when sizing): the price y/x moves to P when
 * x' = √(k/P) — sell x' − x asset when the pool is too dear, buy with √(kP) − y quote when it is
 * too cheap. A Comet pool's 50/50 weights make its balances follow the same rule; it refuses an
 * input above a third of its balance of the token in (core `cometMaxIn`), so its trades stop there.
 */
import type { Keypair } from '@stellar/stellar-sdk'
import { addr, i128, invoke, read, u64, type Chain } from '../../../src/chain/index.js'
import { cometMaxIn } from '../../../src/core/index.js'
import { addrs } from '../../../src/world/scval.js'

const UNIT = 1e7
/** Comet's `max_price` argument: no price limit (as the executor's Comet swaps). */
const NO_MAX_PRICE = 2n ** 127n - 1n

export interface ArbPool {
  /** The router the pair is on, or the Comet pool itself (`comet`). */
  router: string
  /** `router` is a Comet weighted pool (50/50) of `asset` and `quote`, not a router. */
  comet?: boolean
  asset: string
  /** The token the pool prices `asset` in: USDC, or the other collateral of a `via` pair. */
  quote: string
  trader: Keypair
}

export interface ArbTrade {
  /** Asset units or quote units (7 decimals) paid in. */
  amountIn: bigint
  sell: 'asset' | 'quote'
}

/**
 * The trade that moves a pool with reserves (asset, quote) toward `target` quote per asset.
 * `quoteUsd` is the quote token's USD price (1 for USDC): the trade is worth at most
 * `maxTradeUsd`.
 */
export function arbTrade(reserveAsset: bigint, reserveQuote: bigint, target: number, maxTradeUsd: number, toleranceBps: number, quoteUsd = 1): ArbTrade | null {
  if (reserveAsset <= 0n || reserveQuote <= 0n || !(target > 0) || !(quoteUsd > 0)) return null
  const x = Number(reserveAsset) / UNIT
  const y = Number(reserveQuote) / UNIT
  const price = y / x
  const gap = price / target - 1
  if (Math.abs(gap) * 10_000 <= toleranceBps) return null
  const k = x * y
  const maxQuote = maxTradeUsd / quoteUsd
  if (gap > 0) {
    const dx = Math.min(Math.sqrt(k / target) - x, maxQuote / target)
    const amountIn = BigInt(Math.floor(dx * UNIT))
    return amountIn > 0n ? { amountIn, sell: 'asset' } : null
  }
  const dy = Math.min(Math.sqrt(k * target) - y, maxQuote)
  const amountIn = BigInt(Math.floor(dy * UNIT))
  return amountIn > 0n ? { amountIn, sell: 'quote' } : null
}

/**
 * The trade for a Comet 50/50 pool holding (asset, quote): `arbTrade` on its balances, the input
 * cut to the most the pool takes in one swap (a third of its balance of the token in).
 */
export function cometArbTrade(balanceAsset: bigint, balanceQuote: bigint, target: number, maxTradeUsd: number, toleranceBps: number, quoteUsd = 1): ArbTrade | null {
  const trade = arbTrade(balanceAsset, balanceQuote, target, maxTradeUsd, toleranceBps, quoteUsd)
  if (trade === null) return null
  const cap = cometMaxIn(trade.sell === 'asset' ? balanceAsset : balanceQuote)
  const amountIn = trade.amountIn < cap ? trade.amountIn : cap
  return amountIn > 0n ? { ...trade, amountIn } : null
}

/**
 * Reads the pool and sends the trade, if any. `target` is the price in quote units per asset,
 * `quoteUsd` the quote's USD price (1 for USDC). Returns what it did (for the event log).
 */
export async function arbitrage(chain: Chain, pool: ArbPool, target: number, maxTradeUsd: number, toleranceBps: number, deadline: bigint, quoteUsd = 1): Promise<string | null> {
  return pool.comet === true ? arbitrageComet(chain, pool, target, maxTradeUsd, toleranceBps, quoteUsd) : arbitrageRouter(chain, pool, target, maxTradeUsd, toleranceBps, deadline, quoteUsd)
}

async function arbitrageRouter(chain: Chain, pool: ArbPool, target: number, maxTradeUsd: number, toleranceBps: number, deadline: bigint, quoteUsd: number): Promise<string | null> {
  let reserves: bigint[]
  try {
    reserves = await read<bigint[]>(chain, pool.router, 'get_reserves', [addr(pool.asset), addr(pool.quote)])
  } catch {
    return null // a paused router answers nothing; try again next ledger
  }
  const trade = arbTrade(reserves[0]!, reserves[1]!, target, maxTradeUsd, toleranceBps, quoteUsd)
  if (trade === null) return null
  const path = trade.sell === 'asset' ? [pool.asset, pool.quote] : [pool.quote, pool.asset]
  await invoke(chain, pool.trader, pool.router, 'swap_exact_tokens_for_tokens', [
    i128(trade.amountIn),
    i128(0n),
    addrs(path),
    addr(pool.trader.publicKey()),
    u64(deadline),
  ])
  return describe(trade)
}

/** `swap_exact_amount_in(token_in, amount_in, token_out, min_out 0, max_price none, user)` on a Comet pool. */
async function arbitrageComet(chain: Chain, pool: ArbPool, target: number, maxTradeUsd: number, toleranceBps: number, quoteUsd: number): Promise<string | null> {
  let balances: bigint[]
  try {
    balances = await Promise.all([pool.asset, pool.quote].map((t) => read<bigint>(chain, pool.router, 'get_balance', [addr(t)])))
  } catch {
    return null
  }
  const trade = cometArbTrade(balances[0]!, balances[1]!, target, maxTradeUsd, toleranceBps, quoteUsd)
  if (trade === null) return null
  const [tokenIn, tokenOut] = trade.sell === 'asset' ? [pool.asset, pool.quote] : [pool.quote, pool.asset]
  await invoke(chain, pool.trader, pool.router, 'swap_exact_amount_in', [
    addr(tokenIn),
    i128(trade.amountIn),
    addr(tokenOut),
    i128(0n),
    i128(NO_MAX_PRICE),
    addr(pool.trader.publicKey()),
  ])
  return describe(trade)
}

function describe(trade: ArbTrade): string {
  return `${trade.sell === 'asset' ? 'sold' : 'bought with'} ${(Number(trade.amountIn) / UNIT).toFixed(2)} ${trade.sell === 'asset' ? 'asset' : 'quote'}`
}
