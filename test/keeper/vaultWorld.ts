import { Asset, Keypair, Operation, xdr } from '@stellar/stellar-sdk'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  addr,
  createChain,
  deployAssetContract,
  fundAccount,
  i128,
  invoke,
  submit,
  u32,
  u64,
  uploadAndDeploy,
  uploadWasm,
  struct,
  type Chain,
} from '../../src/chain/index.js'

/** Repository root (this file is test/keeper/). */
export const REPO_ROOT = join(import.meta.dirname, '..', '..')

export interface VaultWorldParameters {
  rpcUrl: string
  friendbotUrl: string
  networkPassphrase: string
  minStake?: bigint
  slashTimeout?: number
  slashRateBps?: number
  maxDrawPerKeeper?: bigint
  /** The keeper's share of a fill's gross profit, bps (default 1000). */
  keeperFeeBps?: number
  /** Seconds over which booked profit unlocks into the share price (default 3600). */
  profitUnlockSecs?: number
  /** See Chain.instructionLeeway. */
  instructionLeeway?: number
}

export interface VaultWorld {
  chain: Chain
  admin: Keypair
  usdcAsset: Asset
  usdc: string
  vault: string
  registry: string
  minStake: bigint
  slashTimeout: number
  /** Creates an account with a USDC trustline holding `usdc` (7 decimals). */
  newAccount(usdc: bigint): Promise<Keypair>
  /** Mints more USDC to an account that has the trustline. */
  pay(to: string, usdc: bigint): Promise<void>
}

const wasm = (name: string) => readFileSync(join(REPO_ROOT, 'target', 'wasm', `${name}.wasm`))

/** Decimal string of 7-decimal stroops, the unit classic payments use. */
function classicAmount(v: bigint): string {
  const s = v.toString().padStart(8, '0')
  return `${s.slice(0, -7)}.${s.slice(-7)}`
}

/**
 * The vault, the keeper registry and USDC (a Stellar Asset Contract issued by `admin`), deployed
 * and wired to each other (vault.set_registry, registry.set_vault) on a running network.
 */
export async function deployVaultWorld(p: VaultWorldParameters): Promise<VaultWorld> {
  const chain = createChain({
    rpcUrl: p.rpcUrl,
    networkPassphrase: p.networkPassphrase,
    friendbotUrl: p.friendbotUrl,
    instructionLeeway: p.instructionLeeway ?? 0,
  })
  const admin = Keypair.random()
  await fundAccount(chain, admin.publicKey())
  const usdcAsset = new Asset('USDC', admin.publicKey())
  const usdc = await deployAssetContract(chain, admin, usdcAsset)
  const minStake = p.minStake ?? 100_0000000n
  const slashTimeout = p.slashTimeout ?? 3_600
  // The registry deploys keepers' executors from code uploaded before it (its hash in the config).
  const executorWasm = await uploadWasm(chain, admin, wasm('executor'))
  const registry = await uploadAndDeploy(chain, admin, wasm('registry'), [
    addr(admin.publicKey()),
    struct({
      executor_wasm: xdr.ScVal.scvBytes(Buffer.from(executorWasm, 'hex')),
      min_stake: i128(minStake),
      slash_timeout: u64(slashTimeout),
      slash_rate_bps: u32(p.slashRateBps ?? 1_000),
      usdc_token: addr(usdc),
    }),
  ])
  const vault = await uploadAndDeploy(chain, admin, wasm('vault'), [
    addr(admin.publicKey()),
    addr(usdc),
    struct({
      deposit_cap: i128(1_000_000_000_0000000n),
      keeper_fee_bps: u32(p.keeperFeeBps ?? 1_000),
      max_draw_per_keeper: i128(p.maxDrawPerKeeper ?? 10_000_0000000n),
      profit_unlock_secs: u64(p.profitUnlockSecs ?? 3_600),
      withdraw_cooldown: u64(0),
    }),
  ])
  await invoke(chain, admin, vault, 'set_registry', [addr(registry)])
  await invoke(chain, admin, registry, 'set_vault', [addr(vault)])

  const pay = async (to: string, amount: bigint) => {
    await submit(chain, admin, Operation.payment({ destination: to, asset: usdcAsset, amount: classicAmount(amount) }))
  }
  const newAccount = async (amount: bigint) => {
    const kp = Keypair.random()
    await fundAccount(chain, kp.publicKey())
    await submit(chain, kp, Operation.changeTrust({ asset: usdcAsset }))
    if (amount > 0n) await pay(kp.publicKey(), amount)
    return kp
  }
  return { chain, admin, usdcAsset, usdc, vault, registry, minStake, slashTimeout, newAccount, pay }
}

/**
 * A keeper's environment for a vault world on `network`: the contract ids and RPC, the keeper's
 * secret, a free API port on loopback, a 3 s poll. `extra` adds to it and wins.
 */
export function vaultKeeperEnv(
  world: Pick<VaultWorld, 'registry' | 'vault' | 'usdc'>,
  network: { rpcUrl: string; networkPassphrase: string },
  keeper: Keypair,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    KEEPER_SECRET: keeper.secret(),
    REGISTRY_CONTRACT: world.registry,
    VAULT_CONTRACT: world.vault,
    USDC_CONTRACT: world.usdc,
    CONTRACT_RPC: network.rpcUrl,
    NETWORK_PASSPHRASE: network.networkPassphrase,
    API_PORT: '0',
    API_HOST: '127.0.0.1',
    POLL_INTERVAL: '3',
    ...extra,
  }
}
