/**
 * The fee strategy on a keeper's fills, end to end on a sandbox world with the real Blend v2 pool:
 * a keeper on the atomic path with `FEE_STRATEGY=fixed` and `INCLUSION_FEE=1000` sends its fill
 * bidding 1000; a keeper on the two-step path with `FEE_STRATEGY=profit:BPS` bids its share of
 * the fill's expected profit in XLM at the pool oracle's XLM price (the pool has no XLM reserve:
 * the oracle's `lastprice`). Each execution on /api/state carries the fill's fee, and /metrics
 * the fees paid and the inclusion delay.
 */
import { Asset, TransactionBuilder, type Transaction } from '@stellar/stellar-sdk'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../../sandbox/ts/launch.js'
import { i128, inclusionFeeOf, invoke } from '../../chain/index.js'
import { deployExecutor, deployWorld, type World } from '../../world/index.js'
import { vec } from '../../world/scval.js'
import { parseConfig } from '../config/index.js'
import { startDaemon, type Daemon } from '../daemon.js'
import type { ExecutionView } from '../engine/index.js'
import { worldKeeperEnv } from '../../../test/keeper/worldKeeperEnv.js'
import { until } from '../../../test/until.js'

const UNIT = 10_000_000n
// The planned executions on /api/state are served only with the keeper's API token.
const API_TOKEN = 'fill-fee-api-token-0123456789'

describe('fills bid by the fee strategy (sandbox, real Blend v2)', () => {
  let sandbox: Sandbox
  let world: World
  let daemon: Daemon | undefined
  // The oracle's assets in its order, XLM added: [USDC, ...collaterals, XLM].
  let oracleAssets: string[]
  const prices = new Map<string, bigint>()
  const XLM_PRICE = 1000000n // 0.10 USD

  /** Publishes every price of the world's mock oracle (XLM included), with `changes` applied. */
  async function publish(changes: Record<string, bigint> = {}): Promise<void> {
    for (const [a, p] of Object.entries(changes)) prices.set(a, p)
    await invoke(world.chain, world.admin, world.oracle, 'set_price_stable', [vec(oracleAssets.map((a) => i128(prices.get(a)!)))])
  }

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, ledgerIntervalSeconds: 0.5 })
    // The oracle prices XLM too (after the collaterals): the pool has no XLM reserve.
    world = await deployWorld(sandbox, { seed: 59, borrowers: 2, keepers: 2, registerKeepers: false, oracleXlmPrice: XLM_PRICE })
    const xlm = Asset.native().contractId(world.network.networkPassphrase)
    oracleAssets = [world.usdc.contract, ...world.collaterals.map((c) => c.contract), xlm]
    for (const a of oracleAssets.slice(0, -1)) prices.set(a, world.price(a))
    prices.set(xlm, XLM_PRICE)
  }, 300_000)

  afterAll(async () => {
    await daemon?.stop()
    await sandbox?.stop()
  })

  /** Drops `collateral` 20 %, lets the keeper plan and fill its borrower, and returns the finished execution. */
  async function liquidate(d: Daemon, collateral: string, borrower: string): Promise<ExecutionView> {
    await publish({ [collateral]: (prices.get(collateral)! * 80n) / 100n })
    const planned = await until('the auction planned', () => d.state.executions.find((e) => e.label === borrower && e.stage === 'planned'), 90_000)
    const latest = (await sandbox.server.getLatestLedger()).sequence
    if (planned.targetLedger - 5 > latest) await sandbox.closeLedgers(planned.targetLedger - 5 - latest)
    return until(
      'the execution finished',
      () => d.state.executions.find((e) => e.label === borrower && ['returned', 'lost', 'abandoned'].includes(e.stage)),
      120_000,
    )
  }

  /** The fill transaction's inclusion fee per operation, as it went on chain. */
  async function onChainBid(hash: string): Promise<{ bid: bigint; feeCharged: bigint; ledger: number }> {
    const res = await sandbox.server.getTransaction(hash)
    if (res.status !== 'SUCCESS') throw new Error(`fill ${hash}: ${res.status}`)
    const tx = TransactionBuilder.fromXdr(res.envelopeXdr.toXdr('base64'), world.network.networkPassphrase) as Transaction
    return { bid: inclusionFeeOf(tx) / BigInt(tx.operations.length), feeCharged: BigInt(res.resultXdr.feeCharged.toString()), ledger: res.ledger }
  }

  async function metric(d: Daemon, name: string, sub = name): Promise<number | undefined> {
    const m = (await d.metrics.registry.getMetricsAsJSON()).find((x) => x.name === name)
    return (m?.values as Array<{ value: number; metricName?: string }> | undefined)?.find((v) => (v.metricName ?? name) === sub)?.value
  }

  it('fixed, INCLUSION_FEE=1000: the atomic fill bids 1000; its fee is on /api/state and /metrics', { timeout: 300_000 }, async () => {
    const keeper = world.keepers[0]!
    const executor = await deployExecutor(world, keeper, { register: false })
    daemon = await startDaemon(
      parseConfig(worldKeeperEnv(world, keeper, 'fees-fixed', {
        EXECUTOR_CONTRACT: executor.contractId,
        REBALANCE_VAULT: '',
        INCLUSION_FEE: '1000',
        FEE_STRATEGY: 'fixed',
        API_TOKEN,
      })),
      { logger: pino({ level: 'silent' }), stopGraceMs: 5_000 },
    )
    const borrower = world.borrowers[0]!
    const done = await liquidate(daemon, borrower.collateralAsset.contract, borrower.address)
    expect(done.stage, done.note ?? '').toBe('returned')
    expect(done.path).toBe('atomic')
    const fee = done.result!.fee!
    const chain = await onChainBid(done.result!.txHash!)
    expect(chain.bid).toBe(1000n)
    expect(fee).toEqual({ bidStroops: 1000, chargedStroops: chain.feeCharged, bumped: false, sentLedger: expect.any(Number), includedLedger: chain.ledger })
    expect(fee.includedLedger - fee.sentLedger!).toBeGreaterThanOrEqual(1)

    const auth = { authorization: `Bearer ${API_TOKEN}` }
    const state = (await daemon.app.inject({ method: 'GET', url: '/api/state', headers: auth })).json() as { executions: Array<{ label: string; fee: unknown }> }
    expect(state.executions.find((e) => e.label === borrower.address)?.fee).toEqual({
      bidStroops: 1000,
      chargedStroops: chain.feeCharged.toString(),
      bumped: false,
      sentLedger: fee.sentLedger,
      includedLedger: chain.ledger,
    })
    expect(await metric(daemon, 'service_fees_paid_xlm_total')).toBeCloseTo(Number(chain.feeCharged) / 1e7, 9)
    expect(await metric(daemon, 'service_inclusion_delay_ledgers', 'service_inclusion_delay_ledgers_count')).toBe(1)
    expect(await metric(daemon, 'service_fee_bumps_total')).toBe(0)
    await daemon.stop()
    daemon = undefined
  })

  it('profit:BPS: the two-step fill bids its share of the expected profit in XLM, above the minimum', { timeout: 300_000 }, async () => {
    const keeper = world.keepers[1]!
    const bps = 1
    // A large fill: 1 bp of its profit is a few XLM; MAX_FEE at 10 XLM leaves it uncapped.
    const env = { REBALANCE_VAULT: '', FEE_STRATEGY: `profit:${bps}`, MAX_FEE: '100000000' }
    daemon = await startDaemon(parseConfig(worldKeeperEnv(world, keeper, 'fees-profit', env)), {
      logger: pino({ level: 'silent' }),
      stopGraceMs: 5_000,
    })
    const borrower = world.borrowers[1]!
    const done = await liquidate(daemon, borrower.collateralAsset.contract, borrower.address)
    expect(done.stage, done.note ?? '').toBe('returned')
    expect(done.path).toBe('two-step')
    const fee = done.result!.fee!
    const chain = await onChainBid(done.result!.txHash!)
    expect(BigInt(fee.bidStroops)).toBe(chain.bid)
    expect(fee.bidStroops).toBeGreaterThan(100)
    expect(fee.bidStroops, `profit ${done.result!.profit}`).toBeLessThan(100_000_000)
    // The bid is the share of the expected profit, at 0.10 USDC per XLM: close to that of the
    // profit the vault booked (what the sale paid, measured after the fill).
    const fromBooked = Number((done.result!.profit * BigInt(bps) * 1000n) / XLM_PRICE)
    expect(done.result!.profit).toBeGreaterThan(UNIT / 100n)
    expect(Math.abs(fee.bidStroops - fromBooked) / fromBooked).toBeLessThan(0.25)
    expect(await metric(daemon, 'service_fee_bid_stroops')).toBeGreaterThanOrEqual(100)
  })
})
