/**
 * A Blend reserve for keeper unit tests: 7 decimals, c_factor and l_factor 0.9, no interest
 * curve, rates as given (1.0 by default), nothing supplied or borrowed.
 */
import type { Reserve } from '../../src/keeper/adapters/blend/loadPool.js'
import type { ReserveConfig } from '../../src/keeper/adapters/blend/storage.js'

const ONE = 1_0000000n
const RATE_ONE = 10n ** 12n

export const flatReserveConfig = (index: number): ReserveConfig => ({
  index,
  decimals: 7,
  c_factor: 9_000_000,
  l_factor: 9_000_000,
  util: 5_000_000,
  max_util: 9_500_000,
  r_base: 0,
  r_one: 0,
  r_two: 0,
  r_three: 0,
  reactivity: 0,
  supply_cap: 10n ** 20n,
  enabled: true,
})

export function flatReserve(asset: string, index: number, bRate = RATE_ONE, dRate = RATE_ONE): Reserve {
  return {
    asset,
    config: flatReserveConfig(index),
    data: { b_rate: bRate, d_rate: dRate, ir_mod: ONE, b_supply: 0n, d_supply: 0n, backstop_credit: 0n, last_time: 0n },
  }
}
