/**
 * What the queue admits from one source account, through @stellar/stellar-sdk: under the default
 * strict rules (stellar-core's TransactionQueue) a second transaction of an account with one
 * pending is answered TRY_AGAIN_LATER, and goes in once a ledger has taken the first; a fee bump
 * of the pending one still replaces it. `queueRules: 'relaxed'` queues both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Account, Asset, Keypair, Operation, TransactionBuilder, rpc, type Transaction } from '@stellar/stellar-sdk'
import { startSandbox, type Sandbox } from './launch.js'

let strict: Sandbox
let relaxed: Sandbox

beforeAll(async () => {
  ;[strict, relaxed] = await Promise.all([startSandbox({ manual: true }), startSandbox({ manual: true, queueRules: 'relaxed' })])
})
afterAll(async () => {
  await Promise.all([strict?.stop(), relaxed?.stop()])
})

/** A signed one-stroop payment to itself from `kp` at `account`'s next sequence number (which it advances). */
function payment(sb: Sandbox, kp: Keypair, account: Account, fee = '100'): Transaction {
  const tx = new TransactionBuilder(account, { fee, networkPassphrase: sb.networkPassphrase })
    .addOperation(Operation.payment({ destination: kp.publicKey(), asset: Asset.native(), amount: '0.0000001' }))
    .setTimeout(60)
    .build()
  tx.sign(kp)
  return tx
}

/** The hash clients know a transaction by, as getTransaction takes it. */
const hex = (tx: { hash(): Uint8Array }): string => Buffer.from(tx.hash()).toString('hex')

async function funded(sb: Sandbox): Promise<{ kp: Keypair; account: Account }> {
  const kp = Keypair.random()
  const account = await sb.server.requestAirdrop(kp.publicKey())
  return { kp, account }
}

describe('queue rules through rpc.Server.sendTransaction', () => {
  it('strict: a second transaction of one account is TRY_AGAIN_LATER until a ledger takes the first', async () => {
    const { kp, account } = await funded(strict)
    const first = payment(strict, kp, account)
    const second = payment(strict, kp, account)
    expect((await strict.server.sendTransaction(first)).status).toBe('PENDING')
    const refused = await strict.server.sendTransaction(second)
    expect(refused.status).toBe('TRY_AGAIN_LATER')
    expect(refused.hash).toBe(hex(second))
    expect(refused.errorResult).toBeUndefined()
    expect(Object.keys(refused).sort()).toEqual(['hash', 'latestLedger', 'latestLedgerCloseTime', 'status'])

    await strict.closeLedgers(1)
    expect((await strict.server.getTransaction(hex(first))).status).toBe(rpc.Api.GetTransactionStatus.SUCCESS)
    expect((await strict.server.getTransaction(hex(second))).status).toBe(rpc.Api.GetTransactionStatus.NOT_FOUND)
    // The same envelope, sent again after the close, goes in.
    expect((await strict.server.sendTransaction(second)).status).toBe('PENDING')
    await strict.closeLedgers(1)
    expect((await strict.server.getTransaction(hex(second))).status).toBe(rpc.Api.GetTransactionStatus.SUCCESS)
  })

  it('strict: a fee bump of the pending transaction replaces it; one of another sequence number waits', async () => {
    const { kp, account } = await funded(strict)
    const payer = (await funded(strict)).kp
    const first = payment(strict, kp, account)
    const later = payment(strict, kp, account)
    expect((await strict.server.sendTransaction(first)).status).toBe('PENDING')
    const bump = (inner: Transaction, fee: string) => {
      const fb = TransactionBuilder.buildFeeBumpTransaction(payer, fee, inner, strict.networkPassphrase)
      fb.sign(payer)
      return fb
    }
    expect((await strict.server.sendTransaction(bump(later, '100000'))).status).toBe('TRY_AGAIN_LATER')
    // 100 per operation pending; ten times that over the bump's two operations.
    const replacement = bump(first, '2000')
    expect((await strict.server.sendTransaction(replacement)).status).toBe('PENDING')
    await strict.closeLedgers(1)
    expect((await strict.server.getTransaction(hex(replacement))).status).toBe(rpc.Api.GetTransactionStatus.SUCCESS)
  })

  it("relaxed: one account's two transactions are both PENDING and land in one ledger", async () => {
    const { kp, account } = await funded(relaxed)
    const txs = [payment(relaxed, kp, account), payment(relaxed, kp, account)]
    for (const tx of txs) expect((await relaxed.server.sendTransaction(tx)).status).toBe('PENDING')
    const seq = await relaxed.closeLedgers(1)
    for (const tx of txs) {
      const got = await relaxed.server.getTransaction(hex(tx))
      expect(got.status).toBe(rpc.Api.GetTransactionStatus.SUCCESS)
      expect(got.status === rpc.Api.GetTransactionStatus.SUCCESS && got.ledger).toBe(seq)
    }
  })
})
