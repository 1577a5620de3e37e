/**
 * The executor contract end to end on the sandbox with the real Blend v2 pool (src/world): the
 * registry deploys it, and one transaction (the vault's flash draw) lends to it, has it fill a
 * user-liquidation auction through Blend's `submit_with_allowance`, sell the seized WETH on the
 * primary router and hand all the USDC back, and pays the keeper its fee; a transaction whose
 * proceeds are below `min_proceeds` reverts and leaves every entry as it was. The atomic
 * transaction's resources are measured against the public testnet's per-transaction limits
 * (contracts/README.md, executor section, has the figures).
 */
import { Address, Operation, TransactionBuilder, rpc, xdr, type Keypair } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../../sandbox/ts/launch.js'
import { ContractError, addr, contractErrorCodeInEvents, i128 } from '../../chain/index.js'
import { mulDiv, SCALAR_12 } from '../../core/index.js'
import { deployExecutor, quoteOut, type World, deployWorld } from '../../world/index.js'
import { minProfitScaled, planFill, type FillPlan } from '../adapters/blend/auctionPlan.js'
import { loadAuction, type Reserve } from '../adapters/blend/loadPool.js'
import { RequestType, fillRequests, type Request } from '../adapters/blend/requests.js'
import { AuctionType, auctionKey, instanceKey, type AuctionData } from '../adapters/blend/storage.js'
import { ExecutorContract, ExecutorErrorCode, encodeFlashCall, type ExecutorLiquidation, type ExecutorSwap } from './executor.js'
import { RegistryContract, RegistryErrorCode } from './registry.js'
import { tokenBalance } from './token.js'
import { VaultContract } from './vault.js'
import { openAuction as openAuctionOf, valuation as valuationOf } from '../../../test/keeper/auctionSetup.js'

const UNIT = 10_000_000n

/** The public testnet's per-transaction limits at protocol 28 (../shared/reference/testnet-network-config.p28.json). */
const TESTNET_TX_LIMITS = {
  instructions: 100_000_000,
  diskReadEntries: 100,
  footprintEntries: 100,
  diskReadBytes: 200_000,
  writeEntries: 50,
  writeBytes: 132_096,
  eventsBytes: 16_384,
  txBytes: 132_096,
} as const

describe('executor contract end to end (sandbox, real Blend v2)', () => {
  let sandbox: Sandbox
  let world: World
  let vault: VaultContract
  let registry: RegistryContract
  let keeper: Keypair
  let executor: ExecutorContract

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, ledgerIntervalSeconds: 1 })
    world = await deployWorld(sandbox, { seed: 41, borrowers: 4, keepers: 1 })
    vault = new VaultContract(world.chain, world.service!.vault)
    registry = new RegistryContract(world.chain, world.service!.registry)
    keeper = world.keepers[0]!
    executor = await deployExecutor(world, keeper, { name: 'atomic-keeper' })
    // WETH loses 12 %: the WETH borrowers (0 and 2, opened at HF 1.04-1.10) fall below 1.
    await world.setPrice('WETH', (world.price('WETH') * 88n) / 100n)
  })

  afterAll(async () => {
    await sandbox?.stop()
  })

  const weth = () => world.asset('WETH').contract
  const usdc = () => world.usdc.contract

  const valuation = (users: string[]) => valuationOf(sandbox.server, world, users)
  const openAuction = (user: string) => openAuctionOf(sandbox.server, world, keeper, user)

  /**
   * The first profitable ledger of the auction (MIN_PROFIT 1.02), the request list for a full
   * fill of it, the draw (= the USDC repay of the bid) and a WETH -> USDC sale on the primary
   * router with a 1 % floor under its quote for the planned lot.
   */
  async function planLiquidation(user: string, auction: AuctionData, fromBlock?: number): Promise<{ fill: FillPlan; l: ExecutorLiquidation }> {
    const { reserves, prices, latest } = await valuation([])
    const fill = planFill({ auction, reserves, prices: prices.prices, minProfit: minProfitScaled(1.02), fromBlock: fromBlock ?? latest + 1 })
    expect(fill).not.toBeNull()
    const rates = (k: 'b_rate' | 'd_rate') => Object.fromEntries([...reserves].map(([a, r]: [string, Reserve]) => [a, r.data[k]]))
    const requests: Request[] = fillRequests({
      auctionType: AuctionType.UserLiquidation,
      user,
      percent: 100,
      bid: fill!.bid,
      lot: fill!.lot,
      dRates: rates('d_rate'),
      bRates: rates('b_rate'),
    })
    const repay = requests.filter((r) => r.request_type === RequestType.Repay)
    expect(repay.map((r) => r.address)).toEqual([usdc()])
    const draw = repay[0]!.amount
    const seized = mulDiv(fill!.lot[weth()] ?? 0n, reserves.get(weth())!.data.b_rate, SCALAR_12, 'floor')
    expect(seized).toBeGreaterThan(0n)
    const quote = (await quoteOut(world.chain, world.dex.primaryRouter, seized, [weth(), usdc()])).at(-1)!
    const swaps: ExecutorSwap[] = [{ venue: { kind: 'router', router: world.dex.primaryRouter }, path: [weth(), usdc()], amountIn: 0n, minOut: (quote * 99n) / 100n }]
    return { fill: fill!, l: { pool: world.blend.pool, draw, requests, swaps, minProceeds: draw, responseTimeMs: 5_000 } }
  }

  /** Closes ledgers until the next transaction lands in `block` (or later). */
  async function forwardTo(block: number): Promise<void> {
    const latest = (await sandbox.server.getLatestLedger()).sequence
    if (latest < block - 1) await sandbox.closeLedgers(block - 1 - latest)
  }

  async function simulate(l: ExecutorLiquidation) {
    const account = await sandbox.server.getAccount(keeper.publicKey())
    const tx = new TransactionBuilder(account, { fee: '100', networkPassphrase: world.chain.networkPassphrase })
      .addOperation(executor.liquidateOperation(l))
      .setTimeout(60)
      .build()
    // The owner's authorization is required by the executor's on_flash, below the root call.
    return { tx, sim: await sandbox.server.simulateTransaction(tx, undefined, 'record_allow_nonroot') }
  }

  /**
   * Simulates the atomic flash draw and reads its resources (what the network checks against
   * its per-transaction limits), asserting each is within the testnet's limit. Disk reads are the
   * classic entries of the footprint plus archived entries to restore (protocol 23+: live
   * Soroban state is not a disk read).
   */
  async function measure(l: ExecutorLiquidation) {
    const { tx, sim } = await simulate(l)
    if (!rpc.Api.isSimulationSuccess(sim)) throw new Error(`simulation failed: ${JSON.stringify(sim)}`)
    const data = sim.transactionData.build()
    const res = data.resources
    const footprint = res.footprint
    const keys = [...footprint.readOnly, ...footprint.readWrite]
    const classic = keys.filter((k) => k.type !== 'contractData' && k.type !== 'contractCode')
    const archived = data.ext.type === 'resourceExt' ? data.ext.resourceExt.archivedSorobanEntries.length : 0
    const assembled = rpc.assembleTransaction(tx, sim).build()
    assembled.sign(keeper)
    const measured = {
      instructions: res.instructions,
      footprintEntries: keys.length,
      diskReadEntries: classic.length + archived,
      diskReadBytes: res.diskReadBytes,
      writeEntries: footprint.readWrite.length,
      writeBytes: res.writeBytes,
      txBytes: assembled.toEnvelope().toXdr().length,
      minResourceFee: BigInt(sim.minResourceFee),
    }
    for (const k of ['instructions', 'footprintEntries', 'diskReadEntries', 'diskReadBytes', 'writeEntries', 'writeBytes', 'txBytes'] as const) {
      expect(measured[k], k).toBeLessThanOrEqual(TESTNET_TX_LIMITS[k])
    }
    return { ...measured, sim }
  }

  function report(what: string, m: Awaited<ReturnType<typeof measure>>, events?: { eventsBytes: number; events: number }) {
    const f = (k: keyof typeof TESTNET_TX_LIMITS, v: number) => `${k} ${v.toLocaleString('en-US')}/${TESTNET_TX_LIMITS[k].toLocaleString('en-US')}`
    const parts = [
      f('instructions', m.instructions),
      f('footprintEntries', m.footprintEntries),
      f('diskReadEntries', m.diskReadEntries),
      f('diskReadBytes', m.diskReadBytes),
      f('writeEntries', m.writeEntries),
      f('writeBytes', m.writeBytes),
      ...(events === undefined ? [] : [`${f('eventsBytes', events.eventsBytes)} (${events.events} events)`]),
      f('txBytes', m.txBytes),
      `minResourceFee ${m.minResourceFee.toLocaleString('en-US')} stroops`,
    ]
    console.log(`[executor] atomic flash draw, ${what}: ${parts.join(', ')}`)
  }

  /** Raw ledger entries (base64 XDR and last-modified ledger) keyed by their key. */
  async function entries(keys: xdr.LedgerKey[]): Promise<Map<string, string>> {
    const res = await sandbox.server.getLedgerEntries(...keys)
    return new Map(res.entries.map((e) => [e.key.toXdr('base64'), `${e.lastModifiedLedgerSeq}:${e.val.toXdr('base64')}`]))
  }

  function persistentKey(contract: string, name: string, who: string): xdr.LedgerKey {
    return xdr.LedgerKey.contractData(
      new xdr.LedgerKeyContractData({
        contract: new Address(contract).toScAddress(),
        key: xdr.ScVal.scvVec([xdr.ScVal.scvSymbol(name), addr(who)]),
        durability: xdr.ContractDataDurability.persistent,
      }),
    )
  }

  it('the registry deploys the executor, which registers as an approved keeper with the owner’s stake', async () => {
    const info = await registry.getKeeper(executor.contractId)
    const config = await registry.getConfig()
    expect(info.operator).toBe(executor.contractId)
    expect(info.name).toBe('atomic-keeper')
    expect(info.stake).toBe(config.minStake)
    expect(info.approved).toBe(true)
    expect(info.drawLimit).toBe((config.minStake * BigInt(10_000 - config.slashRateBps)) / 10_000n)
    expect(await registry.isExecutor(executor.contractId)).toBe(true)
    expect(await executor.owner()).toBe(keeper.publicKey())
    expect(await executor.vault()).toBe(world.service!.vault)
    expect(await executor.usdc()).toBe(usdc())
    expect(await executor.registry()).toBe(world.service!.registry)
    expect(await tokenBalance(world.chain, usdc(), executor.contractId)).toBe(0n)
    // the pool and the router are venues the executor may use
    expect(await registry.getVenues()).toEqual(expect.arrayContaining([world.blend.pool, world.dex.primaryRouter]))
  })

  it('liquidates atomically: flash draw, Blend fill, WETH -> USDC, repayment and the keeper fee in one transaction, within the testnet limits', async () => {
    const borrower = world.borrowers[0]!
    expect(borrower.collateralAsset.contract).toBe(weth())
    const auction = await openAuction(borrower.address)
    // plan once to learn the first profitable ledger, forward to just before it, plan again
    // with the rates of that ledger
    const first = (await planLiquidation(borrower.address, auction)).fill.block
    await forwardTo(first)
    const { fill, l } = await planLiquidation(borrower.address, auction, first)
    expect(fill.block).toBe(first)

    // resources of the atomic transaction, from its simulation
    const measured = await measure(l)

    const before = await vault.getState()
    const feeBps = BigInt((await vault.getConfig()).keeperFeeBps)
    const sent = await executor.liquidate(l, keeper)
    expect(sent.ledger).toBeGreaterThanOrEqual(fill.block)
    expect(sent.profit).toBeGreaterThan(0n)
    // the keeper's fee: keeper_fee_bps of the gross profit, paid to the executor
    expect(feeBps).toBeGreaterThan(0n)
    expect(sent.fee).toBe(((sent.profit + sent.fee) * feeBps) / 10_000n)
    expect(sent.fee).toBeGreaterThan(0n)

    // events + return value of the landed transaction (what the events limit counts)
    const landed = await sandbox.server.getTransaction(sent.hash)
    if (landed.status !== rpc.Api.GetTransactionStatus.SUCCESS) throw new Error(`transaction ${sent.hash}: ${landed.status}`)
    const meta = xdr.expectUnionVariant(landed.resultMetaXdr, 'v4').v4
    const events = meta.operations.flatMap((op) => op.events)
    const eventsBytes = events.reduce((s, e) => s + e.toXdr().length, 0) + (landed.returnValue?.toXdr().length ?? 0)

    report('first liquidation by this executor', measured, { eventsBytes, events: events.length })
    expect(eventsBytes).toBeLessThanOrEqual(TESTNET_TX_LIMITS.eventsBytes)

    // the vault booked the profit and nothing is outstanding
    const after = await vault.getState()
    expect(after.totalUsdc - before.totalUsdc).toBe(sent.profit)
    expect(after.totalProfit - before.totalProfit).toBe(sent.profit)
    expect(after.totalShares).toBe(before.totalShares)
    expect(after.activeLiq).toBe(0n)
    expect(await vault.getKeeperDraw(executor.contractId)).toBe(0n)
    const info = await registry.getKeeper(executor.contractId)
    expect(info.totalExecutions).toBe(1)
    expect(info.successfulFills).toBe(1)
    expect(info.totalProfit).toBe(sent.profit)
    expect(info.hasActiveDraw).toBe(false)
    // the executor keeps only its fee; the auction is gone; the borrower's debt went down
    expect(await tokenBalance(world.chain, usdc(), executor.contractId)).toBe(sent.fee)
    expect(await tokenBalance(world.chain, weth(), executor.contractId)).toBe(0n)
    expect(await loadAuction(sandbox.server, world.blend.pool, AuctionType.UserLiquidation, borrower.address)).toBeUndefined()
    const positions = await world.positions(borrower.address)
    expect(positions.liabilities.get(0) ?? 0n).toBeLessThan(borrower.borrowed)
    const executorPositions = await world.positions(executor.contractId)
    expect(executorPositions.liabilities.size + executorPositions.collateral.size).toBe(0)
  })

  it('min_proceeds too high: the simulation refuses it and a sent transaction reverts, leaving every entry byte-identical', async () => {
    const borrower = world.borrowers[2]!
    expect(borrower.collateralAsset.contract).toBe(weth())
    const auction = await openAuction(borrower.address)
    const first = (await planLiquidation(borrower.address, auction)).fill.block
    await forwardTo(first)
    const { l: good } = await planLiquidation(borrower.address, auction, first)
    const bad: ExecutorLiquidation = { ...good, minProceeds: good.draw * 10n }

    // A flash draw leaves no draw record: the vault's and the registry's instances, the
    // executor's keeper record and the auction are what it would change.
    const watched = [
      instanceKey(world.service!.vault),
      instanceKey(world.service!.registry),
      persistentKey(world.service!.registry, 'pos', executor.contractId),
      auctionKey(world.blend.pool, AuctionType.UserLiquidation, borrower.address),
    ]
    const before = await entries(watched)
    expect(before.size).toBe(watched.length)
    const state = await vault.getState()
    const record = await registry.getKeeper(executor.contractId)
    const balances = async () =>
      Promise.all([usdc(), weth()].flatMap((t) => [executor.contractId, world.service!.vault, keeper.publicKey()].map((h) => tokenBalance(world.chain, t, h))))
    const held = await balances()

    // 1. the client: simulation fails with the executor's error, nothing is sent
    const err = await executor.liquidate(bad, keeper).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ContractError)
    expect((err as ContractError).code).toBe(ExecutorErrorCode.ProceedsBelowMinimum)

    // 2. on chain: the same call sent with the resources of the passing one lands and fails.
    // The passing one is a repeat liquidation by this executor (its entries exist by now).
    const repeat = await measure(good)
    report('repeat by the same executor (simulated)', repeat)
    const sim = repeat.sim
    const account = await sandbox.server.getAccount(keeper.publicKey())
    const op = xdr.expectUnionVariant(executor.liquidateOperation(bad).body, 'invokeHostFunction').invokeHostFunctionOp
    // The owner's authorization is for the executor's on_flash(amount, call), which the vault
    // calls: an entry rooted at that nested call, with the source account's credentials.
    const auth = new xdr.SorobanAuthorizationEntry({
      credentials: xdr.SorobanCredentials.sorobanCredentialsSourceAccount(),
      rootInvocation: new xdr.SorobanAuthorizedInvocation({
        function: xdr.SorobanAuthorizedFunction.sorobanAuthorizedFunctionTypeContractFn(
          new xdr.InvokeContractArgs({ contractAddress: new Address(executor.contractId).toScAddress(), functionName: 'on_flash', args: [i128(bad.draw), encodeFlashCall(bad)] }),
        ),
        subInvocations: [],
      }),
    })
    const resourceFee = BigInt(sim.minResourceFee) * 2n
    const tx = new TransactionBuilder(account, { fee: (resourceFee + 100n).toString(), networkPassphrase: world.chain.networkPassphrase })
      .addOperation(Operation.invokeHostFunction({ func: op.hostFunction, auth: [auth] }))
      .setSorobanData(sim.transactionData.setResourceFee(resourceFee).build())
      .setTimeout(60)
      .build()
    tx.sign(keeper)
    const sent = await sandbox.server.sendTransaction(tx)
    expect(sent.status).toBe('PENDING')
    let landed = await sandbox.server.getTransaction(sent.hash)
    for (let i = 0; i < 60 && landed.status === rpc.Api.GetTransactionStatus.NOT_FOUND; i++) {
      await new Promise((r) => setTimeout(r, 250))
      landed = await sandbox.server.getTransaction(sent.hash)
    }
    expect(landed.status).toBe(rpc.Api.GetTransactionStatus.FAILED)
    if (landed.status !== rpc.Api.GetTransactionStatus.FAILED) return
    const diagnostics = [...(landed.diagnosticEventsXdr ?? []), ...(xdr.expectUnionVariant(landed.resultMetaXdr, 'v4').v4.diagnosticEvents ?? [])]
    expect(contractErrorCodeInEvents(diagnostics)).toBe(ExecutorErrorCode.ProceedsBelowMinimum)

    // nothing moved: vault books and draw record, registry record, the auction, the balances
    expect(await entries(watched)).toEqual(before)
    expect(await vault.getState()).toEqual(state)
    expect(await registry.getKeeper(executor.contractId)).toEqual(record)
    expect(await vault.getKeeperDraw(executor.contractId)).toBe(0n)
    expect(await balances()).toEqual(held)
  })

  it('two-step proxy: the vault client draws to the owner and takes the return from the owner; the closing return pays the executor its fee', async () => {
    const vc = executor.vaultClient(keeper)
    const owned = await tokenBalance(world.chain, usdc(), keeper.publicKey())
    const held = await tokenBalance(world.chain, usdc(), executor.contractId)
    const before = await vault.getState()
    const feeBps = BigInt((await vault.getConfig()).keeperFeeBps)
    await vc.draw(250n * UNIT)
    expect(await vault.getKeeperDraw(executor.contractId)).toBe(250n * UNIT)
    expect(await tokenBalance(world.chain, usdc(), keeper.publicKey())).toBe(owned + 250n * UNIT)
    expect(await tokenBalance(world.chain, usdc(), executor.contractId)).toBe(held)
    // 1 USDC gross: keeper_fee_bps of it to the executor, the rest booked
    const fee = (1n * UNIT * feeBps) / 10_000n
    const settled = await vc.returnProceedsWithFee!(251n * UNIT, 1_000)
    expect(settled).toEqual({ profit: 1n * UNIT - fee, fee })
    expect(await vault.getKeeperDraw(executor.contractId)).toBe(0n)
    expect(await tokenBalance(world.chain, usdc(), keeper.publicKey())).toBe(owned - 1n * UNIT)
    expect(await tokenBalance(world.chain, usdc(), executor.contractId)).toBe(held + fee)
    const after = await vault.getState()
    expect(after.totalUsdc - before.totalUsdc).toBe(1n * UNIT - fee)
    expect(after.activeLiq).toBe(0n)
  })

  it('two-step draws above the registry bond limit are refused (BondTooSmall); add_bond raises the limit', async () => {
    const vc = executor.vaultClient(keeper)
    const info = await registry.getKeeper(executor.contractId)
    const err = await vc.draw(info.drawLimit + 1n).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ContractError)
    expect((err as ContractError).code).toBe(RegistryErrorCode.BondTooSmall)
    expect(await vault.getKeeperDraw(executor.contractId)).toBe(0n)
    const config = await registry.getConfig()
    await executor.addBond(keeper, world.service!.registry, 100n * UNIT)
    const bonded = await registry.getKeeper(executor.contractId)
    expect(bonded.stake).toBe(info.stake + 100n * UNIT)
    expect(bonded.drawLimit).toBe((bonded.stake * BigInt(10_000 - config.slashRateBps)) / 10_000n)
    await vc.draw(info.drawLimit + 1n)
    expect(await vault.getKeeperDraw(executor.contractId)).toBe(info.drawLimit + 1n)
    await vc.returnProceeds(info.drawLimit + 1n, 0)
    await executor.withdrawBond(keeper, world.service!.registry, 100n * UNIT)
    expect((await registry.getKeeper(executor.contractId)).stake).toBe(info.stake)
  })
})
