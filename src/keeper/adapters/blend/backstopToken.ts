/**
 * The backstop's LP token (a Comet BLND:USDC weighted pool), which a bad-debt auction pays its
 * filler with. The keeper values it by what a single-sided exit to USDC would pay for the whole
 * lot (Balancer/Comet `wdr_tokn_amt_in_get_lp_tokns_out` math), not by the spot price: that is
 * the USDC it can actually book.
 *
 *   ratio = (supply - lp_in) / supply
 *   out_before_fee = balance_usdc * (1 - ratio ^ (1 / weight_usdc))
 *   out = out_before_fee * (1 - (1 - weight_usdc) * swap_fee)
 *
 * and Comet refuses an exit above 1/3 of the pool's USDC balance.
 */
import { addr, i128, invoke, simulateRead, type Chain } from '../../../chain/index.js'
import type { Keypair } from '@stellar/stellar-sdk'
import { scAddress, scI128 } from './storage.js'

export interface CometState {
  supply: bigint
  usdcBalance: bigint
  /** Normalized USDC weight, 7 decimals (0.2 = 2_000_000). */
  usdcWeight: bigint
  /** Swap fee, 7 decimals. */
  swapFee: bigint
}

export async function backstopTokenOf(chain: Chain, backstop: string): Promise<string> {
  return scAddress(await simulateRead(chain, backstop, 'backstop_token'), 'backstop_token')
}

export async function readComet(chain: Chain, comet: string, usdc: string): Promise<CometState> {
  const [supply, usdcBalance, usdcWeight, swapFee] = await Promise.all([
    simulateRead(chain, comet, 'get_total_supply'),
    simulateRead(chain, comet, 'get_balance', [addr(usdc)]),
    simulateRead(chain, comet, 'get_normalized_weight', [addr(usdc)]),
    simulateRead(chain, comet, 'get_swap_fee'),
  ])
  return {
    supply: scI128(supply, 'get_total_supply'),
    usdcBalance: scI128(usdcBalance, 'get_balance'),
    usdcWeight: scI128(usdcWeight, 'get_normalized_weight'),
    swapFee: scI128(swapFee, 'get_swap_fee'),
  }
}

/** USDC a single-sided exit of `lpIn` pays (rounded down, 0.1 % margin); 0 when Comet would refuse it. */
export function cometExitUsdc(s: CometState, lpIn: bigint): bigint {
  if (lpIn <= 0n || s.supply <= 0n || lpIn >= s.supply || s.usdcWeight <= 0n) return 0n
  const ratio = Number(s.supply - lpIn) / Number(s.supply)
  const w = Number(s.usdcWeight) / 1e7
  const fee = Number(s.swapFee) / 1e7
  const before = Number(s.usdcBalance) * (1 - Math.pow(ratio, 1 / w))
  const out = before * (1 - (1 - w) * fee) * 0.999
  if (!(out > 0) || out > Number(s.usdcBalance) / 3) return 0n
  return BigInt(Math.floor(out))
}

/**
 * The largest percent (1..100) of a lot of `lpTotal` LP tokens whose single-sided exit Comet
 * takes (its USDC out within a third of the pool's), or null when not even 1 % exits.
 */
export function exitablePercent(s: CometState, lpTotal: bigint): number | null {
  for (let percent = 100; percent >= 1; percent--) if (cometExitUsdc(s, (lpTotal * BigInt(percent)) / 100n) > 0n) return percent
  return null
}

/** Exit `lpIn` LP tokens to USDC, refusing less than `minOut`. */
export async function exitToUsdc(chain: Chain, keypair: Keypair, comet: string, usdc: string, lpIn: bigint, minOut: bigint): Promise<void> {
  await invoke(chain, keypair, comet, 'wdr_tokn_amt_in_get_lp_tokns_out', [addr(usdc), i128(lpIn), i128(minOut), addr(keypair.publicKey())])
}

/**
 * USDC a single-sided join must pay to mint exactly `lpOut` LP tokens
 * (`dep_lp_tokn_amt_out_get_tokn_in`), rounded up with a 0.1 % margin; 0 when Comet would refuse
 * it (kept below 1/3 of the pool's USDC):
 *
 *   in_before_fee = balance_usdc * (((supply + lp_out) / supply) ^ (1 / weight_usdc) - 1)
 *   in = in_before_fee / (1 - (1 - weight_usdc) * swap_fee)
 */
export function cometJoinUsdc(s: CometState, lpOut: bigint): bigint {
  if (lpOut <= 0n || s.supply <= 0n || s.usdcWeight <= 0n) return 0n
  const ratio = Number(s.supply + lpOut) / Number(s.supply)
  const w = Number(s.usdcWeight) / 1e7
  const fee = Number(s.swapFee) / 1e7
  const before = Number(s.usdcBalance) * (Math.pow(ratio, 1 / w) - 1)
  const cost = (before / (1 - (1 - w) * fee)) * 1.001
  if (!(cost > 0) || cost > Number(s.usdcBalance) / 3) return 0n
  return BigInt(Math.ceil(cost))
}

/** Mint exactly `lpOut` LP tokens with USDC, paying at most `maxIn`. */
export async function joinWithUsdc(chain: Chain, keypair: Keypair, comet: string, usdc: string, lpOut: bigint, maxIn: bigint): Promise<void> {
  await invoke(chain, keypair, comet, 'dep_lp_tokn_amt_out_get_tokn_in', [addr(usdc), i128(lpOut), i128(maxIn), addr(keypair.publicKey())])
}
