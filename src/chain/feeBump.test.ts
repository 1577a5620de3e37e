import { Keypair, Networks, Operation, Asset, FeeBumpTransaction, TransactionBuilder } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { queueNode, type QueueNodeScript } from '../../test/chain/queueNode.js'
import { createChain } from './connection.js'
import type { FeeBumpPolicy, FeeBumpRecord, QueuedTransaction } from './fees.js'
import { submit } from './submit.js'

const op = Operation.invokeContractFunction({ contract: 'CA3D5KRYM6CB7OWQ6TWYRR3Z4T7GNZLKERYNZGGA5SOAOPIFY6YQGAXE', function: 'fill', args: [] })
const kp = Keypair.random()
const retry = { backoffMs: 10, pollIntervalMs: 1_000, expiryGraceMs: 0 }

function setup(script: QueueNodeScript, fees?: Parameters<typeof createChain>[0]['inclusionFee']) {
  const node = queueNode(script)
  const chain = createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server: node.server, clock: node.clock, retry, txTimeoutSeconds: 60, inclusionFee: fees ?? 100 })
  return { node, chain }
}

/** A policy bumping to `bid(queued)` after `after` ledgers, recording what it was told. */
function policy(after: number, bid: (q: QueuedTransaction) => number | undefined) {
  const told: Array<FeeBumpRecord | 'skipped'> = []
  const asked: QueuedTransaction[] = []
  const p: FeeBumpPolicy = {
    afterLedgers: after,
    bid: (q) => {
      asked.push(q)
      return bid(q)
    },
    onBump: (_q, b) => told.push(b),
  }
  return { p, told, asked }
}

/** Included only when the bid per operation reaches `min` (a competitor outbids everything below). */
const above = (min: bigint) => (q: { inclusionFee: bigint; operations: number }) => q.inclusionFee / BigInt(q.operations) >= min

describe('inclusion fee per submission', () => {
  it('bids the submission\'s inclusion fee, else the chain\'s fees, else chain.inclusionFee', async () => {
    const { node, chain } = setup({}, 250)
    const plain = await submit(chain, kp, op)
    expect(plain.inclusionFee).toBe(250)
    expect(plain.fee).toBe(250n + node.resourceFee)
    const own = await submit(chain, kp, op, { inclusionFee: 1000 })
    expect(own.inclusionFee).toBe(1000)
    expect(node.sent.at(-1)!.fee).toBe(1000n + node.resourceFee)
    const dynamic = await submit({ ...chain, fees: { inclusionFee: async () => 4321 } }, kp, op)
    expect(dynamic.inclusionFee).toBe(4321)
    expect(node.sent.at(-1)!.inclusionFee).toBe(4321n)
  })

  it('pays a classic transaction\'s bid per operation', async () => {
    const { node, chain } = setup({})
    const pay = (n: number) => Array.from({ length: n }, () => Operation.payment({ destination: Keypair.random().publicKey(), asset: Asset.native(), amount: '1' }))
    const res = await submit(chain, kp, pay(3), { inclusionFee: 700 })
    expect(res.fee).toBe(2100n)
    expect(node.sent.at(-1)!.inclusionFee).toBe(2100n)
  })

  it('reports the fee charged, the ledger sent at and the ledger included', async () => {
    const { node, chain } = setup({ startLedger: 500 })
    const res = await submit(chain, kp, op, { inclusionFee: 300 })
    expect(res).toMatchObject({ sentLedger: 500, ledger: 501, feeCharged: 300n + node.resourceFee, bumped: false, feeBump: undefined })
  })
})

describe('fee bump', () => {
  it('is not sent when the transaction lands within the ledgers allowed', async () => {
    const { node, chain } = setup({})
    const { p, asked } = policy(2, () => 10_000)
    const res = await submit(chain, kp, op, { feeBump: p })
    expect(res.bumped).toBe(false)
    expect(asked).toEqual([])
    expect(node.sent).toHaveLength(1)
  })

  it('bumps once after N ledgers without inclusion; the bump lands and is reported', async () => {
    const { node, chain } = setup({ startLedger: 100, includes: above(5_000n) })
    const { p, told, asked } = policy(2, (q) => Number((10n * q.inclusionFee) / BigInt(q.operations)))
    const res = await submit(chain, kp, op, { inclusionFee: 1000, feeBump: p })
    // Sent at 100; 101 and 102 closed without it: bumped then, included in 103.
    expect(asked).toEqual([expect.objectContaining({ inclusionFee: 1000n, operations: 1, sentLedger: 100, latestLedger: 102 })])
    expect(node.sent).toHaveLength(2)
    const bump = node.sent[1]!
    expect(bump.feeBump).toBe(true)
    // The outer fee covers the inner resource fee plus the bid for 2 operations.
    expect(bump.fee).toBe(2n * 10_000n + node.resourceFee)
    expect(res).toMatchObject({ hash: bump.hash, bumped: true, ledger: 103, sentLedger: 100, inclusionFee: 1000, feeCharged: bump.fee })
    expect(res.feeBump).toEqual({ hash: bump.hash, inclusionFee: 10_000, outcome: 'accepted' })
    expect(told).toEqual([res.feeBump])
  })

  it('signs the bump with the source, which pays it', async () => {
    const { node, chain } = setup({ includes: above(5_000n) })
    let captured: FeeBumpTransaction | undefined
    const send = node.server.sendTransaction.bind(node.server)
    node.server.sendTransaction = async (tx) => {
      if (tx instanceof FeeBumpTransaction) captured = tx
      return send(tx)
    }
    const { p } = policy(1, () => 5_000)
    await submit(chain, kp, op, { feeBump: p })
    expect(captured?.feeSource).toBe(kp.publicKey())
    expect(captured?.signatures).toHaveLength(1)
    expect(kp.verify(captured!.hash(), Buffer.from(captured!.signatures[0]!.signature.toBytes()))).toBe(true)
    const roundTrip = TransactionBuilder.fromXdr(captured!.toXdr(), Networks.TESTNET) as FeeBumpTransaction
    expect(roundTrip.innerTransaction.source).toBe(kp.publicKey())
  })

  it('a refused bump (below ten times the bid) leaves the original to land', async () => {
    const { node, chain } = setup({ includes: (q, ledger) => ledger >= 105 && !q.feeBump })
    const { p, told } = policy(2, (q) => Number(q.inclusionFee) * 5)
    const res = await submit(chain, kp, op, { inclusionFee: 200, feeBump: p })
    expect(told).toEqual([{ hash: node.sent[1]!.hash, inclusionFee: 1000, outcome: 'refused', reason: 'txInsufficientFee' }])
    expect(res).toMatchObject({ hash: node.sent[0]!.hash, bumped: false, ledger: 105, feeBump: told[0] })
  })

  it('follows both hashes: the original may land after the bump was sent', async () => {
    // The bump gets no answer and never reaches the queue; the original lands.
    const { node, chain } = setup({ bumpAnswer: 'THROW', includes: (_q, ledger) => ledger >= 104 })
    const { p, told } = policy(1, () => 50_000)
    const res = await submit(chain, kp, op, { feeBump: p })
    expect(told).toEqual([expect.objectContaining({ outcome: 'unanswered', inclusionFee: 50_000 })])
    expect(res).toMatchObject({ hash: node.sent[0]!.hash, bumped: false, ledger: 104 })
  })

  it('a bump that fails with txBadSeq (the original took the sequence number) is not the result', async () => {
    // The bump is queued behind the original; the first ledger that takes the original takes both.
    const { node, chain } = setup({ bothApply: true, includes: (_q, ledger) => ledger >= 103 })
    const { p } = policy(2, () => 5_000)
    const res = await submit(chain, kp, op, { feeBump: p })
    expect(node.sent).toHaveLength(2)
    expect(res).toMatchObject({ hash: node.sent[0]!.hash, bumped: false, ledger: 103, feeBump: { outcome: 'accepted' } })
  })

  it('is never sent twice, and not at all when the policy has no bid (above MAX_FEE)', async () => {
    const slow = setup({ includes: (_q, ledger) => ledger >= 110 })
    const once = policy(1, (q) => Number(q.inclusionFee) * 10)
    const res = await submit(slow.chain, kp, op, { feeBump: once.p })
    expect(once.asked).toHaveLength(1)
    expect(slow.node.sent).toHaveLength(2)
    expect(res.ledger).toBe(110)

    const capped = setup({ includes: (_q, ledger) => ledger >= 106 })
    const none = policy(1, () => undefined)
    const res2 = await submit(capped.chain, kp, op, { feeBump: none.p })
    expect(none.told).toEqual(['skipped'])
    expect(capped.node.sent).toHaveLength(1)
    expect(res2).toMatchObject({ bumped: false, feeBump: undefined, ledger: 106 })
  })

  it('comes from the chain\'s fees unless the submission says null; 0 ledgers disables it', async () => {
    const { node, chain } = setup({ includes: above(5_000n) })
    const { p, asked } = policy(2, () => 5_000)
    const withFees = { ...chain, fees: { feeBump: p } }
    const res = await submit(withFees, kp, op)
    expect(res.bumped).toBe(true)
    expect(asked).toHaveLength(1)

    const off = setup({ includes: (_q, ledger) => ledger >= 104 })
    const never = policy(2, () => 5_000)
    expect((await submit({ ...off.chain, fees: { feeBump: never.p } }, kp, op, { feeBump: null })).bumped).toBe(false)
    expect((await submit(off.chain, kp, op, { feeBump: { ...never.p, afterLedgers: 0 } })).bumped).toBe(false)
    expect(never.asked).toEqual([])
    expect(node.sent.length + off.node.sent.length).toBe(2 + 2)
  })

  it('counts ledgers without extra calls when the poll answers carry the latest ledger', async () => {
    const { node, chain } = setup({ includes: above(5_000n) })
    const { p } = policy(2, () => 5_000)
    await submit(chain, kp, op, { feeBump: p })
    expect(node.calls.getLatestLedger).toBe(0)
  })
})
