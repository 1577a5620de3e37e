/**
 * The decisions of the strategy agents (sim/README.md, Strategy tournament), as pure functions of
 * what they read: the auction, the pool's reserves and oracle prices, their settings. Every
 * number comes from the repository's own formulas: the curve and the first profitable ledger
 * from src/core through the keeper's `planFill`, the fill's requests and draw from the keeper's
 * `fillOrder`, the sale's floor from core `slippageFloor` on the oracle value the keeper's
 * `usdcValue` gives.
 */
import { mulDiv, SCALAR_12, slippageFloor } from '../../../../src/core/index.js'
import { planFill, type FillPlan } from '../../../../src/keeper/adapters/blend/auctionPlan.js'
import type { Reserve } from '../../../../src/keeper/adapters/blend/loadPool.js'
import type { PriceData } from '../../../../src/keeper/adapters/blend/oracle.js'
import type { FillOrder } from '../../../../src/keeper/adapters/blend/plans.js'
import { usdcValue } from '../../../../src/keeper/adapters/blend/sellCollateral.js'
import type { AuctionData } from '../../../../src/keeper/adapters/blend/storage.js'
import { fillOrder } from '../../../../src/keeper/adapters/blend/userLiquidation.js'
import type { ExecutorSwap } from '../../../../src/keeper/clients/executor.js'

/** Nectar opens every user liquidation at this percent (`new_liquidation_auction(user, 50)`). */
export const NECTAR_AUCTION_PERCENT = 50

/** What an agent values an auction with. */
export interface OracleView {
  auction: AuctionData
  reserves: ReadonlyMap<string, Reserve>
  prices: ReadonlyMap<string, PriceData>
  /** MIN_PROFIT, 7 decimals (1.02 = 10_200_000n). */
  minProfit: bigint
  usdc: string
}

/**
 * The whole auction (100 %) at the first ledger from `fromBlock` on whose lot is worth
 * MIN_PROFIT × its bid at oracle prices: no pool depth, no partial fill. Null when the curve
 * never gets there.
 */
export function wholeAuctionAtOracle(v: OracleView, fromBlock: number): FillPlan | null {
  return planFill({ auction: v.auction, reserves: v.reserves, prices: v.prices, minProfit: v.minProfit, fromBlock, percent: 100 })
}

export type RuleAnswer =
  /** Fill now: the plan at `ledger` and the order that carries it out. */
  | { kind: 'fill'; plan: FillPlan; order: FillOrder }
  /** Not yet: the first ledger the rule would fill at. */
  | { kind: 'wait'; target: number }
  /** Never at this MIN_PROFIT (or the bid is not payable in USDC). */
  | { kind: 'never'; why: string }

/**
 * seed-rule and nectar alike: fill all of the auction in `ledger` (the one being built) when the
 * oracle ratio clears MIN_PROFIT there, else say when it would.
 */
export function oracleRule(v: OracleView, user: string, ledger: number): RuleAnswer {
  const plan = wholeAuctionAtOracle(v, ledger)
  if (plan === null) return { kind: 'never', why: 'the auction never clears MIN_PROFIT at oracle prices' }
  if (plan.block > ledger) return { kind: 'wait', target: plan.block }
  const order = fillOrder(user, plan, v.reserves, v.usdc)
  if ('refuse' in order) return { kind: 'never', why: order.refuse }
  return { kind: 'fill', plan, order }
}

/**
 * The seed rule's sales: every lot asset sold whole on `router` for USDC, at least the slippage
 * floor of its oracle value (the underlying the fill's bTokens are worth at the reserve's
 * b_rate). No depth is looked at: a sale the pool cannot take reverts the fill.
 */
export function wholeLotSwaps(p: {
  plan: Pick<FillPlan, 'lot'>
  order: Pick<FillOrder, 'lotAssets'>
  reserves: ReadonlyMap<string, Reserve>
  prices: ReadonlyMap<string, PriceData>
  usdc: string
  router: string
  slippageBps: number
}): ExecutorSwap[] {
  return p.order.lotAssets.map((asset) => {
    const bRate = p.reserves.get(asset)?.data.b_rate ?? SCALAR_12
    const underlying = mulDiv(p.plan.lot[asset] ?? 0n, bRate, SCALAR_12, 'floor')
    // amountIn 0n: the executor's whole balance of the asset, all the fill seized.
    return { venue: { kind: 'router', router: p.router }, path: [asset, p.usdc], amountIn: 0n, minOut: slippageFloor(usdcValue(underlying, asset, p.usdc, p.reserves, p.prices), p.slippageBps) }
  })
}

/**
 * What a two-step keeper returns to close its draw: all it measured (the draw and the sale's
 * proceeds, less the repaid bid) when that covers the draw; else the draw from its own USDC as
 * far as it has it (a loss of its own, not the vault's). The daemon's rule.
 */
export function closingReturn(measured: bigint, drew: bigint, onHand: bigint): bigint {
  if (measured >= drew) return measured
  return drew < onHand ? drew : onHand
}

/** Whether a keeper polling every `pollLedgers` ledgers at `phase` polls in `ledger`. */
export function pollsAt(ledger: number, phase: number, pollLedgers: number): boolean {
  return (ledger + phase) % pollLedgers === 0
}
