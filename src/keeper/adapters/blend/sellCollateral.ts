/**
 * Selling seized collateral for USDC: after a fill, and in stale-draw recovery when a crash left
 * the keeper holding a pool reserve. Each asset goes through the DEX client (primary, fallback,
 * slippage floor from the oracle price); what cannot be sold is held and named.
 */
import type { Keypair } from '@stellar/stellar-sdk'
import type { Chain } from '../../../chain/index.js'
import { mulDiv } from '../../../core/index.js'
import { tokenBalance } from '../../clients/token.js'
import { swapToUsdc, type Venue } from '../../dex/swapToUsdc.js'
import type { AdapterContext } from '../../sdk/index.js'

/** Oracle-implied USDC value of `amount` of `asset` (both prices in the oracle's base). */
export function usdcValue(
  amount: bigint,
  asset: string,
  usdc: string,
  reserves: ReadonlyMap<string, { config: { decimals: number } }>,
  prices: ReadonlyMap<string, { price: bigint }>,
): bigint {
  const pa = prices.get(asset)?.price
  const pu = prices.get(usdc)?.price
  const da = reserves.get(asset)?.config.decimals
  const du = reserves.get(usdc)?.config.decimals
  if (pa === undefined || pu === undefined || da === undefined || du === undefined) return 0n
  // amount * pa / 10^da = base value; / pu * 10^du = USDC units
  return mulDiv(mulDiv(amount, pa, 10n ** BigInt(da), 'floor'), 10n ** BigInt(du), pu, 'floor')
}

export interface SellCollateralParameters {
  chain: Chain
  keypair: Keypair
  venues: Venue[]
  usdc: string
  /** Amounts to sell, per asset (non-positive amounts are skipped). */
  seized: readonly { asset: string; amount: bigint }[]
  reserves: ReadonlyMap<string, { config: { decimals: number } }>
  prices: ReadonlyMap<string, { price: bigint }>
  slippageBps: number
  emit?: AdapterContext['emit'] | undefined
}

/** Sells each seized asset to USDC; returns the assets that could not be sold (held). */
export async function sellCollateral(p: SellCollateralParameters): Promise<string[]> {
  const held: string[] = []
  const me = p.keypair.publicKey()
  for (const { asset, amount } of p.seized) {
    if (amount <= 0n) continue
    if (p.venues.length === 0) {
      held.push(asset)
      continue
    }
    try {
      await swapToUsdc({
        venues: p.venues,
        tokenIn: asset,
        usdc: p.usdc,
        amountIn: amount,
        refValue: usdcValue(amount, asset, p.usdc, p.reserves, p.prices),
        slippageBps: p.slippageBps,
        usdcBalance: () => tokenBalance(p.chain, p.usdc, me),
      })
    } catch (err) {
      held.push(asset)
      p.emit?.('swap_failed', `swap of ${asset} failed: ${err instanceof Error ? err.message : String(err)}`)
    }
  }
  return held
}
