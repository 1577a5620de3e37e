import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { Asset } from '@stellar/stellar-sdk'
import { addr, createChain, deployContract, u32 } from '../chain/index.js'
import { addTrustlines, balanceOf, createAsset, fundAccounts, mintAll, type Mint, type WorldAsset } from './assets.js'
import { COMET_SEED, defaultReserveConfig, deployBlend, type ReserveConfig } from './blend.js'
import { deployDexes, dexSeedAmounts, setRouterPaused, type DexAsset } from './dex.js'
import { ORACLE_DECIMALS, WorldOracle } from './oracle.js'
import { addrs, vec } from './scval.js'
import { planBorrowers } from './planBorrowers.js'
import { readPositions } from './poolCalls.js'
import { openPools, poolCount, poolIndexOf } from './pools.js'
import { keypairFor, seedBytes } from './seed.js'
import {
  addBond,
  DEFAULT_KEEPER_FEE_BPS,
  DEFAULT_PROFIT_UNLOCK_SECS,
  bondForDraw,
  depositToVault,
  deployService,
  registerKeeper,
  type RegistryConfig,
  type VaultConfig,
} from './service.js'
import type {
  AssetEntry,
  Borrower,
  CollateralSpec,
  DeployWorldOptions,
  World,
  WorldAddresses,
  WorldNetwork,
} from './types.js'
import { uploadWasms } from './wasm.js'

const UNIT = 10_000_000n
const USDC_PRICE = 1n * UNIT
/** USDC reserve: the borrowed asset, high factors. */
const USDC_RESERVE = defaultReserveConfig({ c_factor: 9_500_000, l_factor: 9_500_000, util: 8_000_000 })

export const DEFAULT_COLLATERALS: readonly CollateralSpec[] = [
  { code: 'WETH', price: 2_000n * UNIT },
  { code: 'WBTC', price: 60_000n * UNIT },
]

/** Rebalance-vault targets: USDC (the base) then each collateral, in bps. */
function rebalanceWeights(collaterals: number): number[] {
  const each = Math.floor(5_000 / collaterals)
  return [10_000 - each * collaterals, ...Array.from({ length: collaterals }, () => each)]
}

/**
 * Deploys and seeds a complete local world on `network`: USDC, BLND and the collateral assets
 * (classic assets + SACs, trustlines), the SEP-40 mock oracle, the real Blend v2 protocol with
 * one active pool (USDC + collaterals), or `pools` of them sharing the oracle and the reserves,
 * a lender's USDC supply in each and borrowers near their limit (borrower i in pool i % pools),
 * two DEX routers with pairs and liquidity, a rebalance vault, and the service vault and
 * registry (its venues every pool and both routers) with depositors and registered keepers, each
 * bonded to back the largest draw. Same seed + same network = same addresses.
 *
 * @example
 * import { startSandbox } from '../../sandbox/ts/launch.js'
 * import { deployWorld } from './index.js'
 * const sandbox = await startSandbox()
 * const world = await deployWorld(sandbox, { seed: 7, addressesFile: 'target/world.json' })
 * await world.setPrice('WETH', 1_700_0000000n) // borrowers on WETH drop below HF 1
 */
export async function deployWorld(network: WorldNetwork, opts: DeployWorldOptions = {}): Promise<World> {
  const seed = BigInt(opts.seed ?? 1)
  const log = opts.log ?? (() => {})
  const collateralSpecs = opts.collaterals ?? DEFAULT_COLLATERALS
  if (collateralSpecs.length < 2) throw new RangeError('a world needs at least two collateral assets')
  for (const c of collateralSpecs) {
    if ((c.cometDepthUsd ?? 0n) < 0n) throw new RangeError(`collateral ${c.code}: cometDepthUsd must not be negative`)
    if (c.via === undefined) continue
    if (c.via.asset === c.code || !collateralSpecs.some((o) => o.code === c.via!.asset)) {
      throw new RangeError(`collateral ${c.code}: via.asset must be another collateral's code (got ${c.via.asset})`)
    }
    if (c.via.depthUsd <= 0n) throw new RangeError(`collateral ${c.code}: via.depthUsd must be positive`)
  }
  const nPools = poolCount(opts.pools)
  const nBorrowers = opts.borrowers ?? 4
  const nKeepers = opts.keepers ?? 3
  const service = opts.service ?? true
  const nDepositors = service ? (opts.depositors ?? 3) : 0
  const depositAmount = opts.depositAmount ?? 100_000n * UNIT
  const vaultConfig: VaultConfig = {
    depositCap: 100_000_000n * UNIT,
    withdrawCooldown: 0n,
    maxDrawPerKeeper: 1_000_000n * UNIT,
    keeperFeeBps: DEFAULT_KEEPER_FEE_BPS,
    profitUnlockSecs: DEFAULT_PROFIT_UNLOCK_SECS,
    ...opts.vaultConfig,
  }
  const registryConfig: RegistryConfig = { minStake: 1_000n * UNIT, slashTimeout: 3_600n, slashRateBps: 1_000, ...opts.registryConfig }
  const registerKeepers = service && (opts.registerKeepers ?? true)
  // Keepers registered here are plain accounts (two-step draws): their bond must back the largest
  // draw, so they get it on top of their keeperUsdc and add it after registering.
  const keeperBond = registerKeepers ? bondForDraw(vaultConfig.maxDrawPerKeeper, registryConfig) : 0n
  const keeperUsdc = (opts.keeperUsdc ?? 10_000n * UNIT) + keeperBond
  const lenderSupply = opts.lenderSupply ?? 2_000_000n * UNIT
  const hfRange = opts.borrowerHealthFactor ?? { min: 10_400_000n, max: 1_1000000n }
  if (hfRange.min < 10_100_000n || hfRange.max < hfRange.min) {
    throw new RangeError('borrowerHealthFactor needs 1.01 <= min <= max (7 decimals)')
  }

  const chain = createChain({
    rpcUrl: network.rpcUrl,
    networkPassphrase: network.networkPassphrase,
    friendbotUrl: network.friendbotUrl,
    ...(opts.txTimeoutSeconds === undefined ? {} : { txTimeoutSeconds: opts.txTimeoutSeconds }),
  })
  const kp = (label: string) => keypairFor(seed, label)
  const salt = (label: string) => seedBytes(seed, `salt/${label}`)
  const admin = kp('admin')
  const issuer = kp('issuer')
  const lender = kp('lender')
  const keepers = Array.from({ length: nKeepers }, (_, i) => kp(`keeper/${i}`))
  const depositors = Array.from({ length: nDepositors }, (_, i) => kp(`depositor/${i}`))
  const borrowerKeys = Array.from({ length: nBorrowers }, (_, i) => kp(`borrower/${i}`))

  log('accounts')
  const serial = opts.serial ?? false
  await fundAccounts(chain, [admin, issuer, lender, ...keepers, ...depositors, ...borrowerKeys], serial)

  log('assets and contract code')
  // The issuer's and the admin's transactions do not share a sequence number: run both at once.
  const createAssets = async () => {
    const list: WorldAsset[] = []
    for (const code of ['USDC', 'BLND', ...collateralSpecs.map((c) => c.code)]) list.push(await createAsset(chain, issuer, code))
    return list
  }
  const [[usdc, blnd, ...collaterals], wasm] = serial
    ? [await createAssets(), await uploadWasms(chain, admin, service)]
    : await Promise.all([createAssets(), uploadWasms(chain, admin, service)])
  if (!usdc || !blnd) throw new Error('asset creation returned too few assets')
  await addTrustlines(chain, [admin], [usdc, blnd, ...collaterals], serial)
  await addTrustlines(chain, [lender, ...depositors], [usdc], serial)
  await addTrustlines(chain, [...keepers, ...borrowerKeys], [usdc, ...collaterals], serial)

  const reserveConfigs: ReserveConfig[] = [
    USDC_RESERVE,
    ...collateralSpecs.map((c) => defaultReserveConfig({ c_factor: c.cFactor ?? 7_500_000 })),
  ]
  const borrowerPlans = planBorrowers({
    seed,
    count: nBorrowers,
    collaterals: collateralSpecs.map((c, i) => ({ price: c.price, cFactor: reserveConfigs[i + 1]!.c_factor })),
    usdcLFactor: USDC_RESERVE.l_factor,
    healthFactor: hfRange,
    ...(opts.collateralWeights === undefined ? {} : { weights: opts.collateralWeights }),
  }).map((plan, i) => {
    const keypair = borrowerKeys[i]!
    const { collateral, borrowed, targetHealthFactor } = plan
    return { keypair, address: keypair.publicKey(), collateralAsset: collaterals[plan.collateralIndex]!, collateral, borrowed, targetHealthFactor, poolIndex: poolIndexOf(i, nPools) }
  })

  // The DEX: each collateral's router pairs, and where asked its Comet pool and its pair against
  // another collateral on the primary router (the admin seeds them all).
  const dexAssets: DexAsset[] = collateralSpecs.map((c, i) => {
    const via = c.via
    const other = via === undefined ? -1 : collateralSpecs.findIndex((o) => o.code === via.asset)
    const viaAsset = via === undefined ? undefined : { contract: collaterals[other]!.contract, price: collateralSpecs[other]!.price, depthUsd: via.depthUsd }
    return {
      contract: collaterals[i]!.contract,
      price: c.price,
      depthUsd: c.dexDepthUsd ?? 1_000_000n * UNIT,
      ...(c.cometDepthUsd === undefined ? {} : { cometDepthUsd: c.cometDepthUsd }),
      ...(viaAsset === undefined ? {} : { via: viaAsset }),
    }
  })
  const dexSeed = dexSeedAmounts(dexAssets)
  const mints: Mint[] = [
    { asset: blnd, to: admin.publicKey(), amount: COMET_SEED.blnd },
    { asset: usdc, to: admin.publicKey(), amount: COMET_SEED.usdc + dexSeed.usdc },
    ...collaterals.map((c, i) => ({ asset: c, to: admin.publicKey(), amount: dexSeed.assets[i]! })),
    { asset: usdc, to: lender.publicKey(), amount: lenderSupply * BigInt(nPools) },
    ...keepers.map((k) => ({ asset: usdc, to: k.publicKey(), amount: keeperUsdc })),
    ...depositors.map((d) => ({ asset: usdc, to: d.publicKey(), amount: depositAmount })),
    ...borrowerPlans.map((b) => ({ asset: b.collateralAsset, to: b.address, amount: b.collateral })),
  ]
  log('mint')
  await mintAll(chain, issuer, mints)

  log('oracle')
  const oracle = await WorldOracle.deploy(
    chain,
    admin,
    usdc.contract,
    [
      { asset: usdc.contract, price: USDC_PRICE },
      ...collaterals.map((c, i) => ({ asset: c.contract, price: collateralSpecs[i]!.price })),
      ...(opts.oracleXlmPrice === undefined ? [] : [{ asset: Asset.native().contractId(chain.networkPassphrase), price: opts.oracleXlmPrice }]),
    ],
    wasm.sep40_oracle_mock,
    salt('oracle'),
  )

  log('blend protocol')
  const protocol = await deployBlend(chain, {
    admin,
    blndAdmin: issuer,
    blnd: blnd.contract,
    usdc: usdc.contract,
    wasm,
    salts: { emitter: salt('emitter'), comet: salt('comet'), backstop: salt('backstop'), poolFactory: salt('pool-factory') },
  })
  const reserves = [usdc.contract, ...collaterals.map((c) => c.contract)]
  // The first pool, its lender supply and borrowers, then each further pool's (pools.ts).
  const pools = await openPools({
    chain,
    protocol,
    admin,
    lender,
    seed,
    pools: nPools,
    salt,
    oracle: oracle.contract,
    usdc: usdc.contract,
    reserves,
    reserveConfigs,
    lenderSupply,
    borrowers: borrowerPlans,
    log,
  })
  const pool = pools[0]!
  const borrowers: Borrower[] = borrowerPlans.map(({ poolIndex, ...b }) => ({ ...b, pool: pools[poolIndex]! }))

  log('dex')
  const dex = await deployDexes(chain, admin, wasm, salt, usdc.contract, dexAssets)
  const { primaryRouter, fallbackRouter } = dex

  log('rebalance vault')
  const rebalanceAssets = [usdc.contract, ...collaterals.map((c) => c.contract)]
  const weights = rebalanceWeights(collaterals.length)
  const rebalancer = keepers[0]?.publicKey() ?? admin.publicKey()
  const rebalanceVault = await deployContract(
    chain,
    admin,
    wasm.rebalance_vault,
    [
      addr(admin.publicKey()),
      addr(rebalancer),
      addr(primaryRouter),
      addr(usdc.contract),
      addrs(rebalanceAssets),
      vec(weights.map((w) => u32(w))),
      addr(oracle.contract),
    ],
    { salt: salt('rebalance-vault') },
  )
  const rebalanceValue = 100_000n * UNIT
  await mintAll(
    chain,
    issuer,
    rebalanceAssets.map((asset, i) => ({
      asset: i === 0 ? usdc : collaterals[i - 1]!,
      to: rebalanceVault,
      amount: (((rebalanceValue * BigInt(weights[i]!)) / 10_000n) * UNIT) / (i === 0 ? USDC_PRICE : collateralSpecs[i - 1]!.price),
    })),
  )

  let serviceAddrs: { vault: string; registry: string } | undefined
  if (service) {
    log('service vault and registry')
    // The pools, both routers and the Comet pools exist by now: they are the registry's venues.
    serviceAddrs = await deployService(chain, admin, usdc.contract, vaultConfig, registryConfig, wasm, { vault: salt('vault'), registry: salt('registry') }, [
      ...pools,
      primaryRouter,
      fallbackRouter,
      ...dex.comets.map((c) => c.pool),
    ])
    const { vault, registry } = serviceAddrs
    if (serial) for (const d of depositors) await depositToVault(chain, d, vault, depositAmount)
    else await Promise.all(depositors.map((d) => depositToVault(chain, d, vault, depositAmount)))
    if (registerKeepers) {
      // One registration at a time (each takes the registry's next slot); the bonds may go at once.
      if (serial) for (const [i, k] of keepers.entries()) await registerKeeper(chain, k, registry, `keeper-${i}`, keeperBond)
      else {
        for (const [i, k] of keepers.entries()) await registerKeeper(chain, k, registry, `keeper-${i}`)
        await Promise.all(keepers.map((k) => addBond(chain, k, registry, keeperBond)))
      }
    }
  }

  const entry = (a: WorldAsset, price: bigint): AssetEntry => ({
    code: a.code,
    issuer: a.issuer,
    contract: a.contract,
    decimals: a.decimals,
    price: price.toString(),
  })
  const addresses: WorldAddresses = {
    version: 1,
    seed: seed.toString(),
    network: { rpcUrl: network.rpcUrl, networkPassphrase: network.networkPassphrase, friendbotUrl: network.friendbotUrl },
    assets: {
      usdc: entry(usdc, USDC_PRICE),
      blnd: entry(blnd, 0n),
      collateral: collaterals.map((c, i) => entry(c, collateralSpecs[i]!.price)),
    },
    oracle: { contract: oracle.contract, decimals: ORACLE_DECIMALS },
    blend: { pool, pools, ...protocol, reserves },
    dex,
    rebalanceVault: { contract: rebalanceVault, rebalancer, assets: rebalanceAssets, weightsBps: weights },
    service: serviceAddrs ?? null,
    accounts: {
      admin: admin.publicKey(),
      issuer: issuer.publicKey(),
      lender: lender.publicKey(),
      keepers: keepers.map((k) => k.publicKey()),
      depositors: depositors.map((d) => d.publicKey()),
      borrowers: borrowers.map((b) => b.address),
    },
    env: keeperEnv(network, pools, usdc.contract, primaryRouter, fallbackRouter, rebalanceVault, serviceAddrs, dex.comets.map((c) => c.pool)),
  }

  const findAsset = (key: string): WorldAsset => {
    const all = [usdc, blnd, ...collaterals]
    const hit = all.find((a) => a.contract === key || a.code === key)
    if (!hit) throw new RangeError(`unknown asset ${key} (known: ${all.map((a) => a.code).join(', ')})`)
    return hit
  }
  const routerId = (r: string) => (r === 'primary' ? primaryRouter : r === 'fallback' ? fallbackRouter : r)

  const world: World = {
    seed,
    network,
    chain,
    admin,
    issuer,
    lender,
    keepers,
    depositors,
    borrowers,
    usdc,
    blnd,
    collaterals,
    oracle: oracle.contract,
    blend: { ...protocol, pool, pools, reserves, reserveConfigs },
    dex: addresses.dex,
    rebalanceVault,
    service: serviceAddrs,
    addresses,
    asset: findAsset,
    price: (a) => oracle.price(findAsset(a).contract),
    // async: a bad argument becomes a rejected promise like every chain error
    setPrice: async (a, price) => oracle.setPrice(chain, admin, findAsset(a).contract, price),
    mint: async (a, to, amount) => mintAll(chain, issuer, [{ asset: findAsset(a), to, amount }]),
    mintMany: async (mints) => mintAll(chain, issuer, mints),
    fundAccounts: async (accounts) => fundAccounts(chain, accounts, true),
    balance: async (a, holder) => balanceOf(chain, findAsset(a).contract, holder),
    positions: async (user, inPool) => readPositions(chain, inPool ?? borrowers.find((b) => b.address === user)?.pool ?? pool, user),
    setRouterPaused: async (r, paused) => setRouterPaused(chain, admin, routerId(r), paused),
    writeAddresses: async (path) => writeAddressesFile(path, addresses),
  }
  if (opts.addressesFile !== undefined) await world.writeAddresses(opts.addressesFile)
  log('world ready')
  return world
}

export { poolSubmit, readPositions } from './poolCalls.js'

/**
 * The keeper's configuration variables for a world: its RPC and network, the lending pool
 * (`LENDING_POOL`; with more than one, `LENDING_POOLS`: their ids comma-separated), USDC, the
 * routers, `COMET_POOLS` (the Comet pools' contract ids, comma-separated; empty when none), the
 * rebalance vault, and the service vault and registry when there are.
 */
export function keeperEnv(
  network: WorldNetwork,
  pool: string | readonly string[],
  usdc: string,
  primary: string,
  fallback: string,
  rebalanceVault: string,
  service: { vault: string; registry: string } | undefined,
  cometPools: readonly string[] = [],
): Record<string, string> {
  return {
    CONTRACT_RPC: network.rpcUrl,
    NETWORK_PASSPHRASE: network.networkPassphrase,
    ...(typeof pool !== 'string' && pool.length > 1 ? { LENDING_POOLS: pool.join(',') } : { LENDING_POOL: typeof pool === 'string' ? pool : pool[0]! }),
    USDC_CONTRACT: usdc,
    PRIMARY_DEX_ROUTER: primary,
    FALLBACK_DEX_ROUTER: fallback,
    COMET_POOLS: cometPools.join(','),
    REBALANCE_VAULT: rebalanceVault,
    ...(service ? { VAULT_CONTRACT: service.vault, REGISTRY_CONTRACT: service.registry } : {}),
  }
}

export async function writeAddressesFile(path: string, addresses: WorldAddresses): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, `${JSON.stringify(addresses, null, 2)}\n`)
}

