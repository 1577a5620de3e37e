/**
 * A user's collateral and liabilities in the oracle's base currency, effective and raw, exactly
 * as Blend v2's `PositionData::calculate_from_positions` computes them — delegated to
 * src/core `healthFactor` on reserves already accrued to the valuation time (see
 * `valuationReserves` in scan.ts). Liquidatable when liability_base > collateral_base.
 */
import { healthFactor } from '../../../core/index.js'
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

/** A valuation's reserves and prices in the shape healthFactor takes, built once per valuation. */
const inputs = new WeakMap<PoolValuation, { reserves: Reserve[]; prices: Map<string, bigint> }>()

function inputsOf(v: PoolValuation): { reserves: Reserve[]; prices: Map<string, bigint> } {
  let got = inputs.get(v)
  if (got === undefined) {
    const prices = new Map<string, bigint>()
    for (const [asset, p] of v.prices) prices.set(asset, p.price)
    got = { reserves: [...v.reserves.values()], prices }
    inputs.set(v, got)
  }
  return got
}

export function positionData(v: PoolValuation, positions: Positions): PositionData {
  const { reserves, prices } = inputsOf(v)
  const hf = healthFactor({
    reserves,
    positions: { collateral: positions.collateral, liabilities: positions.liabilities },
    prices,
    oracleDecimals: v.oracleDecimals,
  })
  return {
    collateralBase: hf.collateralBase,
    collateralRaw: hf.collateralRaw,
    liabilityBase: hf.liabilityBase,
    liabilityRaw: hf.liabilityRaw,
    scalar: hf.scalar,
  }
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
