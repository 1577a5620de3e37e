import type { Keypair } from '@stellar/stellar-sdk'
import { addr, deployContract, i128, invoke, str, struct, u32, u64, type Chain } from '../chain/index.js'
import type { WasmHashes } from './wasm.js'

/** The service's vault configuration (`VaultConfig`). */
export interface VaultConfig {
  depositCap: bigint
  withdrawCooldown: bigint
  maxDrawPerKeeper: bigint
}

/** The keeper registry's configuration (`RegistryConfig` without the token). */
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

/**
 * Deploys the service vault and the keeper registry and links them
 * (`vault.set_registry`, `registry.set_vault`).
 */
export async function deployService(
  chain: Chain,
  admin: Keypair,
  usdc: string,
  vaultConfig: VaultConfig,
  registryConfig: RegistryConfig,
  wasm: Pick<WasmHashes, 'vault' | 'registry'>,
  salts: { vault: Uint8Array; registry: Uint8Array },
): Promise<{ vault: string; registry: string }> {
  const me = addr(admin.publicKey())
  const vault = await deployContract(
    chain,
    admin,
    wasm.vault,
    [
      me,
      addr(usdc),
      struct({
        deposit_cap: i128(vaultConfig.depositCap),
        max_draw_per_keeper: i128(vaultConfig.maxDrawPerKeeper),
        withdraw_cooldown: u64(vaultConfig.withdrawCooldown),
      }),
    ],
    { salt: salts.vault },
  )
  const registry = await deployContract(
    chain,
    admin,
    wasm.registry,
    [
      me,
      struct({
        min_stake: i128(registryConfig.minStake),
        slash_rate_bps: u32(registryConfig.slashRateBps),
        slash_timeout: u64(registryConfig.slashTimeout),
        usdc_token: addr(usdc),
      }),
    ],
    { salt: salts.registry },
  )
  await invoke(chain, admin, vault, 'set_registry', [addr(registry)])
  await invoke(chain, admin, registry, 'set_vault', [addr(vault)])
  return { vault, registry }
}

/** `vault.deposit(depositor, amount)`; returns the shares minted. */
export async function depositToVault(chain: Chain, depositor: Keypair, vault: string, amount: bigint): Promise<bigint> {
  const { value } = await invoke<bigint>(chain, depositor, vault, 'deposit', [addr(depositor.publicKey()), i128(amount)])
  return value
}

/** `registry.register(operator, name)` (pulls min_stake USDC from the operator). */
export async function registerKeeper(chain: Chain, operator: Keypair, registry: string, name: string): Promise<void> {
  await invoke(chain, operator, registry, 'register', [addr(operator.publicKey()), str(name)])
}
