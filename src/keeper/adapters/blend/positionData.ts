/**
 * Blend v2 `PositionData::calculate_from_positions`: a user's collateral and liabilities in the
 * oracle's base currency, effective (with c_factor / l_factor) and raw, from reserves already
 * accrued to the valuation time. What the user owns rounds down, what it owes rounds up (the
 * pool never counts itself short):
 *
 * - collateral: asset = floor(b * b_rate / 1e12); eff = floor(asset * c_factor / 1e7);
 *   base += floor(price * eff / 10^decimals); raw += floor(price * asset / 10^decimals)
 * - liability: asset = ceil(d * d_rate / 1e12); eff = ceil(asset * 1e7 / l_factor);
 *   base += ceil(price * eff / 10^decimals); raw += ceil(price * asset / 10^decimals)
 *
 * HF = collateral_base / liability_base; liquidatable when liability_base > collateral_base.
 */
import { mulDiv, SCALAR_7, SCALAR_12 } from '../../../core/index.js'
import { ErrNoPrice } from './errors.js'
import type { Reserve } from './loadPool.js'
import type { PriceData } from './oracle.js'
import type { Positions } from './storage.js'

export interface PositionData {
  collateralBase: bigint
  collateralRaw: bigint
  liabilityBase: bigint
  liabilityRaw: bigint
  /** 10^oracle decimals. */
  scalar: bigint
}

export interface PoolValuation {
  /** Reserves in index order (reserveList[i] has config.index === i). */
  reserveList: readonly string[]
  /** Reserves accrued to the valuation time. */
  reserves: ReadonlyMap<string, Reserve>
  prices: ReadonlyMap<string, PriceData>
  oracleDecimals: number
}

export function positionData(v: PoolValuation, positions: Positions): PositionData {
  let collateralBase = 0n
  let collateralRaw = 0n
  let liabilityBase = 0n
  let liabilityRaw = 0n
  const reserveAt = (index: number) => {
    const asset = v.reserveList[index]
    const r = asset === undefined ? undefined : v.reserves.get(asset)
    if (asset === undefined || r === undefined) throw new ErrNoPrice(`reserve #${index}`, 'not in the pool reserve list')
    const p = v.prices.get(asset)
    if (p === undefined) throw new ErrNoPrice(asset)
    return { r, price: p.price, scalar: 10n ** BigInt(r.config.decimals) }
  }
  for (const [index, b] of positions.collateral) {
    if (b <= 0n) continue
    const { r, price, scalar } = reserveAt(index)
    const asset = mulDiv(b, r.data.b_rate, SCALAR_12, 'floor')
    const eff = mulDiv(asset, BigInt(r.config.c_factor), SCALAR_7, 'floor')
    collateralBase += mulDiv(price, eff, scalar, 'floor')
    collateralRaw += mulDiv(price, asset, scalar, 'floor')
  }
  for (const [index, d] of positions.liabilities) {
    if (d <= 0n) continue
    const { r, price, scalar } = reserveAt(index)
    const asset = mulDiv(d, r.data.d_rate, SCALAR_12, 'ceil')
    const eff = mulDiv(asset, SCALAR_7, BigInt(r.config.l_factor), 'ceil')
    liabilityBase += mulDiv(price, eff, scalar, 'ceil')
    liabilityRaw += mulDiv(price, asset, scalar, 'ceil')
  }
  return { collateralBase, collateralRaw, liabilityBase, liabilityRaw, scalar: 10n ** BigInt(v.oracleDecimals) }
}

/** Health factor as a float (display, priority); Infinity without liabilities. */
export function healthFactorOf(pd: PositionData): number {
  if (pd.liabilityBase === 0n) return Number.POSITIVE_INFINITY
  return Number((pd.collateralBase * 1_000_000_000n) / pd.liabilityBase) / 1e9
}

/** Blend's condition for a user liquidation: liabilities exceed collateral (HF < 1). */
export function isLiquidatable(pd: PositionData): boolean {
  return pd.liabilityBase > pd.collateralBase
}
