/**
 * A world found on a sandbox started from a snapshot or a fork: the Blend pool, its reserves,
 * oracle, backstop and borrowers are whatever that state holds. On top of it go our accounts
 * (written with the sandbox's cheats), the oracle under our control (oracleControl.ts), DEX
 * routers with a USDC pair per collateral at the depth asked for (unless the caller names
 * routers that exist), and the service vault and registry with depositors. Same seed + same
 * state = same addresses and the same ledgers.
 */
import { Keypair } from '@stellar/stellar-sdk'
import { createChain, invoke, read, uploadWasm, type Chain } from '../../chain/index.js'
import { contractExecutable } from '../../chain/ledgerEntries.js'
import { PoolScanner, type ScanResult } from '../../keeper/adapters/blend/scan.js'
import { addTrustlines, balanceOf, classicAsset, type Mint, type WorldAsset } from '../assets.js'
import { readPositions, keeperEnv, writeAddressesFile } from '../deployWorld.js'
import { deployDexes, setRouterPaused } from '../dex.js'
import { keypairFor, seedBytes } from '../seed.js'
import { bondForDraw, depositToVault, deployService, registerKeeper, type ServiceSettings } from '../service.js'
import type { AssetEntry, Borrower, World, WorldAddresses, WorldNetwork, WorldSource } from '../types.js'
import { loadWasm } from '../wasm.js'
import { assetOfSacName, createAccounts, credit, type CheatNode } from './ledgerCheats.js'
import { takeOverOracle } from './oracleControl.js'

const UNIT = 10_000_000n
/** XLM each of our accounts starts with (fees, reserves). */
const ACCOUNT_XLM = 10_000n * UNIT

export interface FoundWorldOptions extends ServiceSettings {
  seed: number | bigint
  /** The pool to simulate. */
  pool: string
  /** The reserve our vault lends (default: the reserve whose asset code is USDC). */
  usdc?: string
  /** Users to track (found in the snapshot, the upstream's events, hints or a list). */
  borrowers: readonly string[]
  /** Routers to sell into; when absent, two are deployed with a pair per collateral. */
  routers?: { primary: string; fallback?: string | undefined }
  /** USD on each side of the primary pair per collateral code (default 1M). */
  dexDepthUsd?: (code: string) => bigint
  registerKeepers?: boolean
  /** 0: set-up transactions without an upper time bound (the same envelopes every run). */
  txTimeoutSeconds?: number
  /** Where the state came from (completed with the pool's oracle and backstop). */
  source: Omit<WorldSource, 'oracle' | 'oracleCode' | 'backstop' | 'pool' | 'networkPassphrase'>
  log?: (line: string) => void
}

/** A found pool's reserve: its SAC, classic asset and oracle price (7 decimals). */
interface FoundReserve {
  asset: WorldAsset
  /** Price in the oracle's base, 7 decimals. */
  price: bigint
}

/** 7-decimal price from an oracle price with `decimals`. */
function to7(price: bigint, decimals: number): bigint {
  return decimals >= 7 ? price / 10n ** BigInt(decimals - 7) : price * 10n ** BigInt(7 - decimals)
}

async function reserveAsset(chain: Chain, contract: string): Promise<WorldAsset> {
  const exe = await contractExecutable(chain.server as never, contract)
  if (exe?.kind !== 'stellar-asset') {
    throw new Error(`reserve ${contract} is not a Stellar Asset Contract: the sim funds its accounts by writing SAC and trustline balances, so it cannot hold this token`)
  }
  const decimals = Number(await read<number>(chain, contract, 'decimals'))
  if (decimals !== 7) throw new Error(`reserve ${contract} has ${decimals} decimals; the sim handles 7-decimal assets only`)
  const asset = assetOfSacName(await read<string>(chain, contract, 'name'))
  return asset.isNative() ? { code: 'XLM', issuer: '', contract, decimals: 7 } : { code: asset.getCode(), issuer: asset.getIssuer() ?? '', contract, decimals: 7 }
}

/** Reads the pool through the keeper's own scanner (config, reserves, prices, positions). */
export async function scanPool(chain: Chain, pool: string, borrowers: readonly string[], nowMs: number): Promise<ScanResult> {
  const scanner = new PoolScanner(pool, { now: () => nowMs })
  scanner.addBorrowers(borrowers)
  return scanner.scan(chain.server as never, chain)
}

export async function buildOnFoundPool(node: CheatNode & WorldNetwork, o: FoundWorldOptions): Promise<World & { startScan: ScanResult }> {
  const log = o.log ?? (() => {})
  const seed = BigInt(o.seed)
  const network: WorldNetwork = { rpcUrl: node.rpcUrl, networkPassphrase: node.networkPassphrase, friendbotUrl: node.friendbotUrl }
  const chain = createChain({ ...network, ...(o.txTimeoutSeconds === undefined ? {} : { txTimeoutSeconds: o.txTimeoutSeconds }) })
  const latest = await chain.server.getLatestLedger()
  const nowMs = Number((latest as { closeTime?: string | number }).closeTime ?? 0) * 1000

  log('reading the pool')
  const scan = await scanPool(chain, o.pool, o.borrowers, nowMs)
  const oracle = scan.snapshot.config.oracle
  const reserves = new Map<string, FoundReserve>()
  for (const r of scan.snapshot.reserveList) {
    const p = scan.prices.prices.get(r)
    if (p === undefined) throw new Error(`the oracle ${oracle} has no price for reserve ${r}`)
    reserves.set(r, { asset: await reserveAsset(chain, r), price: to7(p.price, scan.prices.decimals) })
  }
  const usdcId = o.usdc ?? [...reserves.values()].find((r) => r.asset.code === 'USDC')?.asset.contract
  if (usdcId === undefined) throw new Error(`pool ${o.pool} has no reserve with asset code USDC: name the one the vault lends (world.from.usdc)`)
  const usdc = reserves.get(usdcId)?.asset
  if (usdc === undefined) throw new Error(`${usdcId} is not a reserve of pool ${o.pool} (reserves: ${[...reserves.keys()].join(', ')})`)
  const collaterals = [...reserves.values()].filter((r) => r.asset.contract !== usdcId)
  if (collaterals.length === 0) throw new Error(`pool ${o.pool} has no reserve besides ${usdc.code}`)
  const codes = [...reserves.values()].map((r) => r.asset.code)
  const twice = codes.filter((c, i) => codes.indexOf(c) !== i)
  if (twice.length > 0) throw new Error(`pool ${o.pool} has two reserves with asset code ${twice[0]}: the sim names assets by code`)

  const kp = (label: string) => keypairFor(seed, `found/${label}`)
  const salt = (label: string) => seedBytes(seed, `found/salt/${label}`)
  const admin = kp('admin')
  const keepers = Array.from({ length: o.keepers }, (_, i) => kp(`keeper/${i}`))
  const depositors = Array.from({ length: o.depositors }, (_, i) => kp(`depositor/${i}`))

  log('accounts')
  const fundAccounts = async (accounts: readonly Keypair[]) => {
    const l = await chain.server.getLatestLedger()
    await createAccounts(node, chain.server as never, accounts.map((k) => k.publicKey()), ACCOUNT_XLM, l.sequence)
  }
  await fundAccounts([admin, ...keepers, ...depositors])
  const tokens = [usdc, ...collaterals.map((c) => c.asset)]
  await addTrustlines(chain, [admin, ...keepers, ...depositors], tokens, true)
  const mintMany = async (mints: readonly Mint[]) => {
    for (const m of mints) await credit(node, chain.server as never, classicAsset(m.asset), m.asset.contract, m.to, m.amount)
  }

  log('the oracle, under the scenario\'s control')
  const before = await contractExecutable(chain.server as never, oracle)
  const control = await takeOverOracle(chain, node, admin, oracle, BigInt(Math.floor(nowMs / 1000)), before?.kind === 'wasm' ? before.wasmHash : null, scan.snapshot.reserveList)
  const prices7 = new Map([...reserves.values()].map((r) => [r.asset.contract, r.price]))

  log('contract code')
  const wasm = {
    dex_pair: await uploadWasm(chain, admin, loadWasm('own', 'dex_pair')),
    dex_router: await uploadWasm(chain, admin, loadWasm('own', 'dex_router')),
    vault: await uploadWasm(chain, admin, loadWasm('own', 'vault')),
    // Before the registry: its configuration names the executor code it deploys.
    executor: await uploadWasm(chain, admin, loadWasm('own', 'executor')),
    registry: await uploadWasm(chain, admin, loadWasm('own', 'registry')),
  }

  let dex: WorldAddresses['dex']
  if (o.routers === undefined) {
    log('dex')
    const depth = (code: string) => o.dexDepthUsd?.(code) ?? 1_000_000n * UNIT
    const liquidity: Mint[] = [{ asset: usdc, to: admin.publicKey(), amount: collaterals.reduce((t, c) => t + depth(c.asset.code) + depth(c.asset.code) / 2n, 0n) }]
    for (const c of collaterals) {
      const d = depth(c.asset.code)
      liquidity.push({ asset: c.asset, to: admin.publicKey(), amount: ((d + d / 2n) * UNIT) / c.price })
    }
    await mintMany(liquidity)
    dex = await deployDexes(chain, admin, wasm, salt, usdc.contract, collaterals.map((c) => ({ contract: c.asset.contract, price: c.price, depthUsd: depth(c.asset.code) })))
  } else {
    dex = { primaryRouter: o.routers.primary, fallbackRouter: o.routers.fallback ?? o.routers.primary, pairWasmHash: '', pairs: [], comets: [] }
  }

  log('service vault and registry')
  // Venues: the found pool and the routers, which exist by now.
  const service = await deployService(chain, admin, usdc.contract, o.vaultConfig, o.registryConfig, wasm, { vault: salt('vault'), registry: salt('registry') }, [
    o.pool,
    dex.primaryRouter,
    dex.fallbackRouter,
  ])
  // Keepers registered here are plain accounts: their bond backs the largest draw (see deployWorld).
  const registerKeepers = o.registerKeepers ?? false
  const keeperBond = registerKeepers ? bondForDraw(o.vaultConfig.maxDrawPerKeeper, o.registryConfig) : 0n
  await mintMany([
    ...keepers.map((k) => ({ asset: usdc, to: k.publicKey(), amount: o.keeperUsdc + keeperBond })),
    ...depositors.map((d) => ({ asset: usdc, to: d.publicKey(), amount: o.depositAmount })),
  ])
  for (const d of depositors) await depositToVault(chain, d, service.vault, o.depositAmount)
  if (registerKeepers) for (const [i, k] of keepers.entries()) await registerKeeper(chain, k, service.registry, `keeper-${i}`, keeperBond)

  const borrowers: Borrower[] = scan.borrowers
    .filter((b) => b.positions.liabilities.size > 0)
    .map((b) => {
      let best: { index: number; amount: bigint } | undefined
      for (const [index, amount] of b.positions.collateral) if (best === undefined || amount > best.amount) best = { index, amount }
      const asset = reserves.get(scan.snapshot.reserveList[best?.index ?? 0] ?? usdcId)!.asset
      return {
        keypair: Keypair.fromPublicKey(b.user),
        address: b.user,
        collateralAsset: asset,
        collateral: best?.amount ?? 0n,
        borrowed: b.positions.liabilities.get(scan.snapshot.reserveList.indexOf(usdcId)) ?? 0n,
        targetHealthFactor: BigInt(Math.round(Math.min(b.healthFactor, 1e6) * 1e7)),
        pool: o.pool,
      }
    })

  const entry = (a: WorldAsset): AssetEntry => ({ code: a.code, issuer: a.issuer, contract: a.contract, decimals: a.decimals, price: (prices7.get(a.contract) ?? 0n).toString() })
  const source: WorldSource = {
    ...o.source,
    networkPassphrase: network.networkPassphrase,
    pool: o.pool,
    oracle,
    oracleCode: control.originalCode,
    backstop: scan.snapshot.backstop,
  }
  const env = keeperEnv(network, o.pool, usdc.contract, dex.primaryRouter, dex.fallbackRouter, '', service)
  delete env['REBALANCE_VAULT']
  if (o.borrowers.length > 0) env['WATCH_ADDRESSES'] = o.borrowers.join(',')
  const addresses: WorldAddresses = {
    version: 1,
    seed: seed.toString(),
    network,
    assets: { usdc: entry(usdc), blnd: entry(usdc), collateral: collaterals.map((c) => entry(c.asset)) },
    oracle: { contract: oracle, decimals: control.decimals },
    blend: { pool: o.pool, pools: [o.pool], backstop: scan.snapshot.backstop, emitter: '', comet: '', poolFactory: '', poolWasmHash: '', reserves: scan.snapshot.reserveList },
    dex,
    rebalanceVault: { contract: '', rebalancer: '', assets: [], weightsBps: [] },
    service,
    accounts: {
      admin: admin.publicKey(),
      issuer: '',
      lender: '',
      keepers: keepers.map((k) => k.publicKey()),
      depositors: depositors.map((d) => d.publicKey()),
      borrowers: borrowers.map((b) => b.address),
    },
    env,
  }
  const all = [usdc, ...collaterals.map((c) => c.asset)]
  const findAsset = (key: string): WorldAsset => {
    const hit = all.find((a) => a.contract === key || a.code === key)
    if (!hit) throw new RangeError(`unknown asset ${key} (known: ${all.map((a) => a.code).join(', ')})`)
    return hit
  }
  const routerId = (r: string) => (r === 'primary' ? dex.primaryRouter : r === 'fallback' ? dex.fallbackRouter : r)
  const toOracle = (p7: bigint) => (control.decimals >= 7 ? p7 * 10n ** BigInt(control.decimals - 7) : p7 / 10n ** BigInt(7 - control.decimals))
  const post = async (prices: ReadonlyMap<string, bigint>) => {
    const l = await chain.server.getLatestLedger()
    const ts = BigInt(Number((l as { closeTime?: string | number }).closeTime ?? 0))
    await invoke(chain, admin, oracle, 'set_price', control.setPriceArgs(new Map([...prices].map(([a, p]) => [a, toOracle(p)])), ts))
  }
  log('world ready')
  return {
    seed,
    network,
    chain,
    admin,
    issuer: admin,
    lender: admin,
    keepers,
    depositors,
    borrowers,
    usdc,
    blnd: usdc,
    collaterals: collaterals.map((c) => c.asset),
    oracle,
    blend: {
      pool: o.pool,
      pools: [o.pool],
      backstop: scan.snapshot.backstop,
      emitter: '',
      comet: '',
      poolFactory: '',
      poolWasmHash: '',
      reserves: scan.snapshot.reserveList,
      reserveConfigs: scan.snapshot.reserveList.map((r) => scan.snapshot.reserves.get(r)!.config),
    },
    dex,
    rebalanceVault: '',
    service,
    addresses,
    source,
    oracleFeed: { method: 'set_price', decimals: control.decimals, args: control.setPriceArgs },
    startScan: scan,
    asset: findAsset,
    price: (a) => prices7.get(findAsset(a).contract) ?? 0n,
    setPrice: async (a, price) => {
      const id = findAsset(a).contract
      if (price <= 0n) throw new RangeError(`price must be positive, got ${price}`)
      prices7.set(id, price)
      await post(prices7)
    },
    mint: async (a, to, amount) => mintMany([{ asset: findAsset(a), to, amount }]),
    mintMany,
    fundAccounts,
    balance: async (a, holder) => balanceOf(chain, findAsset(a).contract, holder),
    positions: async (user, pool) => readPositions(chain, pool ?? o.pool, user),
    setRouterPaused: async (r, paused) => setRouterPaused(chain, admin, routerId(r), paused),
    writeAddresses: async (path) => writeAddressesFile(path, addresses),
  }
}
