/**
 * A Blend v2 reserve's configuration (`ResConfig` ledger entry), field names as the contract
 * spells them so values decoded with `scValToNative` fit directly: u32 fields are `number`,
 * i128 fields `bigint`. Factors and interest parameters have 7 decimals.
 */
export type ReserveConfig = {
  /** Position key of this reserve (its place in the pool's reserve list). */
  index: number
  /** Decimals of the underlying token. */
  decimals: number
  /** Collateral factor, 7 decimals. */
  c_factor: number
  /** Liability factor, 7 decimals. */
  l_factor: number
  /** Target utilization, 7 decimals. */
  util: number
  /** Maximum utilization, 7 decimals (not used by the math here). */
  max_util: number
  /** Base rate, 7 decimals. */
  r_base: number
  /** Rate slope below the target utilization, 7 decimals. */
  r_one: number
  /** Rate slope between the target and 95 % utilization, 7 decimals. */
  r_two: number
  /** Rate slope above 95 % utilization, 7 decimals. */
  r_three: number
  /** How fast `ir_mod` reacts to utilization away from target, 7 decimals. */
  reactivity: number
  supply_cap?: bigint
  enabled?: boolean
}

/** A Blend v2 reserve's state (`ResData` ledger entry); rates have 12 decimals, `ir_mod` 7. */
export type ReserveData = {
  /** dToken -> underlying, 12 decimals. */
  d_rate: bigint
  /** bToken -> underlying, 12 decimals. */
  b_rate: bigint
  /** Interest rate modifier, 7 decimals (0.1 .. 10). */
  ir_mod: bigint
  b_supply: bigint
  d_supply: bigint
  backstop_credit: bigint
  /** Unix seconds of the last accrual (u64). */
  last_time: bigint
}

/** One reserve of a pool: its underlying asset address, configuration and state. */
export type Reserve = {
  asset: string
  config: ReserveConfig
  data: ReserveData
}
