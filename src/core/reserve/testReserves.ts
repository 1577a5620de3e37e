// Reserve fixtures shared by the reserve and health tests (Blend v2's default test reserve).
import type { ReserveConfig, ReserveData } from './types.js'

export const DEFAULT_CONFIG: ReserveConfig = {
  index: 0,
  decimals: 7,
  c_factor: 7_500_000,
  l_factor: 7_500_000,
  util: 7_500_000,
  max_util: 9_500_000,
  r_base: 100_000,
  r_one: 500_000,
  r_two: 5_000_000,
  r_three: 15_000_000,
  reactivity: 20,
  supply_cap: 10n ** 18n,
  enabled: true,
}

export const DEFAULT_DATA: ReserveData = {
  d_rate: 10n ** 12n,
  b_rate: 10n ** 12n,
  ir_mod: 10_000_000n,
  b_supply: 100_0000000n,
  d_supply: 75_0000000n,
  backstop_credit: 0n,
  last_time: 0n,
}
