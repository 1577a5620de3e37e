/**
 * getFeeStats against a hand-computed expectation: stellar-rpc's distributions (nearest-rank
 * percentiles, mode, counts) of the inclusion fees charged in the last 10 ledgers (classic,
 * per operation) and the last 50 (Soroban).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Asset, Keypair, Operation, TransactionBuilder, type FeeBumpTransaction, type Transaction } from '@stellar/stellar-sdk'
import { startSandbox, type Sandbox } from './launch.js'

let sb: Sandbox

beforeAll(async () => {
  sb = await startSandbox({ manual: true })
})
afterAll(async () => {
  await sb?.stop()
})

interface Dist {
  max: string
  min: string
  mode: string
  p10: string
  p20: string
  p30: string
  p40: string
  p50: string
  p60: string
  p70: string
  p80: string
  p90: string
  p95: string
  p99: string
  transactionCount: string
  ledgerCount: number
}
interface FeeStats {
  sorobanInclusionFee: Dist
  inclusionFee: Dist
  latestLedger: number
}

async function build(from: Keypair, perOp: number, ops: number, to: string): Promise<Transaction> {
  const b = new TransactionBuilder(await sb.server.getAccount(from.publicKey()), { fee: String(perOp), networkPassphrase: sb.networkPassphrase })
  for (let i = 0; i < ops; i++) b.addOperation(Operation.payment({ destination: to, asset: Asset.native(), amount: '1' }))
  const tx = b.setTimeout(300).build()
  tx.sign(from)
  return tx
}

async function send(tx: Transaction | FeeBumpTransaction) {
  expect((await sb.server.sendTransaction(tx)).status).toBe('PENDING')
}

/** A distribution from its values in the order max, min, mode, p10 ... p99, count, ledgers. */
function dist(v: number[], count: number, ledgers: number): Dist {
  const k = ['max', 'min', 'mode', 'p10', 'p20', 'p30', 'p40', 'p50', 'p60', 'p70', 'p80', 'p90', 'p95', 'p99']
  return { ...Object.fromEntries(k.map((name, i) => [name, String(v[i])])), transactionCount: String(count), ledgerCount: ledgers } as unknown as Dist
}

describe('getFeeStats', () => {
  it('computes the distributions of the fees charged, over stellar-rpc windows', async () => {
    expect((await sb.call<FeeStats>('getFeeStats')).inclusionFee).toEqual(dist(Array(14).fill(0), 0, 0))
    const [a, b, c] = [Keypair.random(), Keypair.random(), Keypair.random()]
    for (const k of [a, b, c]) await sb.server.requestAirdrop(k.publicKey()) // ledgers 2-4: 100 each
    // Ledger 5: room for 2 operations, bids 1000 / 300 / 150: the first two pay 300.
    await sb.call('sandbox_setLedgerLimits', { classicOps: 2 })
    await send(await build(a, 1000, 1, c.publicKey()))
    await send(await build(b, 300, 1, c.publicKey()))
    await send(await build(c, 150, 1, a.publicKey()))
    await sb.closeLedgers(1)
    // Ledger 6: the 150 bid alone pays 100.
    await sb.closeLedgers(1)
    await sb.call('sandbox_setLedgerLimits', { classicOps: 1000 })
    // Ledger 7: a fee bump of a one-operation payment pays 100 × 2 for 1 operation (200);
    // a two-operation payment pays 100 per operation.
    const inner = await build(a, 100, 1, b.publicKey())
    const bump = TransactionBuilder.buildFeeBumpTransaction(b, '500', inner, sb.networkPassphrase)
    bump.sign(b)
    await send(bump)
    await send(await build(c, 500, 2, a.publicKey()))
    const latest = await sb.closeLedgers(1)
    expect(latest).toBe(7)

    // Classic samples: 100 100 100 | 300 300 | 100 | 200 100 → sorted 100 ×5, 200, 300, 300.
    const stats = await sb.call<FeeStats>('getFeeStats')
    expect(stats.latestLedger).toBe(7)
    expect(stats.inclusionFee).toEqual(dist([300, 100, 100, 100, 100, 100, 100, 100, 100, 200, 300, 300, 300, 300], 8, 7))
    expect(stats.sorobanInclusionFee).toEqual(dist(Array(14).fill(0), 0, 0))
    expect(await sb.server.getFeeStats()).toMatchObject({ inclusionFee: { p70: '200', transactionCount: '8', ledgerCount: 7 } })

    // The classic window is 10 ledgers: at ledger 12 the first airdrop (ledger 2) falls out.
    await sb.closeLedgers(4)
    expect((await sb.call<FeeStats>('getFeeStats')).inclusionFee).toMatchObject({ transactionCount: '8', ledgerCount: 10 })
    await sb.closeLedgers(1)
    expect((await sb.call<FeeStats>('getFeeStats')).inclusionFee).toEqual(
      dist([300, 100, 100, 100, 100, 100, 100, 100, 200, 200, 300, 300, 300, 300], 7, 10),
    )

    // Soroban: the inclusion fee charged is the fee charged less the resource fees; a bid of
    // 500 with room to spare pays the base fee.
    const deploy = new TransactionBuilder(await sb.server.getAccount(a.publicKey()), { fee: '500', networkPassphrase: sb.networkPassphrase })
      .addOperation(Operation.createStellarAssetContract({ asset: Asset.native() }))
      .setTimeout(300)
      .build()
    const prepared = await sb.server.prepareTransaction(deploy)
    prepared.sign(a)
    await send(prepared)
    const last = await sb.closeLedgers(1)
    const after = await sb.call<FeeStats>('getFeeStats')
    expect(after.sorobanInclusionFee).toEqual(dist(Array(14).fill(100), 1, last))
    expect(after.inclusionFee).toMatchObject({ transactionCount: '6', ledgerCount: 10 })
  })
})
