/**
 * Rebalance planning: from an external vault's balances, prices and target weights, the drift of
 * each asset (in bps of total value) and, when the largest drift exceeds the threshold, the trades
 * that bring every asset back to its target through the routing hub (`base`): over-weight assets
 * are sold for base, then base buys the under-weight ones.
 *
 * Amounts and prices have 7 decimals. value = floor(balance * price / 1e7) (as the fixture
 * contract values its holdings); sell amounts round down so a plan never sells more than the
 * excess.
 */
import { mulDiv, SCALAR_7 } from '../../../core/index.js'

export interface HoldingInput {
  asset: string
  balance: bigint
  /** 7 decimals, in the base currency. */
  price: bigint
  weightBps: number
}

export interface AssetDrift extends HoldingInput {
  value: bigint
  targetValue: bigint
  /** floor(value * 10000 / total). */
  actualBps: number
  /** actualBps - weightBps. */
  driftBps: number
}

export interface Trade {
  /** `sell` = asset -> base, `buy` = base -> asset. */
  side: 'sell' | 'buy'
  asset: string
  /** Amount of the input token (the asset for a sell, base for a buy). */
  amountIn: bigint
  /** Base-currency value moved (7 decimals). */
  value: bigint
}

export interface RebalancePlan {
  totalValue: bigint
  maxDriftBps: number
  drifts: AssetDrift[]
  /** Empty when max drift <= threshold. */
  trades: Trade[]
}

export class ErrBadRebalanceInput extends Error {
  override name = 'ErrBadRebalanceInput'
  readonly code = 'BAD_REBALANCE_INPUT'
}

/**
 * @example
 * import { planRebalance } from './plan.js'
 * planRebalance({ base: 'USDC', driftThresholdBps: 500, holdings: [
 *   { asset: 'USDC', balance: 800_0000000n, price: 1_0000000n, weightBps: 5000 },
 *   { asset: 'XLM', balance: 2000_0000000n, price: 1000000n, weightBps: 5000 } ] })
 * // USDC at 80 %: drift 3000 bps -> buy 300 USDC worth of XLM
 */
export function planRebalance(p: { holdings: readonly HoldingInput[]; base: string; driftThresholdBps: number }): RebalancePlan {
  const { holdings, base } = p
  if (!Number.isInteger(p.driftThresholdBps) || p.driftThresholdBps < 0 || p.driftThresholdBps > 10_000)
    throw new ErrBadRebalanceInput(`drift threshold ${p.driftThresholdBps} not in [0, 10000]`)
  const weightSum = holdings.reduce((s, h) => s + h.weightBps, 0)
  if (holdings.length === 0 || weightSum !== 10_000) throw new ErrBadRebalanceInput(`weights sum to ${weightSum}, not 10000`)
  for (const h of holdings) {
    if (h.balance < 0n) throw new ErrBadRebalanceInput(`negative balance of ${h.asset}`)
    if (h.price <= 0n) throw new ErrBadRebalanceInput(`no price for ${h.asset}`)
  }
  const baseHolding = holdings.find((h) => h.asset === base)
  if (baseHolding === undefined) throw new ErrBadRebalanceInput(`base ${base} is not one of the holdings`)

  const values = holdings.map((h) => mulDiv(h.balance, h.price, SCALAR_7, 'floor'))
  const totalValue = values.reduce((s, v) => s + v, 0n)
  const drifts: AssetDrift[] = holdings.map((h, i) => {
    const value = values[i]!
    const targetValue = mulDiv(totalValue, BigInt(h.weightBps), 10_000n, 'floor')
    const actualBps = totalValue === 0n ? 0 : Number(mulDiv(value, 10_000n, totalValue, 'floor'))
    return { ...h, value, targetValue, actualBps, driftBps: actualBps - h.weightBps }
  })
  const maxDriftBps = totalValue === 0n ? 0 : Math.max(...drifts.map((d) => Math.abs(d.driftBps)))
  const trades: Trade[] = []
  if (maxDriftBps > p.driftThresholdBps) {
    for (const d of drifts) {
      if (d.asset === base || d.value <= d.targetValue) continue
      const excess = d.value - d.targetValue
      const amountIn = mulDiv(excess, SCALAR_7, d.price, 'floor')
      if (amountIn > 0n) trades.push({ side: 'sell', asset: d.asset, amountIn, value: excess })
    }
    for (const d of drifts) {
      if (d.asset === base || d.value >= d.targetValue) continue
      const shortfall = d.targetValue - d.value
      const amountIn = mulDiv(shortfall, SCALAR_7, baseHolding.price, 'floor')
      if (amountIn > 0n) trades.push({ side: 'buy', asset: d.asset, amountIn, value: shortfall })
    }
  }
  return { totalValue, maxDriftBps, drifts, trades }
}
