/**
 * Choosing the percent of a user liquidation auction (`new_auction(0, user, bid, lot, percent)`)
 * that Blend v2 accepts. The pool estimates the lot it will auction and refuses a partial
 * liquidation that leaves the user's HF above 1.15 (1213 InvalidLiqTooLarge) or below 1.03
 * (1214 InvalidLiqTooSmall). This module replays the pool's estimate
 * (auctions/user_liquidation_auction.rs, create_user_liq_auction_data) with every liability in
 * the bid and every collateral in the lot, so the keeper sends a percent the pool accepts:
 *
 *   pct = percent * scalar / 100
 *   avg_cf = floor(collateral_base * scalar / collateral_raw)
 *   avg_lf = floor(liability_base * scalar / liability_raw)
 *   incentive = ceil((scalar - ceil(avg_cf * scalar / avg_lf)) * scalar / (2 * scalar)) + scalar
 *   withdrawn = floor(floor(liability_raw * pct / scalar) * incentive / scalar)
 *   withdrawn_pct = min(ceil(withdrawn * scalar / collateral_raw), scalar)
 *   lot_b = ceil(b * withdrawn_pct / scalar), bid_d = ceil(d * pct / scalar)
 *
 * then values the user's remaining positions. Percent > 95 with everything included is a full
 * liquidation: checked at 95, refused only when 95 % would leave HF > 1.15 while the estimated
 * lot is smaller than all the collateral.
 */
import { mulDiv } from '../../../core/index.js'
import { positionData, type PoolValuation, type PositionData } from './positionData.js'
import type { Positions } from './storage.js'

/** 1.15 and 1.03 with 7 decimals. */
export const MAX_POST_LIQ_HF = 11_500_000n
export const MIN_POST_LIQ_HF = 10_300_000n
const SCALAR_7 = 10_000_000n

export type PercentVerdict = 'ok' | 'too_large' | 'too_small' | 'invalid'

/** collateral / liability > x (x with 7 decimals); no liabilities counts as over. */
function hfOver(pd: PositionData, x: bigint): boolean {
  if (pd.liabilityBase === 0n) return true
  return pd.collateralBase * SCALAR_7 > x * pd.liabilityBase
}

function hfUnder(pd: PositionData, x: bigint): boolean {
  if (pd.liabilityBase === 0n) return false
  return pd.collateralBase * SCALAR_7 < x * pd.liabilityBase
}

function subtract(m: ReadonlyMap<number, bigint>, take: (amount: bigint) => bigint): Map<number, bigint> {
  const out = new Map<number, bigint>()
  for (const [k, v] of m) {
    const left = v - take(v)
    if (left > 0n) out.set(k, left)
  }
  return out
}

/** What the pool would answer to `new_auction` at `percent` (all positions included). */
export function checkLiquidationPercent(v: PoolValuation, positions: Positions, percent: number): PercentVerdict {
  if (!Number.isInteger(percent) || percent < 1 || percent > 100) return 'invalid'
  const pd = positionData(v, positions)
  if (pd.liabilityBase <= pd.collateralBase) return 'invalid' // 1211: not liquidatable
  if (pd.collateralRaw === 0n || pd.liabilityRaw === 0n) return 'invalid'
  const s = pd.scalar
  const full = percent > 95
  const pct = (BigInt(full ? 95 : percent) * s) / 100n
  const avgCf = mulDiv(pd.collateralBase, s, pd.collateralRaw, 'floor')
  const avgLf = mulDiv(pd.liabilityBase, s, pd.liabilityRaw, 'floor')
  if (avgLf === 0n) return 'invalid'
  const incentive = mulDiv(s - mulDiv(avgCf, s, avgLf, 'ceil'), s, 2n * s, 'ceil') + s
  const withdrawn = mulDiv(mulDiv(pd.liabilityRaw, pct, s, 'floor'), incentive, s, 'floor')
  let withdrawnPct = mulDiv(withdrawn, s, pd.collateralRaw, 'ceil')
  if (withdrawnPct > s) withdrawnPct = s
  const after: Positions = {
    collateral: subtract(positions.collateral, (b) => mulDiv(b, withdrawnPct, s, 'ceil')),
    liabilities: subtract(positions.liabilities, (d) => mulDiv(d, pct, s, 'ceil')),
    supply: new Map(positions.supply),
  }
  const post = positionData(v, after)
  if (full) return withdrawn < pd.collateralRaw && hfOver(post, MAX_POST_LIQ_HF) ? 'too_large' : 'ok'
  if (hfOver(post, MAX_POST_LIQ_HF)) return 'too_large'
  if (hfUnder(post, MIN_POST_LIQ_HF)) return 'too_small'
  return 'ok'
}

/**
 * The percent to liquidate at: `preferred` (50) when the pool accepts it, else the accepted
 * percent closest to it (smaller first on a tie); undefined when none in 1..100 is accepted.
 */
export function chooseLiquidationPercent(v: PoolValuation, positions: Positions, preferred = 50): number | undefined {
  if (checkLiquidationPercent(v, positions, preferred) === 'ok') return preferred
  for (let step = 1; step < 100; step++) {
    for (const p of [preferred - step, preferred + step]) {
      // Above 95 with every position included the pool auctions everything: say so with 100.
      if (p >= 1 && p <= 100 && checkLiquidationPercent(v, positions, p) === 'ok') return p > 95 ? 100 : p
    }
  }
  return undefined
}
