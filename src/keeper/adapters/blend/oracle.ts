/**
 * SEP-40 oracle prices for a pool's reserves: one `lastprice` simulation per asset, all sent in
 * parallel (one wave), plus `decimals` once per oracle (cached).
 */
import { Address, xdr } from '@stellar/stellar-sdk'
import { simulateRead, type Chain } from '../../../chain/index.js'
import { ErrNoPrice } from './errors.js'
import type { RpcStats } from './rpcStats.js'
import { scI128, scU32, scU64 } from './storage.js'

export interface PriceData {
  /** Price in the oracle's base asset, `decimals` decimals. */
  price: bigint
  /** Unix seconds. */
  timestamp: bigint
}

export interface OraclePrices {
  decimals: number
  prices: Map<string, PriceData>
}

const assetArgs = new Map<string, xdr.ScVal>()

/** SEP-40 `Asset::Stellar(address)`, built once per asset (callers treat it as immutable). */
export function stellarAsset(asset: string): xdr.ScVal {
  let v = assetArgs.get(asset)
  if (v === undefined) {
    v = xdr.ScVal.scvVec([xdr.ScVal.scvSymbol('Stellar'), new Address(asset).toScVal()])
    assetArgs.set(asset, v)
  }
  return v
}

/** Decode `Option<PriceData>`; undefined for None. */
export function decodePriceData(v: xdr.ScVal): PriceData | undefined {
  if (v.type === 'scvVoid') return undefined
  if (v.type !== 'scvMap') return undefined
  let price: bigint | undefined
  let timestamp: bigint | undefined
  for (const e of v.map ?? []) {
    const k = e.key.type === 'scvSymbol' ? e.key.sym.toString() : ''
    if (k === 'price') price = scI128(e.val, 'PriceData.price')
    if (k === 'timestamp') timestamp = scU64(e.val, 'PriceData.timestamp')
  }
  if (price === undefined || timestamp === undefined) return undefined
  return { price, timestamp }
}

const decimalsCache = new Map<string, number>()

/**
 * Prices of `assets` from the oracle. An asset without a positive price is an {@link ErrNoPrice}
 * (Blend refuses such a price too, so nothing can be valued with it).
 */
export async function loadOraclePrices(
  chain: Chain,
  oracle: string,
  assets: readonly string[],
  stats?: RpcStats,
): Promise<OraclePrices> {
  const cached = decimalsCache.get(oracle)
  const decimalsP = cached !== undefined ? Promise.resolve(cached) : simulateRead(chain, oracle, 'decimals').then((v) => scU32(v, 'decimals'))
  const priceVals = assets.map((a) => simulateRead(chain, oracle, 'lastprice', [stellarAsset(a)]))
  if (stats !== undefined) {
    stats.simulateTransaction += assets.length + (cached === undefined ? 1 : 0)
    stats.waves += 1
  }
  const [decimals, vals] = await Promise.all([decimalsP, Promise.all(priceVals)])
  decimalsCache.set(oracle, decimals)
  const prices = new Map<string, PriceData>()
  vals.forEach((v, i) => {
    const asset = assets[i]!
    const pd = decodePriceData(v)
    if (pd === undefined) throw new ErrNoPrice(asset, 'lastprice returned None')
    if (pd.price <= 0n) throw new ErrNoPrice(asset, `price ${pd.price} <= 0`)
    prices.set(asset, pd)
  })
  return { decimals, prices }
}
