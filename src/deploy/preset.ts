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
  /** Registry: seconds a draw may stay out before anyone may slash its keeper. */
  slash_timeout: bigint
  /** Registry: share of the stake a slash sends to the vault, in basis points (<= 10000). */
  slash_rate_bps: number
  /** Vault: the most USDC the vault accepts. */
  deposit_cap: bigint
  /** Vault: seconds after a deposit before its depositor may withdraw. */
  withdraw_cooldown: bigint
  /** Vault: the largest draw one keeper may hold. */
  max_draw_per_keeper: bigint
}

export const PARAMETER_NAMES = ['min_stake', 'slash_timeout', 'slash_rate_bps', 'deposit_cap', 'withdraw_cooldown', 'max_draw_per_keeper'] as const

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
    },
    usdc: { networkPassphrase: Networks.TESTNET, asset: TESTNET_USDC },
  },
} as const satisfies Record<string, Preset>

export type PresetName = keyof typeof PRESETS

export function isPresetName(name: string): name is PresetName {
  return Object.hasOwn(PRESETS, name)
}

/** Problems of a parameter set the contracts' constructors would refuse (InvalidConfig) or cannot encode. */
export function parameterProblems(p: ServiceParameters): string[] {
  const out: string[] = []
  const I128_MAX = (1n << 127n) - 1n
  const U64_MAX = (1n << 64n) - 1n
  if (p.min_stake <= 0n || p.min_stake > I128_MAX) out.push('min_stake must be more than 0')
  if (p.deposit_cap <= 0n || p.deposit_cap > I128_MAX) out.push('deposit_cap must be more than 0')
  if (p.max_draw_per_keeper <= 0n || p.max_draw_per_keeper > I128_MAX) out.push('max_draw_per_keeper must be more than 0')
  if (!Number.isInteger(p.slash_rate_bps) || p.slash_rate_bps < 0 || p.slash_rate_bps > 10_000) out.push('slash_rate_bps must be an integer from 0 to 10000')
  for (const k of ['slash_timeout', 'withdraw_cooldown'] as const) if (p[k] < 0n || p[k] > U64_MAX) out.push(`${k} must be from 0 to 2^64-1 seconds`)
  return out
}

/** The parameters as JSON (amounts and seconds as decimal strings: they do not fit a double). */
export function parametersToJson(p: ServiceParameters): Record<(typeof PARAMETER_NAMES)[number], string | number> {
  return {
    min_stake: p.min_stake.toString(),
    slash_timeout: p.slash_timeout.toString(),
    slash_rate_bps: p.slash_rate_bps,
    deposit_cap: p.deposit_cap.toString(),
    withdraw_cooldown: p.withdraw_cooldown.toString(),
    max_draw_per_keeper: p.max_draw_per_keeper.toString(),
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
  }
}

/** Names of the parameters whose values differ. */
export function differingParameters(a: ServiceParameters, b: ServiceParameters): (typeof PARAMETER_NAMES)[number][] {
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
  ]
}
