import { existsSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { scValToNative } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../sandbox/ts/launch.js'
import { ContractError, addr, invoke, read, simulateRead, toRegistryConfig, toVaultConfig, u32, type Chain } from '../chain/index.js'
import { wasmHashOf } from '../chain/deployOnce.js'
import { RegistryContract } from '../keeper/clients/registry.js'
import { healthFactor, type Reserve } from '../core/index.js'
import { addrs } from './scval.js'
import { POOL_STATUS, contractAddress, deployWorld, quoteOut, seedBytes, type World, type WorldAddresses } from './index.js'
import { bondForDraw } from './service.js'
import { loadWasm } from './wasm.js'

const UNIT = 10_000_000n

/** Every reserve of the pool, accrued to now (`get_reserve` simulates the accrual). */
async function loadReserves(chain: Chain, pool: string, assets: readonly string[]): Promise<Reserve[]> {
  return Promise.all(assets.map((a) => read<Reserve>(chain, pool, 'get_reserve', [addr(a)])))
}

async function healthOf(world: World, user: string): Promise<bigint> {
  const reserves = await loadReserves(world.chain, world.blend.pool, world.blend.reserves)
  const positions = await world.positions(user)
  const prices = new Map(world.blend.reserves.map((a) => [a, world.price(a)]))
  const hf = healthFactor({ reserves, positions, prices, oracleDecimals: 7 }).healthFactor
  if (hf === null) throw new Error(`${user} has no liabilities`)
  return hf
}

/** `new_auction(0, user, [USDC], [collateral], percent)` from a keeper. */
async function newLiquidation(world: World, user: string, collateral: string, percent: number) {
  return invoke(world.chain, world.keepers[0]!, world.blend.pool, 'new_auction', [
    u32(0),
    addr(user),
    addrs([world.usdc.contract]),
    addrs([collateral]),
    u32(percent),
  ])
}

describe('deployWorld on a fresh sandbox', () => {
  let sandbox: Sandbox
  let world: World
  const addressesFile = join(tmpdir(), `world-${process.pid}.json`)

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, ledgerIntervalSeconds: 0.25 })
    world = await deployWorld(sandbox, { seed: 11, borrowers: 4, addressesFile })
  })

  afterAll(async () => {
    await sandbox?.stop()
  })

  it('activates the Blend pool with the USDC and collateral reserves', async () => {
    const config = await read<{ status: number; oracle: string; max_positions: number }>(world.chain, world.blend.pool, 'get_config')
    expect(Number(config.status)).toBe(POOL_STATUS.active)
    expect(config.oracle).toBe(world.oracle)
    const list = await read<string[]>(world.chain, world.blend.pool, 'get_reserve_list')
    expect(list).toEqual([world.usdc.contract, ...world.collaterals.map((c) => c.contract)])
    const usdcReserve = await read<Reserve>(world.chain, world.blend.pool, 'get_reserve', [addr(world.usdc.contract)])
    expect(usdcReserve.config.c_factor).toBe(9_500_000)
    expect(usdcReserve.data.b_supply).toBeGreaterThan(0n)
    expect(usdcReserve.data.d_supply).toBeGreaterThan(0n)
    expect(await world.balance('BLND', world.blend.comet)).toBeGreaterThan(0n)
  })

  it('puts protocol contracts at the addresses the seed determines', () => {
    const admin = world.admin.publicKey()
    expect(world.blend.backstop).toBe(contractAddress(sandbox.networkPassphrase, admin, seedBytes(11n, 'salt/backstop')))
    expect(world.blend.poolFactory).toBe(contractAddress(sandbox.networkPassphrase, admin, seedBytes(11n, 'salt/pool-factory')))
    expect(world.dex.primaryRouter).toBe(contractAddress(sandbox.networkPassphrase, admin, seedBytes(11n, 'salt/router/primary')))
  })

  it('opens every borrower near its limit', async () => {
    for (const b of world.borrowers) {
      const p = await world.positions(b.address)
      const ci = world.blend.reserves.indexOf(b.collateralAsset.contract)
      expect(p.collateral.get(ci)).toBe(b.collateral)
      const debt = p.liabilities.get(0) ?? 0n
      expect(debt).toBeGreaterThan(0n)
      expect(debt).toBeLessThanOrEqual(b.borrowed)
      expect(await world.balance('USDC', b.address)).toBe(b.borrowed)
      const hf = await healthOf(world, b.address)
      expect(hf).toBeGreaterThan(10_000_000n)
      expect(hf).toBeLessThan(11_200_000n)
    }
  })

  it('refuses a liquidation while healthy; after a price drop HF < 1 and new_auction succeeds', async () => {
    const b = world.borrowers.find((x) => x.collateralAsset.code === 'WETH')!
    const weth = b.collateralAsset.contract
    await expect(newLiquidation(world, b.address, weth, 50)).rejects.toMatchObject({ code: 1211 })

    await world.setPrice('WETH', (world.price('WETH') * 85n) / 100n)
    const hf = await healthOf(world, b.address)
    expect(hf).toBeLessThan(10_000_000n)

    // Blend refuses percents that leave the user's HF outside [1.03, 1.15]; find one it accepts.
    let created: unknown
    for (const percent of [50, 40, 60, 30, 70, 25, 80, 20, 90, 100]) {
      try {
        created = (await newLiquidation(world, b.address, weth, percent)).value
        break
      } catch (err) {
        if (!(err instanceof ContractError) || (err.code !== 1213 && err.code !== 1214)) throw err
      }
    }
    expect(created).toBeDefined()
    const auction = scValToNative(
      await simulateRead(world.chain, world.blend.pool, 'get_auction', [u32(0), addr(b.address)]),
    ) as { bid: Record<string, bigint>; lot: Record<string, bigint>; block: number }
    expect(auction.bid[world.usdc.contract]).toBeGreaterThan(0n)
    expect(auction.lot[weth]).toBeGreaterThan(0n)
  })

  it('quotes both routers at the constant-product price; the pause hook makes a venue fail', async () => {
    const weth = world.asset('WETH').contract
    const path = [weth, world.usdc.contract]
    const expected = async (router: string) => {
      const [rw, ru] = await read<[bigint, bigint]>(world.chain, router, 'get_reserves', [addr(weth), addr(world.usdc.contract)])
      return (UNIT * 997n * ru) / (rw * 1000n + UNIT * 997n)
    }
    const [, out] = await quoteOut(world.chain, world.dex.primaryRouter, 1n * UNIT, path)
    expect(out).toBe(await expected(world.dex.primaryRouter))
    // seeded at the oracle's initial price: 2,000 less the 0.3 % fee and 0.2 % impact (500 WETH deep)
    expect(out!).toBeGreaterThan(1_989n * UNIT)
    expect(out!).toBeLessThan(1_994n * UNIT)
    const [, fb] = await quoteOut(world.chain, world.dex.fallbackRouter, 1n * UNIT, path)
    expect(fb).toBe(await expected(world.dex.fallbackRouter))
    expect(fb!).toBeLessThan(out!) // shallower pool, more impact

    await world.setRouterPaused('primary', true)
    await expect(quoteOut(world.chain, world.dex.primaryRouter, 1n * UNIT, path)).rejects.toMatchObject({ code: 351 })
    await world.setRouterPaused('primary', false)
    expect((await quoteOut(world.chain, world.dex.primaryRouter, 1n * UNIT, path))[1]).toBe(out)
  })

  it('funds the rebalance vault at its targets and the service vault with deposits', async () => {
    const drift = await read<{ total_value: bigint; max_drift_bps: number }>(world.chain, world.rebalanceVault, 'get_drift')
    expect(drift.total_value).toBeGreaterThan(90_000n * UNIT)
    const state = await read<{ total_usdc: bigint; total_shares: bigint }>(world.chain, world.service!.vault, 'get_state')
    expect(state.total_usdc).toBe(300_000n * UNIT)
    expect(state.total_shares).toBe(300_000n * UNIT)
  })

  it('deploys the service with the new configuration fields, venues and keepers bonded for the largest draw', async () => {
    const { vault, registry } = world.service!
    const config = toVaultConfig(await read(world.chain, vault, 'get_config'))
    expect(config).toEqual({ depositCap: 100_000_000n * UNIT, withdrawCooldown: 0, maxDrawPerKeeper: 1_000_000n * UNIT, keeperFeeBps: 1_000, profitUnlockSecs: 3_600 })
    const registryConfig = toRegistryConfig(await read(world.chain, registry, 'get_config'))
    expect(registryConfig).toMatchObject({ minStake: 1_000n * UNIT, slashRateBps: 1_000, usdcToken: world.usdc.contract })
    expect(registryConfig.executorWasm).toBe(wasmHashOf(loadWasm('own', 'executor')))
    expect(await read(world.chain, registry, 'get_venues')).toEqual([world.blend.pool, world.dex.primaryRouter, world.dex.fallbackRouter])

    expect(await read(world.chain, registry, 'keeper_count')).toBe(world.keepers.length)
    const keepers = await new RegistryContract(world.chain, registry).getKeepers()
    expect(keepers.map((k) => k.operator).sort()).toEqual(world.keepers.map((k) => k.publicKey()).sort())
    // ceil(1M × 10000 / 9000) USDC staked: min_stake plus the bond, a draw limit of at least 1M.
    const bond = bondForDraw(1_000_000n * UNIT, { minStake: 1_000n * UNIT, slashTimeout: 3_600n, slashRateBps: 1_000 })
    expect(bond).toBe(1_111_111_1111112n - 1_000n * UNIT)
    for (const k of keepers) {
      expect(k).toMatchObject({ stake: 1_000n * UNIT + bond, approved: false, slashed: false })
      expect(k.drawLimit).toBeGreaterThanOrEqual(1_000_000n * UNIT)
      expect(k.drawLimit).toBe(((1_000n * UNIT + bond) * 9_000n) / 10_000n)
      // Each keeper keeps its 10k less min_stake: the bond was minted on top.
      expect(await world.balance('USDC', k.operator)).toBe(10_000n * UNIT - 1_000n * UNIT)
    }
  })

  it('writes the addresses file the keeper and dashboard read', () => {
    expect(existsSync(addressesFile)).toBe(true)
    const file = JSON.parse(readFileSync(addressesFile, 'utf8')) as WorldAddresses
    expect(file.blend.pool).toBe(world.blend.pool)
    expect(file.env.LENDING_POOL).toBe(world.blend.pool)
    expect(file.env.LENDING_POOLS).toBeUndefined()
    expect(file.blend.pools).toEqual([world.blend.pool])
    expect(world.blend.pools).toEqual([world.blend.pool])
    expect(world.borrowers.every((b) => b.pool === world.blend.pool)).toBe(true)
    expect(file.env.USDC_CONTRACT).toBe(world.usdc.contract)
    expect(file.env.VAULT_CONTRACT).toBe(world.service!.vault)
    expect(file.accounts.borrowers).toEqual(world.borrowers.map((b) => b.address))
    expect(file.assets.collateral.map((c) => c.code)).toEqual(['WETH', 'WBTC'])
    // no Comet pools unless a collateral asks for one (cometDepthUsd); no intermediate pairs
    expect(file.dex.comets).toEqual([])
    expect(file.env.COMET_POOLS).toBe('')
    expect(file.dex.pairs.every((p) => p.tokenA === world.usdc.contract)).toBe(true)
  })

  it('lists the pool and both routers as the registry venues, nothing else by default', async () => {
    expect(await new RegistryContract(world.chain, world.service!.registry).getVenues()).toEqual([world.blend.pool, world.dex.primaryRouter, world.dex.fallbackRouter])
  })

  it('is the same world for the same seed: two seeded nodes give equal addresses, accounts and positions', async () => {
    // A seeded node in manual + instant mode closes exactly one ledger per transaction on a
    // virtual clock, so interest accrues identically on both; on wall-clock nodes the borrowed
    // d-tokens would differ by the accrual of a few seconds.
    const nodes = await Promise.all([0, 1].map(() => startSandbox({ port: 0, manual: true, instant: true, seed: 11 })))
    try {
      const [a, b] = await Promise.all(nodes.map((n) => deployWorld(n, { seed: 11, borrowers: 4 })))
      // Everything but where the network is: the RPC URL differs between the two nodes.
      const strip = (w: WorldAddresses) => ({ ...w, network: undefined, env: { ...w.env, CONTRACT_RPC: undefined } })
      expect(strip(b!.addresses)).toEqual(strip(a!.addresses))
      // The seed fixes the same accounts as on the wall-clock node of the other tests.
      expect(a!.addresses.accounts).toEqual(world.addresses.accounts)
      for (const [i, borrower] of b!.borrowers.entries()) {
        expect([borrower.collateral, borrower.borrowed]).toEqual([a!.borrowers[i]!.collateral, a!.borrowers[i]!.borrowed])
        expect(await b!.positions(borrower.address)).toEqual(await a!.positions(borrower.address))
      }
    } finally {
      await Promise.all(nodes.map((n) => n.stop()))
    }
  }, 240_000)

  it('rejects a bad price with a clear error and keeps the old one', async () => {
    const before = world.price('WBTC')
    await expect(world.setPrice('WBTC', 0n)).rejects.toThrow(/positive/)
    await expect(world.setPrice('NOPE', 1n)).rejects.toThrow(/unknown asset/)
    expect(world.price('WBTC')).toBe(before)
  })
})

describe('deployWorld with two pools', () => {
  let sandbox: Sandbox
  let world: World

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, ledgerIntervalSeconds: 0.25 })
    world = await deployWorld(sandbox, { seed: 12, borrowers: 4, pools: 2 })
  }, 240_000)

  afterAll(async () => {
    await sandbox?.stop()
  })

  it('refuses a pool count outside 1..4 before touching the network', async () => {
    for (const pools of [0, 5, 1.5]) await expect(deployWorld(sandbox, { seed: 12, pools })).rejects.toThrow(RangeError)
  })

  it('opens two active pools from the same factory, oracle and reserves, each with its backstop and lender supply', async () => {
    const [first, second] = world.blend.pools
    expect(world.blend.pools).toHaveLength(2)
    expect(first).toBe(world.blend.pool)
    expect(second).not.toBe(first)
    for (const pool of world.blend.pools) {
      const config = await read<{ status: number; oracle: string }>(world.chain, pool, 'get_config')
      expect(Number(config.status)).toBe(POOL_STATUS.active)
      expect(config.oracle).toBe(world.oracle)
      expect(await read<string[]>(world.chain, pool, 'get_reserve_list')).toEqual(world.blend.reserves)
      const usdcReserve = await read<Reserve>(world.chain, pool, 'get_reserve', [addr(world.usdc.contract)])
      expect(usdcReserve.data.b_supply).toBeGreaterThan(0n)
      expect(usdcReserve.data.d_supply).toBeGreaterThan(0n)
      const lender = await world.positions(world.lender.publicKey(), pool)
      expect(lender.supply.get(0)).toBeGreaterThan(0n)
      const backstop = await read<{ shares: bigint }>(world.chain, world.blend.backstop, 'user_balance', [addr(pool), addr(world.admin.publicKey())])
      expect(backstop.shares).toBe(50_000n * UNIT)
    }
  })

  it('splits the borrowers between the pools, borrower i in pool i % 2, each position in its own pool only', async () => {
    expect(world.borrowers.map((b) => b.pool)).toEqual([0, 1, 2, 3].map((i) => world.blend.pools[i % 2]))
    for (const b of world.borrowers) {
      const own = await world.positions(b.address)
      expect(own).toEqual(await world.positions(b.address, b.pool))
      expect(own.collateral.get(world.blend.reserves.indexOf(b.collateralAsset.contract))).toBe(b.collateral)
      expect(own.liabilities.get(0)).toBeGreaterThan(0n)
      const other = world.blend.pools.find((p) => p !== b.pool)!
      const elsewhere = await world.positions(b.address, other)
      expect(elsewhere.collateral.size + elsewhere.liabilities.size).toBe(0)
    }
  })

  it('names both pools in the keeper env (LENDING_POOLS), the addresses and the registry venues', async () => {
    const { env, blend } = world.addresses
    expect(env.LENDING_POOLS).toBe(world.blend.pools.join(','))
    expect(env.LENDING_POOL).toBeUndefined()
    expect(blend.pools).toEqual(world.blend.pools)
    expect(blend.pool).toBe(world.blend.pools[0])
    expect(await new RegistryContract(world.chain, world.service!.registry).getVenues()).toEqual([...world.blend.pools, world.dex.primaryRouter, world.dex.fallbackRouter])
  })
})
