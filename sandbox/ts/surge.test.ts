/**
 * Ledger limits, surge pricing and the queue's age limit, through @stellar/stellar-sdk: more
 * transactions than a ledger holds, with different bids; the best bids land first and all pay
 * the lowest included bid; the rest land in the next ledger; an unincludable one is dropped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Address, Asset, Contract, Keypair, Operation, TransactionBuilder, nativeToScVal, rpc, xdr, type Transaction } from '@stellar/stellar-sdk'
import { startSandbox, type Sandbox } from './launch.js'
import { funded } from '../../test/sandbox/funded.js'

let sb: Sandbox

interface Limits {
  txCount: number
  instructions: number
  diskReadBytes: number
  diskReadEntries: number
  writeBytes: number
  writeEntries: number
  txsSizeBytes: number
  classicOps: number
}

interface Pending {
  pending: { hash: string; fee: string; inclusionFee: string; feePerOperation: string; age: number; nextLedger: boolean; soroban: boolean }[]
  nextLedgerBaseFee: { classic: string; soroban: string }
}

let defaults: Limits

beforeAll(async () => {
  sb = await startSandbox({ manual: true })
  defaults = await sb.call<Limits>('sandbox_getLedgerLimits')
})
afterAll(async () => {
  await sb?.stop()
})

async function sendSigned(tx: Transaction, kp: Keypair): Promise<string> {
  tx.sign(kp)
  const sent = await sb.server.sendTransaction(tx)
  expect(sent.status).toBe('PENDING')
  return sent.hash
}

/** Ledger, application order and the inclusion fee charged (fee charged less resource fees). */
async function landed(hash: string) {
  const r = await sb.server.getTransaction(hash)
  if (r.status !== rpc.Api.GetTransactionStatus.SUCCESS) return r.status
  const ext = xdr.expectUnionVariant(r.resultMetaXdr, 'v4').v4.sorobanMeta?.ext
  const resource = ext?.type === 'v1' ? ext.v1.totalNonRefundableResourceFeeCharged + ext.v1.totalRefundableResourceFeeCharged : 0n
  return { ledger: r.ledger, order: r.applicationOrder, inclusion: r.resultXdr.feeCharged - resource }
}

async function payment(from: Keypair, to: string, fee: number, ops = 1): Promise<string> {
  const b = new TransactionBuilder(await sb.server.getAccount(from.publicKey()), { fee: String(fee / ops), networkPassphrase: sb.networkPassphrase })
  for (let i = 0; i < ops; i++) b.addOperation(Operation.payment({ destination: to, asset: Asset.native(), amount: '1' }))
  return sendSigned(b.setTimeout(300).build(), from)
}

describe('ledger limits and surge pricing', () => {
  it('Soroban: with room for 3, the 3 best bids land, each paying the third bid; the rest land next', async () => {
    const [deployer, sink, ...sources] = await funded(sb, 7)
    const deploy = new TransactionBuilder(await sb.server.getAccount(deployer!.publicKey()), { fee: '100', networkPassphrase: sb.networkPassphrase })
      .addOperation(Operation.createStellarAssetContract({ asset: Asset.native() }))
      .setTimeout(300)
      .build()
    const deployHash = await sendSigned(await sb.server.prepareTransaction(deploy), deployer!)
    await sb.closeLedgers(1)
    expect(await landed(deployHash)).toMatchObject({ inclusion: 100n })

    const limits = await sb.call<Limits>('sandbox_setLedgerLimits', { txCount: 3 })
    expect(limits).toMatchObject({ ...defaults, txCount: 3 })
    // The ConfigSetting entry says so too.
    const key = xdr.LedgerKey.configSetting(new xdr.LedgerKeyConfigSetting({ configSettingId: xdr.ConfigSettingId.configSettingContractExecutionLanes }))
    const entry = xdr.expectUnionVariant((await sb.server.getLedgerEntries(key)).entries[0]!.val, 'configSetting').configSetting
    expect(xdr.expectUnionVariant(entry, 'configSettingContractExecutionLanes').contractExecutionLanes.ledgerMaxTxCount).toBe(3)

    const sac = new Contract(Asset.native().contractId(sb.networkPassphrase))
    const bids = [150, 900, 400, 700, 250]
    const hashes: string[] = []
    for (const [i, bid] of bids.entries()) {
      const kp = sources[i]!
      const tx = new TransactionBuilder(await sb.server.getAccount(kp.publicKey()), { fee: String(bid), networkPassphrase: sb.networkPassphrase })
        .addOperation(sac.call('transfer', new Address(kp.publicKey()).toScVal(), new Address(sink!.publicKey()).toScVal(), nativeToScVal(5n, { type: 'i128' })))
        .setTimeout(300)
        .build()
      hashes.push(await sendSigned(await sb.server.prepareTransaction(tx), kp))
    }
    const queue = await sb.call<Pending>('sandbox_pending')
    expect(queue.pending.map((p) => [p.inclusionFee, p.nextLedger])).toEqual(bids.map((b) => [String(b), b >= 400]))
    expect(queue.nextLedgerBaseFee.soroban).toBe('400')

    const first = await sb.closeLedgers(1)
    // The three best bids, applied in the order the set's hash gives (stellar-core's); everyone pays 400.
    const included = await Promise.all([1, 2, 3].map((i) => landed(hashes[i]!)))
    expect(included).toEqual(Array(3).fill({ ledger: first, order: expect.any(Number), inclusion: 400n }))
    expect(included.map((l) => (l as { order: number }).order).sort()).toEqual([1, 2, 3])
    expect(await landed(hashes[0]!)).toBe('NOT_FOUND')
    expect(await landed(hashes[4]!)).toBe('NOT_FOUND')
    const meta = xdr.expectUnionVariant(xdr.LedgerCloseMeta.fromXdr((await sb.call<{ metadataXdr: string }>('getLatestLedger')).metadataXdr, 'base64'), 'v2').v2
    const phases = xdr.expectUnionVariant(meta.txSet, 'v1TxSet').v1TxSet.phases
    const sorobanPhase = xdr.expectUnionVariant(phases[1]!, 'parallelTxsComponent').parallelTxsComponent
    expect(sorobanPhase.baseFee).toBe(400n)
    expect(sorobanPhase.executionStages[0]![0]!.length).toBe(3)

    // Two left, room for three: no surge, the base fee.
    const second = await sb.closeLedgers(1)
    const rest = await Promise.all([0, 4].map((i) => landed(hashes[i]!)))
    expect(rest).toEqual(Array(2).fill({ ledger: second, order: expect.any(Number), inclusion: 100n }))
    expect(rest.map((l) => (l as { order: number }).order).sort()).toEqual([1, 2])

    // Soroban inclusion fees in the window: 100 (deploy), 400 ×3, 100 ×2.
    const stats = await sb.server.getFeeStats()
    expect(stats.sorobanInclusionFee).toMatchObject({ min: '100', max: '400', mode: '100', p50: '100', p60: '400', p99: '400', transactionCount: '6' })
    await sb.call('sandbox_setLedgerLimits', { txCount: defaults.txCount })
  })

  it('classic: max_tx_set_size counts operations; bids rank per operation', async () => {
    const [a, b, c, d, to] = await funded(sb, 5)
    await sb.call('sandbox_setLedgerLimits', { classicOps: 3 })
    const solo = await payment(a!, to!.publicKey(), 500)
    const pair = await payment(b!, to!.publicKey(), 600, 2) // 300 per operation
    const low = await payment(c!, to!.publicKey(), 200)
    const lowest = await payment(d!, to!.publicKey(), 100)
    const first = await sb.closeLedgers(1)
    expect((await sb.server.getLatestLedger()).sequence).toBe(first)
    expect(await landed(solo)).toMatchObject({ ledger: first, inclusion: 300n })
    expect(await landed(pair)).toMatchObject({ ledger: first, inclusion: 600n })
    expect(await landed(low)).toBe('NOT_FOUND')
    const second = await sb.closeLedgers(1)
    expect(await landed(low)).toMatchObject({ ledger: second, inclusion: 100n })
    expect(await landed(lowest)).toMatchObject({ ledger: second, inclusion: 100n })
    const header = xdr.LedgerHeader.fromXdr((await sb.call<{ headerXdr: string }>('getLatestLedger')).headerXdr, 'base64')
    expect(header.maxTxSetSize).toBe(3)
    await sb.call('sandbox_setLedgerLimits', { classicOps: defaults.classicOps })
  })

  it('drops a transaction no ledger took within 4 closes: NOT_FOUND, and it can be sent again', async () => {
    const [a, to] = await funded(sb, 2)
    await sb.call('sandbox_setLedgerLimits', { classicOps: 0 })
    const account = await sb.server.getAccount(a!.publicKey())
    const tx = new TransactionBuilder(account, { fee: '100', networkPassphrase: sb.networkPassphrase })
      .addOperation(Operation.payment({ destination: to!.publicKey(), asset: Asset.native(), amount: '1' }))
      .setTimeout(300)
      .build()
    const hash = await sendSigned(tx, a!)
    for (let age = 1; age <= 3; age++) {
      await sb.closeLedgers(1)
      const q = await sb.call<Pending>('sandbox_pending')
      expect(q.pending).toMatchObject([{ hash, age, nextLedger: false }])
    }
    await sb.closeLedgers(1)
    expect((await sb.call<Pending>('sandbox_pending')).pending).toEqual([])
    expect((await sb.server.getTransaction(hash)).status).toBe('NOT_FOUND')
    await sb.call('sandbox_setLedgerLimits', { classicOps: defaults.classicOps })
    expect((await sb.server.sendTransaction(tx)).status).toBe('PENDING')
    await sb.closeLedgers(1)
    expect((await sb.server.getTransaction(hash)).status).toBe('SUCCESS')
  })

  it('refuses bad limits with -32602 and changes nothing', async () => {
    const before = await sb.call<Limits>('sandbox_getLedgerLimits')
    await expect(sb.call('sandbox_setLedgerLimits', { txCount: 3, writeBytes: 10 })).rejects.toThrow(/writeBytes 10 is below.*code -32602/)
    await expect(sb.call('sandbox_setLedgerLimits', { txcount: 3 })).rejects.toThrow(/unknown limit "txcount".*code -32602/)
    await expect(sb.call('sandbox_setLedgerLimits', { classicOps: -1 })).rejects.toThrow(/code -32602/)
    await expect(sb.call('sandbox_setLedgerLimits', [3])).rejects.toThrow(/by name.*code -32602/)
    expect(await sb.call<Limits>('sandbox_getLedgerLimits')).toEqual(before)
  })
})
