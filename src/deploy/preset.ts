/**
 * Deployment presets: the vault's and the registry's parameters (fixed at deployment) and, for a
 * public network, the USDC they hold. Amounts are USDC i128 with 7 decimals; times are seconds.
 */
import { Networks } from '@stellar/stellar-sdk'
import { TESTNET_DEFAULTS } from '../keeper/config/config.js'

/** The contracts' constructor parameters, named as in `VaultConfig` and `RegistryConfig`. */
export interface ServiceParameters {
  /** Registry: USDC an operator stakes at `register`. */
  min_stake: bigint
  /** Registry: seconds a draw may stay out before anyone may slash its keeper (1 s to 7 days). */
  slash_timeout: bigint
  /**
   * Registry: share of the stake a slash sends to the vault, in basis points (1 to 5000); a
   * keeper's stake backs two-step draws up to stake × (10000 − slash_rate_bps) / 10000.
   */
  slash_rate_bps: number
  /** Vault: the most USDC the vault accepts. */
  deposit_cap: bigint
  /** Vault: seconds after a deposit before its depositor may withdraw (at most 30 days). */
  withdraw_cooldown: bigint
  /** Vault: the largest draw one keeper may hold. */
  max_draw_per_keeper: bigint
  /** Vault: the keeper's share of each fill's gross profit, in basis points (0 to 5000). */
  keeper_fee_bps: number
  /** Vault: seconds over which booked profit unlocks into the share price (1 s to 30 days). */
  profit_unlock_secs: bigint
}

export const PARAMETER_NAMES = [
  'min_stake',
  'slash_timeout',
  'slash_rate_bps',
  'deposit_cap',
  'withdraw_cooldown',
  'max_draw_per_keeper',
  'keeper_fee_bps',
  'profit_unlock_secs',
] as const
export type ParameterName = (typeof PARAMETER_NAMES)[number]

/** 30 days, the longest withdraw_cooldown and profit_unlock_secs the vault accepts. */
export const THIRTY_DAYS = 2_592_000n
/** 7 days, the longest slash_timeout the registry accepts. */
export const SEVEN_DAYS = 604_800n

/**
 * The range the contracts' constructors accept for each parameter that is not a USDC amount
 * (inclusive): the vault refuses the rest with InvalidCooldown (119), InvalidKeeperFee (120),
 * InvalidUnlockPeriod (121), the registry with InvalidSlashRate (213), InvalidTimeout (214).
 */
export const PARAMETER_BOUNDS = {
  keeper_fee_bps: { min: 0, max: 5_000 },
  slash_rate_bps: { min: 1, max: 5_000 },
  profit_unlock_secs: { min: 1n, max: THIRTY_DAYS },
  withdraw_cooldown: { min: 0n, max: THIRTY_DAYS },
  slash_timeout: { min: 1n, max: SEVEN_DAYS },
} as const

/** The USDC amounts: more than 0 (the constructors' InvalidConfig), at most i128's maximum. */
export const AMOUNT_PARAMETERS = ['min_stake', 'deposit_cap', 'max_draw_per_keeper'] as const

/** A USDC Stellar Asset Contract and its classic asset. */
export interface UsdcAsset {
  code: string
  issuer: string
  contract: string
}

export interface Preset {
  parameters: ServiceParameters
  /** The network's USDC, when the preset has one for the network it names. */
  usdc?: { networkPassphrase: string; asset: UsdcAsset }
}

export const UNIT = 10_000_000n

/** Circle's USDC on the public testnet. */
export const TESTNET_USDC: UsdcAsset = {
  code: 'USDC',
  issuer: 'GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5',
  contract: TESTNET_DEFAULTS.USDC_CONTRACT,
}

export const PRESETS = {
  testnet: {
    parameters: {
      min_stake: 100n * UNIT,
      slash_timeout: 3_600n,
      slash_rate_bps: 1_000,
      deposit_cap: 10_000_000n * UNIT,
      withdraw_cooldown: 3_600n,
      max_draw_per_keeper: 10_000n * UNIT,
      // Nectar's keeper share: 10 % of each fill's gross profit.
      keeper_fee_bps: 1_000,
      profit_unlock_secs: 3_600n,
    },
    usdc: { networkPassphrase: Networks.TESTNET, asset: TESTNET_USDC },
  },
} as const satisfies Record<string, Preset>

export type PresetName = keyof typeof PRESETS

export function isPresetName(name: string): name is PresetName {
  return Object.hasOwn(PRESETS, name)
}

/** "from 0 to 5000" for a range of PARAMETER_BOUNDS. */
export function boundsText(name: keyof typeof PARAMETER_BOUNDS): string {
  const b = PARAMETER_BOUNDS[name]
  return `from ${b.min} to ${b.max}`
}

/**
 * Problems of a parameter set the contracts' constructors would refuse, each naming the
 * parameter (empty when there are none).
 */
export function parameterProblems(p: ServiceParameters): string[] {
  const out: string[] = []
  const I128_MAX = (1n << 127n) - 1n
  for (const k of AMOUNT_PARAMETERS) if (p[k] <= 0n || p[k] > I128_MAX) out.push(`${k} must be more than 0`)
  for (const k of ['slash_rate_bps', 'keeper_fee_bps'] as const) {
    const b = PARAMETER_BOUNDS[k]
    if (!Number.isInteger(p[k]) || p[k] < b.min || p[k] > b.max) out.push(`${k} must be an integer ${boundsText(k)}`)
  }
  for (const k of ['slash_timeout', 'withdraw_cooldown', 'profit_unlock_secs'] as const) {
    const b = PARAMETER_BOUNDS[k]
    if (p[k] < b.min || p[k] > b.max) out.push(`${k} must be ${boundsText(k)} seconds`)
  }
  return out
}

/** The parameters as JSON (amounts and seconds as decimal strings: they do not fit a double). */
export function parametersToJson(p: ServiceParameters): Record<ParameterName, string | number> {
  return {
    min_stake: p.min_stake.toString(),
    slash_timeout: p.slash_timeout.toString(),
    slash_rate_bps: p.slash_rate_bps,
    deposit_cap: p.deposit_cap.toString(),
    withdraw_cooldown: p.withdraw_cooldown.toString(),
    max_draw_per_keeper: p.max_draw_per_keeper.toString(),
    keeper_fee_bps: p.keeper_fee_bps,
    profit_unlock_secs: p.profit_unlock_secs.toString(),
  }
}

export function parametersFromJson(j: Record<string, string | number>): ServiceParameters {
  const big = (k: string) => BigInt(j[k] ?? Number.NaN)
  return {
    min_stake: big('min_stake'),
    slash_timeout: big('slash_timeout'),
    slash_rate_bps: Number(j.slash_rate_bps),
    deposit_cap: big('deposit_cap'),
    withdraw_cooldown: big('withdraw_cooldown'),
    max_draw_per_keeper: big('max_draw_per_keeper'),
    keeper_fee_bps: Number(j.keeper_fee_bps),
    profit_unlock_secs: big('profit_unlock_secs'),
  }
}

/** Names of the parameters whose values differ. */
export function differingParameters(a: ServiceParameters, b: ServiceParameters): ParameterName[] {
  return PARAMETER_NAMES.filter((k) => a[k] !== b[k])
}

/** 7-decimal USDC amount → "1234.5000000". */
export function formatUsdc(v: bigint): string {
  const neg = v < 0n
  const a = neg ? -v : v
  return `${neg ? '-' : ''}${a / UNIT}.${(a % UNIT).toString().padStart(7, '0')}`
}

/** "1234.5" (at most 7 decimals) → 12345000000n; undefined when it is not such a number. */
export function parseUsdc(text: string): bigint | undefined {
  const m = /^(\d+)(?:\.(\d{1,7}))?$/.exec(text.trim())
  if (!m) return undefined
  return BigInt(m[1]!) * UNIT + BigInt((m[2] ?? '').padEnd(7, '0') || '0')
}

/** One line per parameter, for the output. */
export function describeParameters(p: ServiceParameters): string[] {
  return [
    `min_stake ${formatUsdc(p.min_stake)} USDC`,
    `slash_timeout ${p.slash_timeout} s`,
    `slash_rate_bps ${p.slash_rate_bps}`,
    `deposit_cap ${formatUsdc(p.deposit_cap)} USDC`,
    `withdraw_cooldown ${p.withdraw_cooldown} s`,
    `max_draw_per_keeper ${formatUsdc(p.max_draw_per_keeper)} USDC`,
    `keeper_fee_bps ${p.keeper_fee_bps}`,
    `profit_unlock_secs ${p.profit_unlock_secs} s`,
  ]
}
