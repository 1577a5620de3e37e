/**
 * The arbitrage agent: trades each DEX pool (collateral/USDC, on both routers) toward the market
 * price of `lag` ago, at most `maxTradeUsd` per pool per ledger, leaving pools within
 * `toleranceBps` alone. Without it the pools keep the opening price and keepers would sell
 * seized collateral far above the market.
 *
 * Constant product x·y = k (fees ignored when sizing): the price y/x moves to P when
 * x' = √(k/P) — sell x' − x collateral when the pool is too dear, buy with √(kP) − y USDC when it
 * is too cheap.
 */
import type { Keypair } from '@stellar/stellar-sdk'
import { addr, i128, invoke, read, u64, type Chain } from '../../../src/chain/index.js'
import { addrs } from '../../../src/world/scval.js'

const UNIT = 1e7

export interface ArbPool {
  router: string
  asset: string
  usdc: string
  trader: Keypair
}

export interface ArbTrade {
  /** Asset units or USDC (7 decimals) paid in. */
  amountIn: bigint
  sell: 'asset' | 'usdc'
}

/** The trade that moves a pool with reserves (asset, usdc) toward `target` USDC per asset. */
export function arbTrade(reserveAsset: bigint, reserveUsdc: bigint, target: number, maxTradeUsd: number, toleranceBps: number): ArbTrade | null {
  if (reserveAsset <= 0n || reserveUsdc <= 0n || !(target > 0)) return null
  const x = Number(reserveAsset) / UNIT
  const y = Number(reserveUsdc) / UNIT
  const price = y / x
  const gap = price / target - 1
  if (Math.abs(gap) * 10_000 <= toleranceBps) return null
  const k = x * y
  if (gap > 0) {
    const dx = Math.min(Math.sqrt(k / target) - x, maxTradeUsd / target)
    const amountIn = BigInt(Math.floor(dx * UNIT))
    return amountIn > 0n ? { amountIn, sell: 'asset' } : null
  }
  const dy = Math.min(Math.sqrt(k * target) - y, maxTradeUsd)
  const amountIn = BigInt(Math.floor(dy * UNIT))
  return amountIn > 0n ? { amountIn, sell: 'usdc' } : null
}

/** Reads the pool and sends the trade, if any. Returns what it did (for the event log). */
export async function arbitrage(chain: Chain, pool: ArbPool, target: number, maxTradeUsd: number, toleranceBps: number, deadline: bigint): Promise<string | null> {
  let reserves: bigint[]
  try {
    reserves = await read<bigint[]>(chain, pool.router, 'get_reserves', [addr(pool.asset), addr(pool.usdc)])
  } catch {
    return null // a paused router answers nothing; try again next ledger
  }
  const trade = arbTrade(reserves[0]!, reserves[1]!, target, maxTradeUsd, toleranceBps)
  if (trade === null) return null
  const path = trade.sell === 'asset' ? [pool.asset, pool.usdc] : [pool.usdc, pool.asset]
  await invoke(chain, pool.trader, pool.router, 'swap_exact_tokens_for_tokens', [
    i128(trade.amountIn),
    i128(0n),
    addrs(path),
    addr(pool.trader.publicKey()),
    u64(deadline),
  ])
  return `${trade.sell === 'asset' ? 'sold' : 'bought with'} ${(Number(trade.amountIn) / UNIT).toFixed(2)} ${trade.sell === 'asset' ? 'asset' : 'USDC'}`
}
