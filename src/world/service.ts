import { bondForDraw as coreBondForDraw } from '../core/index.js'
import { xdr, type Keypair } from '@stellar/stellar-sdk'
import { addr, deployContract, i128, invoke, str, struct, u32, u64, type Chain } from '../chain/index.js'
import type { WasmHashes } from './wasm.js'

/** The service's vault configuration (`VaultConfig`). */
export interface VaultConfig {
  depositCap: bigint
  withdrawCooldown: bigint
  maxDrawPerKeeper: bigint
  /** The keeper's share of a fill's gross profit, in basis points (default 1000: 10 %). */
  keeperFeeBps?: number
  /** Seconds over which booked profit unlocks into the share price (default 3600). */
  profitUnlockSecs?: bigint
}

/** A world's keeper fee unless its options say otherwise: 10 % of each fill's gross profit. */
export const DEFAULT_KEEPER_FEE_BPS = 1_000
/** A world's profit unlock period unless its options say otherwise (s). */
export const DEFAULT_PROFIT_UNLOCK_SECS = 3_600n

/** The keeper registry's configuration (`RegistryConfig` without the token and the executor code). */
export interface RegistryConfig {
  minStake: bigint
  slashTimeout: bigint
  slashRateBps: number
}

/** The service side of a world: keeper and depositor accounts, their USDC, both configurations. */
export interface ServiceSettings {
  keepers: number
  depositors: number
  /** USDC each depositor puts in the vault (7 decimals). */
  depositAmount: bigint
  /** USDC a keeper account starts with (7 decimals). */
  keeperUsdc: bigint
  vaultConfig: VaultConfig
  registryConfig: RegistryConfig
}

/** The `VaultConfig` struct of the vault's constructor. */
export function vaultConfigScVal(c: VaultConfig): xdr.ScVal {
  return struct({
    deposit_cap: i128(c.depositCap),
    keeper_fee_bps: u32(c.keeperFeeBps ?? DEFAULT_KEEPER_FEE_BPS),
    max_draw_per_keeper: i128(c.maxDrawPerKeeper),
    profit_unlock_secs: u64(c.profitUnlockSecs ?? DEFAULT_PROFIT_UNLOCK_SECS),
    withdraw_cooldown: u64(c.withdrawCooldown),
  })
}

/** The `RegistryConfig` struct of the registry's constructor. */
export function registryConfigScVal(c: RegistryConfig, usdc: string, executorWasm: string): xdr.ScVal {
  return struct({
    executor_wasm: xdr.ScVal.scvBytes(Buffer.from(executorWasm, 'hex')),
    min_stake: i128(c.minStake),
    slash_rate_bps: u32(c.slashRateBps),
    slash_timeout: u64(c.slashTimeout),
    usdc_token: addr(usdc),
  })
}

/**
 * Deploys the service vault and the keeper registry (with the hash of the executor code it
 * deploys for keepers, uploaded before) and links them (`vault.set_registry`,
 * `registry.set_vault`); then, when `venues` names any, `registry.set_venues(venues)`: the
 * lending pool and DEX routers approved executors may use.
 */
export async function deployService(
  chain: Chain,
  admin: Keypair,
  usdc: string,
  vaultConfig: VaultConfig,
  registryConfig: RegistryConfig,
  wasm: Pick<WasmHashes, 'vault' | 'registry' | 'executor'>,
  salts: { vault: Uint8Array; registry: Uint8Array },
  venues: readonly string[] = [],
): Promise<{ vault: string; registry: string }> {
  const me = addr(admin.publicKey())
  const vault = await deployContract(chain, admin, wasm.vault, [me, addr(usdc), vaultConfigScVal(vaultConfig)], { salt: salts.vault })
  const registry = await deployContract(chain, admin, wasm.registry, [me, registryConfigScVal(registryConfig, usdc, wasm.executor)], { salt: salts.registry })
  await invoke(chain, admin, vault, 'set_registry', [addr(registry)])
  await invoke(chain, admin, registry, 'set_vault', [addr(vault)])
  if (venues.length > 0) await setVenues(chain, admin, registry, venues)
  return { vault, registry }
}

/** `registry.set_venues(venues)` (admin): each address once, in the order given. */
export async function setVenues(chain: Chain, admin: Keypair, registry: string, venues: readonly string[]): Promise<void> {
  await invoke(chain, admin, registry, 'set_venues', [xdr.ScVal.scvVec([...new Set(venues)].map(addr))])
}

/**
 * The bond a keeper registered directly (a plain account, the two-step path) adds on top of
 * `minStake` so that its draw_limit covers `maxDraw` (src/core's bondForDraw).
 */
export function bondForDraw(maxDraw: bigint, registry: RegistryConfig): bigint {
  return coreBondForDraw(maxDraw, registry.minStake, registry.slashRateBps)
}

/** `vault.deposit(depositor, amount)`; returns the shares minted. */
export async function depositToVault(chain: Chain, depositor: Keypair, vault: string, amount: bigint): Promise<bigint> {
  const { value } = await invoke<bigint>(chain, depositor, vault, 'deposit', [addr(depositor.publicKey()), i128(amount)])
  return value
}

/**
 * `registry.register(operator, name)` (pulls min_stake USDC from the operator), then, when
 * `bond` is positive, `addBond`.
 *
 * Register one keeper at a time: a registration writes the registry's next slot, which its
 * simulation read, so two sent at once collide (the second traps on a slot outside its footprint).
 */
export async function registerKeeper(chain: Chain, operator: Keypair, registry: string, name: string, bond = 0n): Promise<void> {
  await invoke(chain, operator, registry, 'register', [addr(operator.publicKey()), str(name)])
  await addBond(chain, operator, registry, bond)
}

/** `registry.add_bond(operator, amount)` when `amount` is positive (pulls that much USDC into the stake). */
export async function addBond(chain: Chain, operator: Keypair, registry: string, amount: bigint): Promise<void> {
  if (amount > 0n) await invoke(chain, operator, registry, 'add_bond', [addr(operator.publicKey()), i128(amount)])
}
