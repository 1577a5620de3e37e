/**
 * The keeper's fee bump against the sandbox's replace-by-fee (a manual node): the Soroban phase
 * holds two transactions' worth (a fee bump counts two) and two other accounts outbid the
 * keeper's transaction every ledger. After FEE_BUMP_LEDGERS ledgers without inclusion the keeper
 * fee-bumps it once, at ten times its bid; the bump outbids the competition and lands. The
 * submission result and the keeper's metrics show it. Then `feestats:max` bids what the node's
 * getFeeStats reports.
 */
import { Address, Asset, Contract, Keypair, Operation, TransactionBuilder, nativeToScVal, rpc, xdr, type Transaction } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../../sandbox/ts/launch.js'
import { recordingLogger } from '../../../test/keeper/cycleFakes.js'
import { createChain, submit, type Chain } from '../../chain/index.js'
import { createMetrics } from '../metrics.js'
import { KeeperFees } from './keeperFees.js'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

interface Pending {
  pending: { hash: string; inclusionFee: string; operations: number; nextLedger: boolean }[]
}

describe('fee bump of a transaction the network left queued (sandbox, replace-by-fee)', () => {
  let sb: Sandbox
  let chain: Chain
  let sac: Contract
  const keeper = Keypair.random()
  const rivals = [Keypair.random(), Keypair.random()]
  const sink = Keypair.random()

  beforeAll(async () => {
    sb = await startSandbox({ manual: true })
    for (const kp of [keeper, ...rivals, sink]) await sb.server.requestAirdrop(kp.publicKey())
    chain = createChain({ rpcUrl: sb.rpcUrl, networkPassphrase: sb.networkPassphrase, retry: { pollIntervalMs: 50 }, txTimeoutSeconds: 120 })
    const deploy = new TransactionBuilder(await sb.server.getAccount(keeper.publicKey()), { fee: '100', networkPassphrase: sb.networkPassphrase })
      .addOperation(Operation.createStellarAssetContract({ asset: Asset.native() }))
      .setTimeout(300)
      .build()
    const prepared = await sb.server.prepareTransaction(deploy)
    prepared.sign(keeper)
    await sb.server.sendTransaction(prepared)
    await sb.closeLedgers(1)
    sac = new Contract(Asset.native().contractId(sb.networkPassphrase))
  }, 120_000)

  afterAll(async () => {
    await sb?.stop()
  })

  const transfer = (from: Keypair) => sac.call('transfer', new Address(from.publicKey()).toScVal(), new Address(sink.publicKey()).toScVal(), nativeToScVal(5n, { type: 'i128' }))

  /** A rival's transfer bidding `bid` per operation, sent now. */
  async function rival(kp: Keypair, bid: number): Promise<string> {
    const tx = new TransactionBuilder(await sb.server.getAccount(kp.publicKey()), { fee: String(bid), networkPassphrase: sb.networkPassphrase })
      .addOperation(transfer(kp))
      .setTimeout(300)
      .build()
    const prepared = (await sb.server.prepareTransaction(tx)) as Transaction
    prepared.sign(kp)
    const sent = await sb.server.sendTransaction(prepared)
    expect(sent.status).toBe('PENDING')
    return sent.hash
  }

  async function pending(): Promise<Pending['pending']> {
    return (await sb.call<Pending>('sandbox_pending')).pending
  }

  async function until<T>(what: string, f: () => Promise<T | undefined>): Promise<T> {
    for (let i = 0; i < 200; i++) {
      const v = await f()
      if (v !== undefined) return v
      await sleep(50)
    }
    throw new Error(`timed out waiting for ${what}`)
  }

  it('bumps after FEE_BUMP_LEDGERS ledgers at ten times the bid; the bump lands and the metrics count it', { timeout: 120_000 }, async () => {
    const metrics = createMetrics({ defaultMetrics: false })
    const log = recordingLogger()
    const fees = new KeeperFees({
      settings: { inclusionFee: 100, feeStrategy: { kind: 'fixed' }, maxFee: 10_000_000, feeBumpLedgers: 2 },
      server: sb.server,
      latestLedger: () => 0,
      logger: log.logger,
      metrics,
    })
    const keeperChain: Chain = { ...chain, fees: fees.chainFees() }
    // Room for two transactions per ledger (a fee bump counts two).
    await sb.call('sandbox_setLedgerLimits', { txCount: 2 })

    const submission = submit(keeperChain, keeper, transfer(keeper))
    const original = await until('the keeper transaction queued', async () => (await pending()).find((p) => p.inclusionFee === '100'))
    const sentAt = (await sb.server.getLatestLedger()).sequence

    // Two ledgers: two rivals bidding 500 take both places each time.
    for (let i = 0; i < 2; i++) {
      const hashes = await Promise.all(rivals.map((r) => rival(r, 500)))
      await sb.closeLedgers(1)
      for (const h of hashes) expect((await sb.server.getTransaction(h)).status).toBe(rpc.Api.GetTransactionStatus.SUCCESS)
      expect((await sb.server.getTransaction(original.hash)).status).toBe(rpc.Api.GetTransactionStatus.NOT_FOUND)
    }
    // The keeper sees two ledgers without its transaction: one fee bump at 1000 per operation.
    const bump = await until('the fee bump queued', async () => (await pending()).find((p) => p.hash !== original.hash && p.operations === 2))
    expect(bump.inclusionFee).toBe('2000')
    expect((await pending()).some((p) => p.hash === original.hash)).toBe(false)

    // The rivals bid 500 again; the bump's 1000 per operation goes first.
    const late = await Promise.all(rivals.map((r) => rival(r, 500)))
    const includedAt = await sb.closeLedgers(1)
    const res = await submission
    expect(res).toMatchObject({ hash: bump.hash, bumped: true, ledger: includedAt, sentLedger: sentAt, inclusionFee: 100 })
    expect(res.feeBump).toEqual({ hash: bump.hash, inclusionFee: 1000, outcome: 'accepted' })
    expect(res.ledger - res.sentLedger!).toBe(3)
    // The fee charged is the network's: the fee bump's result.
    const onChain = await sb.server.getTransaction(bump.hash)
    expect(onChain.status).toBe(rpc.Api.GetTransactionStatus.SUCCESS)
    if (onChain.status === rpc.Api.GetTransactionStatus.SUCCESS) {
      expect(res.feeCharged).toBe(BigInt(onChain.resultXdr.feeCharged.toString()))
      expect(onChain.feeBump).toBe(true)
      expect(xdr.TransactionEnvelope.fromXdr(onChain.envelopeXdr.toXdr('base64'), 'base64').type).toBe('envelopeTypeTxFeeBump')
    }
    for (const h of late) expect((await sb.server.getTransaction(h)).status).toBe(rpc.Api.GetTransactionStatus.NOT_FOUND)
    await sb.closeLedgers(1)

    const all = await metrics.registry.getMetricsAsJSON()
    const bumps = Object.fromEntries((all.find((m) => m.name === 'service_fee_bumps_total')?.values ?? []).map((v) => [v.labels.outcome, v.value]))
    expect(bumps).toEqual({ accepted: 1, refused: 0 })
    expect(all.find((m) => m.name === 'service_fee_bid_stroops')?.values[0]?.value).toBe(1000)
    expect(log.lines.map((l) => l.msg)).toContain('fee bump sent (accepted)')
    await sb.call('sandbox_setLedgerLimits', { txCount: 100 })
  })

  it('a bump the network refuses leaves the original queued, and the original lands', { timeout: 120_000 }, async () => {
    const metrics = createMetrics({ defaultMetrics: false })
    const fees = new KeeperFees({
      settings: { inclusionFee: 100, feeStrategy: { kind: 'fixed' }, maxFee: 10_000_000, feeBumpLedgers: 1 },
      server: sb.server,
      latestLedger: () => 0,
      logger: recordingLogger().logger,
      metrics,
    })
    // A policy bidding below ten times: the sandbox answers txInsufficientFee, as stellar-core.
    const policy = { ...fees.chainFees().feeBump!, bid: () => 900 }
    await sb.call('sandbox_setLedgerLimits', { txCount: 2 })
    const submission = submit(chain, keeper, transfer(keeper), { feeBump: policy })
    const original = await until('the keeper transaction queued', async () => (await pending()).find((p) => p.inclusionFee === '100'))
    await Promise.all(rivals.map((r) => rival(r, 500)))
    await sb.closeLedgers(1)
    await until('the refusal counted', async () => {
      const v = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === 'service_fee_bumps_total')?.values.find((x) => x.labels.outcome === 'refused')?.value
      return v === 1 ? v : undefined
    })
    expect((await pending()).map((p) => p.hash)).toEqual([original.hash])
    await sb.call('sandbox_setLedgerLimits', { txCount: 100 })
    const at = await sb.closeLedgers(1)
    const res = await submission
    expect(res).toMatchObject({ hash: original.hash, bumped: false, ledger: at, feeBump: { outcome: 'refused', reason: 'txInsufficientFee', inclusionFee: 900 } })
  })

  it('feestats:max: every transaction bids the highest Soroban inclusion fee getFeeStats reports', { timeout: 60_000 }, async () => {
    const fees = new KeeperFees({
      settings: { inclusionFee: 100, feeStrategy: { kind: 'feestats', percentile: 'max' }, maxFee: 10_000_000, feeBumpLedgers: 2 },
      server: sb.server,
      latestLedger: () => 0,
      logger: recordingLogger().logger,
    })
    const stats = await sb.server.getFeeStats()
    // The earlier tests' fee bump charged 1000 per operation.
    expect(Number(stats.sorobanInclusionFee.max)).toBeGreaterThan(100)
    const submission = submit({ ...chain, fees: fees.chainFees() }, keeper, transfer(keeper))
    const queued = await until('the keeper transaction queued', async () => (await pending())[0])
    expect(queued.inclusionFee).toBe(stats.sorobanInclusionFee.max)
    await sb.closeLedgers(1)
    expect(await submission).toMatchObject({ inclusionFee: Number(stats.sorobanInclusionFee.max), bumped: false })
  })
})
