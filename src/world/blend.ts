import type { Keypair } from '@stellar/stellar-sdk'
import { addr, bool, deployContract, i128, invoke, read, str, struct, u32, type Chain } from '../chain/index.js'
import { addrs, bytes, emptyVec, i128s } from './scval.js'
import { contractAddress } from './seed.js'
import type { WasmHashes } from './wasm.js'
import type { ReserveConfig as CoreReserveConfig } from '../core/index.js'

/** Blend v2 `ReserveConfig` as the pool takes it (factors and rates with 7 decimals; the pool assigns `index`). */
export type ReserveConfig = Omit<Required<CoreReserveConfig>, 'index'>

/** Blend v2 pool statuses (`PoolConfig.status`). */
export const POOL_STATUS = { adminActive: 0, active: 1, adminOnIce: 2, onIce: 3, adminFrozen: 4, frozen: 5, setup: 6 } as const

/** Blend v2 `Request.request_type`. */
export const REQUEST = {
  supply: 0,
  withdraw: 1,
  supplyCollateral: 2,
  withdrawCollateral: 3,
  borrow: 4,
  repay: 5,
  fillUserLiquidationAuction: 6,
  fillBadDebtAuction: 7,
  fillInterestAuction: 8,
  deleteLiquidationAuction: 9,
} as const

/** The interest-rate curve of blend-contract-sdk's `default_reserve_config`, with overrides. */
export function defaultReserveConfig(overrides: Partial<ReserveConfig> = {}): ReserveConfig {
  return {
    decimals: 7,
    c_factor: 7_500_000,
    l_factor: 7_500_000,
    util: 7_500_000,
    max_util: 9_500_000,
    r_base: 100_000,
    r_one: 500_000,
    r_two: 5_000_000,
    r_three: 1_5000000,
    reactivity: 20,
    supply_cap: 100_000_000_0000000n,
    enabled: true,
    ...overrides,
  }
}

function reserveConfigScVal(c: ReserveConfig, index: number) {
  return struct({
    c_factor: u32(c.c_factor),
    decimals: u32(c.decimals),
    enabled: bool(c.enabled),
    index: u32(index),
    l_factor: u32(c.l_factor),
    max_util: u32(c.max_util),
    r_base: u32(c.r_base),
    r_one: u32(c.r_one),
    r_three: u32(c.r_three),
    r_two: u32(c.r_two),
    reactivity: u32(c.reactivity),
    supply_cap: i128(c.supply_cap),
    util: u32(c.util),
  })
}

/** Addresses of a deployed Blend v2 protocol. */
export interface BlendProtocol {
  emitter: string
  /** Comet BLND:USDC 80:20 weighted pool; its LP token is the backstop token. */
  comet: string
  backstop: string
  poolFactory: string
  /** Hash (hex) of the uploaded pool wasm the factory deploys. */
  poolWasmHash: string
}

export interface DeployBlendParameters {
  /** Deployer and comet controller; must hold the BLND and USDC the comet is seeded with. */
  admin: Keypair
  /** The BLND SAC's admin (the issuer); hands the admin role to the emitter. */
  blndAdmin: Keypair
  blnd: string
  usdc: string
  /** Uploaded code of emitter, comet, backstop, pool_factory and pool. */
  wasm: Pick<WasmHashes, 'emitter' | 'comet' | 'backstop' | 'pool_factory' | 'pool'>
  /** 32-byte salts: derive them from the world seed for stable addresses. */
  salts: { emitter: Uint8Array; comet: Uint8Array; backstop: Uint8Array; poolFactory: Uint8Array }
}

/** BLND and USDC the admin must hold before `deployBlend` (the comet's seed + join). */
export const COMET_SEED = { blnd: 1_000_0000000n * 2001n, usdc: 25_0000000n * 2001n } as const
/** Comet LP tokens the admin holds after `deployBlend` (200k: enough for four pools' backstops). */
export const COMET_LP_MINTED = 200_000_0000000n

/**
 * Deploys the Blend v2 protocol the way blend-contract-sdk's `BlendFixture::deploy` does:
 * 1. comet: `init(admin, [BLND, USDC], weights 0.8/0.2, balances 1000/25, fee 0.3 %)`, then
 *    `join_pool(199_900 LP, max [2M BLND, 50k USDC], admin)` (init mints 100 LP: 200k total)
 * 2. the BLND SAC admin moves to the emitter; `emitter.initialize(BLND, backstop, comet)`
 * 3. backstop `__constructor(comet, emitter, BLND, USDC, pool_factory, [])`
 * 4. pool_factory `__constructor(PoolInitMeta { backstop, blnd_id, pool_hash })`
 * The emitter needs the backstop's address and the backstop the factory's before either
 * exists: both are derived from the deployer and their salts up front.
 */
export async function deployBlend(chain: Chain, p: DeployBlendParameters): Promise<BlendProtocol> {
  const { admin } = p
  const me = admin.publicKey()
  const backstopId = contractAddress(chain.networkPassphrase, me, p.salts.backstop)
  const poolFactoryId = contractAddress(chain.networkPassphrase, me, p.salts.poolFactory)

  const { emitter: emitterHash, comet: cometHash, backstop: backstopHash, pool_factory: factoryHash, pool: poolWasmHash } = p.wasm

  const comet = await deployContract(chain, admin, cometHash, [], { salt: p.salts.comet })
  await invoke(chain, admin, comet, 'init', [
    addr(me),
    addrs([p.blnd, p.usdc]),
    i128s([8_000_000n, 2_000_000n]),
    i128s([1_000_0000000n, 25_0000000n]),
    i128(30_000n),
  ])
  await invoke(chain, admin, comet, 'join_pool', [
    i128(199_900_0000000n),
    i128s([1_000_0000000n * 2000n, 25_0000000n * 2000n]),
    addr(me),
  ])

  const emitter = await deployContract(chain, admin, emitterHash, [], { salt: p.salts.emitter })
  await invoke(chain, p.blndAdmin, p.blnd, 'set_admin', [addr(emitter)])
  await invoke(chain, admin, emitter, 'initialize', [addr(p.blnd), addr(backstopId), addr(comet)])

  const backstop = await deployContract(
    chain,
    admin,
    backstopHash,
    [addr(comet), addr(emitter), addr(p.blnd), addr(p.usdc), addr(poolFactoryId), emptyVec()],
    { salt: p.salts.backstop },
  )
  const poolFactory = await deployContract(
    chain,
    admin,
    factoryHash,
    [struct({ backstop: addr(backstop), blnd_id: addr(p.blnd), pool_hash: bytes(Buffer.from(poolWasmHash, 'hex')) })],
    { salt: p.salts.poolFactory },
  )
  if (backstop !== backstopId || poolFactory !== poolFactoryId) {
    throw new Error(`derived addresses differ from deployed ones: backstop ${backstop} vs ${backstopId}, factory ${poolFactory} vs ${poolFactoryId}`)
  }
  return { emitter, comet, backstop, poolFactory, poolWasmHash }
}

export interface DeployPoolParameters {
  admin: Keypair
  name: string
  salt: Uint8Array
  oracle: string
  /** Backstop take rate, 7 decimals (1_000_000 = 10 %). */
  backstopTakeRate: number
  maxPositions: number
  /** Minimum collateral (oracle base units, 7 decimals) to hold a liability. */
  minCollateral: bigint
  /** Reserves in index order. */
  reserves: ReadonlyArray<{ asset: string; config: ReserveConfig }>
  /** Comet LP tokens the admin deposits into the backstop for the pool (>= the activation threshold). */
  backstopDeposit: bigint
}

/**
 * Deploys a pool through the factory and activates it, as blend-contract-sdk's tests do:
 * `pool_factory.deploy`, then per reserve `queue_set_reserve` + `set_reserve` (no delay while
 * the pool is in setup status), `backstop.deposit(admin, pool, amount)`, `set_status(3)`
 * (on ice: out of setup) and `update_status()`, which makes it active once the backstop holds
 * enough. Returns the pool address.
 */
export async function deployPool(chain: Chain, protocol: BlendProtocol, p: DeployPoolParameters): Promise<string> {
  const me = p.admin.publicKey()
  const { value: pool } = await invoke<string>(chain, p.admin, protocol.poolFactory, 'deploy', [
    addr(me),
    str(p.name),
    bytes(p.salt),
    addr(p.oracle),
    u32(p.backstopTakeRate),
    u32(p.maxPositions),
    i128(p.minCollateral),
  ])
  for (const [index, r] of p.reserves.entries()) {
    await invoke(chain, p.admin, pool, 'queue_set_reserve', [addr(r.asset), reserveConfigScVal(r.config, index)])
    await invoke(chain, p.admin, pool, 'set_reserve', [addr(r.asset)])
  }
  await invoke(chain, p.admin, protocol.backstop, 'deposit', [addr(me), addr(pool), i128(p.backstopDeposit)])
  await invoke(chain, p.admin, pool, 'set_status', [u32(POOL_STATUS.onIce)])
  await invoke(chain, p.admin, pool, 'update_status', [])
  const status = await poolStatus(chain, pool)
  if (status !== POOL_STATUS.active) {
    throw new Error(`pool ${pool} did not become active (status ${status}); is the backstop deposit below the threshold?`)
  }
  return pool
}

/** `get_config().status` of a pool. */
export async function poolStatus(chain: Chain, pool: string): Promise<number> {
  const config = await read<{ status: number }>(chain, pool, 'get_config')
  return Number(config.status)
}
