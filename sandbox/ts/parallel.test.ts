/**
 * The parallel Soroban phase (CAP-63) through @stellar/stellar-sdk: under two clusters of 100M
 * instructions, SAC transfers whose footprints conflict share a cluster, an independent one gets
 * the other, and one no stage has room for waits for the next ledger. The LedgerCloseMeta's
 * tx set decodes with the SDK as a GeneralizedTransactionSet v1 whose Soroban phase is a
 * parallel component, and applicationOrder follows stellar-core's sortedForApplyParallel
 * (src/herder/TxSetFrame.cpp), worked out here from that XDR.
 */
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Address, Asset, Contract, Keypair, Operation, TransactionBuilder, nativeToScVal, rpc, xdr, type Transaction } from '@stellar/stellar-sdk'
import { startSandbox, type Sandbox } from './launch.js'
import { funded } from '../../test/sandbox/funded.js'

let sb: Sandbox
let defaults: { instructions: number; dependentTxClusters: number }

beforeAll(async () => {
  sb = await startSandbox({ manual: true })
  defaults = await sb.call('sandbox_getLedgerLimits')
})
afterAll(async () => {
  await sb?.call('sandbox_setLedgerLimits', { instructions: defaults.instructions, dependentTxClusters: defaults.dependentTxClusters })
  await sb?.stop()
})

const sha256 = (b: Uint8Array): Buffer => createHash('sha256').update(b).digest()

/** A simulated SAC transfer declaring `instructions` (the resource fee raised to pay for them). */
async function transfer(sac: Contract, from: Keypair, to: Keypair, instructions: number): Promise<Transaction> {
  const draft = new TransactionBuilder(await sb.server.getAccount(from.publicKey()), { fee: '100', networkPassphrase: sb.networkPassphrase })
    .addOperation(sac.call('transfer', new Address(from.publicKey()).toScVal(), new Address(to.publicKey()).toScVal(), nativeToScVal(1n, { type: 'i128' })))
    .setTimeout(300)
    .build()
  const sim = await sb.server.simulateTransaction(draft)
  if (!rpc.Api.isSimulationSuccess(sim)) throw new Error(`simulation failed: ${JSON.stringify(sim)}`)
  const prepared = rpc.assembleTransaction(draft, sim).build()
  const res = sim.transactionData.build().resources
  expect(res.instructions).toBeLessThan(instructions)
  const data = sim.transactionData
    .setResources(instructions, res.diskReadBytes, res.writeBytes)
    .setResourceFee(BigInt(sim.minResourceFee) + BigInt(instructions / 100))
    .build()
  const tx = TransactionBuilder.cloneFrom(prepared, { fee: '100', sorobanData: data }).build()
  tx.sign(from)
  return tx
}

/** XOR of two 32-byte hashes. */
const xor = (a: Buffer, b: Buffer): Buffer => Buffer.from(a.map((x, i) => x ^ b[i]!))

describe('parallel Soroban phase', () => {
  it('clusters from footprint conflicts, the cluster limit, and the apply order of stages and clusters', async () => {
    const [deployer, a, b, c, d, e, f] = await funded(sb, 7)
    const deploy = new TransactionBuilder(await sb.server.getAccount(deployer!.publicKey()), { fee: '100', networkPassphrase: sb.networkPassphrase })
      .addOperation(Operation.createStellarAssetContract({ asset: Asset.native() }))
      .setTimeout(300)
      .build()
    const prepared = await sb.server.prepareTransaction(deploy)
    prepared.sign(deployer!)
    expect((await sb.server.sendTransaction(prepared)).status).toBe('PENDING')
    await sb.closeLedgers(1)

    const limits = await sb.call<{ instructions: number; dependentTxClusters: number }>('sandbox_setLedgerLimits', {
      instructions: 100_000_000,
      dependentTxClusters: 2,
    })
    expect(limits).toMatchObject({ instructions: 100_000_000, dependentTxClusters: 2 })

    const sac = new Contract(Asset.native().contractId(sb.networkPassphrase))
    // a→b and b→a write the same two accounts; c→d is independent; e→f would take the stage past
    // 2 × 100M. Equal bids: tried in arrival order.
    const txs = [
      await transfer(sac, a!, b!, 60_000_000),
      await transfer(sac, c!, d!, 60_000_000),
      await transfer(sac, b!, a!, 30_000_000),
      await transfer(sac, e!, f!, 60_000_000),
    ]
    for (const tx of txs) expect((await sb.server.sendTransaction(tx)).status).toBe('PENDING')
    const ledger = await sb.closeLedgers(1)

    const meta = xdr.expectUnionVariant(xdr.LedgerCloseMeta.fromXdr((await sb.call<{ metadataXdr: string }>('getLatestLedger')).metadataXdr, 'base64'), 'v2').v2
    const set = xdr.expectUnionVariant(meta.txSet, 'v1TxSet').v1TxSet
    const parallel = xdr.expectUnionVariant(set.phases[1]!, 'parallelTxsComponent').parallelTxsComponent
    const fullHash = (env: xdr.TransactionEnvelope) => sha256(env.toXDR())
    const name = new Map(txs.map((tx, i) => [fullHash(tx.toEnvelope()).toString('hex'), ['a→b', 'c→d', 'b→a', 'e→f'][i]!]))
    const stages = parallel.executionStages.map((s) => s.map((cl) => cl.map(fullHash)))
    // One stage of two clusters, each listed by full hash, the clusters by their first.
    expect(stages.length).toBe(1)
    expect(stages[0]!.map((cl) => cl.map((h) => name.get(h.toString('hex'))).sort())).toEqual(
      expect.arrayContaining([['a→b', 'b→a'], ['c→d']]),
    )
    for (const cl of stages[0]!) expect(cl).toEqual([...cl].sort(Buffer.compare))
    expect(Buffer.compare(stages[0]![0]![0]!, stages[0]![1]![0]!)).toBe(-1)

    // sortedForApplyParallel: each cluster by full hash XOR set hash, stages by their first.
    const setHash = sha256(meta.txSet.toXDR())
    const applyOrder = stages
      .map((s) => s.map((cl) => [...cl].sort((x, y) => Buffer.compare(xor(x, setHash), xor(y, setHash)))))
      .sort((s, t) => Buffer.compare(xor(s[0]![0]!, setHash), xor(t[0]![0]!, setHash)))
      .flat(2)
      .map((h) => name.get(h.toString('hex')))
    const landed = await Promise.all(txs.map((tx) => sb.server.getTransaction(Buffer.from(tx.hash()).toString('hex'))))
    const applied = landed
      .flatMap((r, i) => (r.status === rpc.Api.GetTransactionStatus.SUCCESS ? [{ n: ['a→b', 'c→d', 'b→a', 'e→f'][i]!, order: r.applicationOrder, ledger: r.ledger }] : []))
      .sort((x, y) => x.order - y.order)
    expect(applied.map((x) => x.n)).toEqual(applyOrder)
    expect(applied.map((x) => [x.order, x.ledger])).toEqual([[1, ledger], [2, ledger], [3, ledger]])
    expect(landed[3]!.status).toBe(rpc.Api.GetTransactionStatus.NOT_FOUND)

    // e→f lands in the next ledger.
    const next = await sb.closeLedgers(1)
    const last = await sb.server.getTransaction(Buffer.from(txs[3]!.hash()).toString('hex'))
    expect(last.status === rpc.Api.GetTransactionStatus.SUCCESS ? last.ledger : last.status).toBe(next)
  })
})
