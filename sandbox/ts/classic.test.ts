import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Asset, BASE_FEE, Keypair, Operation, TransactionBuilder, rpc } from '@stellar/stellar-sdk'
import { startSandbox, type Sandbox } from './launch.js'

let sb: Sandbox

beforeAll(async () => {
  sb = await startSandbox({ ledgerIntervalSeconds: 0.2 })
})
afterAll(async () => {
  await sb?.stop()
})

async function submit(tx: ReturnType<TransactionBuilder['build']>) {
  const sent = await sb.server.sendTransaction(tx)
  if (sent.status !== 'PENDING') return { sent, final: undefined }
  const final = await sb.server.pollTransaction(sent.hash, { attempts: 50, sleepStrategy: () => 100 })
  return { sent, final }
}

describe('classic operations through rpc.Server', () => {
  it('answers network metadata', async () => {
    const net = await sb.server.getNetwork()
    expect(net.passphrase).toBe('Standalone Network ; February 2017')
    expect(net.friendbotUrl).toBe(sb.friendbotUrl)
    const latest = await sb.server.getLatestLedger()
    expect(latest.sequence).toBeGreaterThan(0)
    const health = await sb.server.getHealth()
    expect(health.status).toBe('healthy')
  })

  it('funds accounts with friendbot, at once', async () => {
    const kp = Keypair.random()
    const account = await sb.server.requestAirdrop(kp.publicKey())
    expect(account.accountId()).toBe(kp.publicKey())
    const entry = await sb.server.getAccountEntry(kp.publicKey())
    expect(entry.balance.toString()).toBe('100000000000')
    // As with Stellar's friendbot: an existing account gets a 400 whose detail says it is funded
    // (stellar-cli and wallets take that as success; the SDK's requestAirdrop passes it on).
    await expect(sb.server.requestAirdrop(kp.publicKey())).rejects.toMatchObject({
      response: { status: 400, data: { detail: 'account already funded to starting balance' } },
    })
  })

  it('issues a credit asset: trustline, payment, auth flags', async () => {
    const issuer = Keypair.random()
    const holder = Keypair.random()
    await sb.server.requestAirdrop(issuer.publicKey())
    await sb.server.requestAirdrop(holder.publicKey())
    const usdc = new Asset('USDC', issuer.publicKey())

    const holderAcc = await sb.server.getAccount(holder.publicKey())
    const trust = new TransactionBuilder(holderAcc, { fee: BASE_FEE, networkPassphrase: sb.networkPassphrase })
      .addOperation(Operation.changeTrust({ asset: usdc }))
      .setTimeout(30)
      .build()
    trust.sign(holder)
    expect((await submit(trust)).final?.status).toBe(rpc.Api.GetTransactionStatus.SUCCESS)

    const issuerAcc = await sb.server.getAccount(issuer.publicKey())
    const pay = new TransactionBuilder(issuerAcc, { fee: BASE_FEE, networkPassphrase: sb.networkPassphrase })
      .addOperation(Operation.payment({ destination: holder.publicKey(), asset: usdc, amount: '250.5' }))
      .setTimeout(30)
      .build()
    pay.sign(issuer)
    const { final } = await submit(pay)
    expect(final?.status).toBe(rpc.Api.GetTransactionStatus.SUCCESS)

    const tl = await sb.server.getTrustline(holder.publicKey(), usdc)
    expect(tl.balance.toString()).toBe('2505000000')
  })

  it('rejects a bad sequence number with txBAD_SEQ and a missing signature with txBAD_AUTH', async () => {
    const kp = Keypair.random()
    await sb.server.requestAirdrop(kp.publicKey())
    const acc = await sb.server.getAccount(kp.publicKey())
    acc.incrementSequenceNumber()
    const bad = new TransactionBuilder(acc, { fee: BASE_FEE, networkPassphrase: sb.networkPassphrase })
      .addOperation(Operation.payment({ destination: kp.publicKey(), asset: Asset.native(), amount: '1' }))
      .setTimeout(30)
      .build()
    bad.sign(kp)
    const sent = await sb.server.sendTransaction(bad)
    expect(sent.status).toBe('ERROR')
    expect(sent.errorResult?.result.type).toBe('txBadSeq')

    const acc2 = await sb.server.getAccount(kp.publicKey())
    const unsigned = new TransactionBuilder(acc2, { fee: BASE_FEE, networkPassphrase: sb.networkPassphrase })
      .addOperation(Operation.payment({ destination: kp.publicKey(), asset: Asset.native(), amount: '1' }))
      .setTimeout(30)
      .build()
    const sent2 = await sb.server.sendTransaction(unsigned)
    expect(sent2.status).toBe('ERROR')
    expect(sent2.errorResult?.result.type).toBe('txBadAuth')
  })

  it('charges fee and sequence for a failed transaction', async () => {
    const kp = Keypair.random()
    await sb.server.requestAirdrop(kp.publicKey())
    const acc = await sb.server.getAccount(kp.publicKey())
    const before = BigInt((await sb.server.getAccountEntry(kp.publicKey())).balance.toString())
    // Pays to an account that does not exist: op_no_destination.
    const tx = new TransactionBuilder(acc, { fee: BASE_FEE, networkPassphrase: sb.networkPassphrase })
      .addOperation(Operation.payment({ destination: Keypair.random().publicKey(), asset: Asset.native(), amount: '1' }))
      .setTimeout(30)
      .build()
    tx.sign(kp)
    const { final } = await submit(tx)
    expect(final?.status).toBe(rpc.Api.GetTransactionStatus.FAILED)
    const entry = await sb.server.getAccountEntry(kp.publicKey())
    expect(BigInt(entry.balance.toString())).toBe(before - 100n)
    expect(entry.seqNum.toString()).toBe(tx.sequence)
  })
})
