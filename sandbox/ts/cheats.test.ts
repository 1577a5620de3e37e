import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Asset, BASE_FEE, Keypair, Operation, TimeoutInfinite, TransactionBuilder, rpc } from '@stellar/stellar-sdk'
import { startSandbox, type ClosedLedger, type Sandbox } from './launch.js'

let sb: Sandbox

beforeAll(async () => {
  sb = await startSandbox({ manual: true })
})
afterAll(async () => {
  await sb?.stop()
})

async function payment(s: Sandbox, from: Keypair, to: string, amount: string, timeout = 60) {
  const acc = await s.server.getAccount(from.publicKey())
  const tx = new TransactionBuilder(acc, { fee: BASE_FEE, networkPassphrase: s.networkPassphrase })
    .addOperation(Operation.payment({ destination: to, asset: Asset.native(), amount }))
    .setTimeout(timeout)
    .build()
  tx.sign(from)
  return tx
}

async function balance(s: Sandbox, who: string): Promise<bigint> {
  return BigInt((await s.server.getAccountEntry(who)).balance.toString())
}

describe('ledgers, time and cheats (manual closing)', () => {
  it('applies two transactions in one ledger, in the order it answers; getTransaction(s) follow it', async () => {
    const a = Keypair.random()
    const b = Keypair.random()
    await sb.server.requestAirdrop(a.publicKey())
    await sb.server.requestAirdrop(b.publicKey())
    const s1 = await sb.server.sendTransaction(await payment(sb, a, b.publicKey(), '5'))
    const s2 = await sb.server.sendTransaction(await payment(sb, b, a.publicKey(), '7'))
    expect([s1.status, s2.status]).toEqual(['PENDING', 'PENDING'])
    expect((await sb.server.getTransaction(s1.hash)).status).toBe('NOT_FOUND')
    // stellar-core's order, drawn from the set's hash: either may go first.
    const closed = await sb.call<ClosedLedger>('sandbox_closeLedgers', { count: 1 })
    const seq = closed.latestLedger
    expect(closed).toEqual({ latestLedger: seq, applied: expect.any(Array), dropped: [], baseFee: [100, 100], surged: [false, false], held: 0 })
    expect([...closed.applied].sort()).toEqual([s1.hash, s2.hash].sort())
    const [first, second] = closed.applied as [string, string]
    const r1 = await sb.server.getTransaction(first)
    const r2 = await sb.server.getTransaction(second)
    expect(r1.status).toBe('SUCCESS')
    expect(r2.status).toBe('SUCCESS')
    if (r1.status !== 'SUCCESS' || r2.status !== 'SUCCESS') return
    expect(r1.ledger).toBe(seq)
    expect(r2.ledger).toBe(seq)
    expect(r1.applicationOrder).toBe(1)
    expect(r2.applicationOrder).toBe(2)
    const txs = await sb.server.getTransactions({ startLedger: seq, pagination: { limit: 1 } })
    expect(txs.transactions[0]!.txHash).toBe(first)
    const next = await sb.server.getTransactions({ pagination: { cursor: txs.cursor, limit: 5 } })
    expect(next.transactions[0]!.txHash).toBe(second)
    const ledgers = await sb.server.getLedgers({ startLedger: seq })
    expect(ledgers.ledgers[0]!.sequence).toBe(seq)
  })

  it('applies in arrival order on a node started with applyOrder: arrival', async () => {
    const s = await startSandbox({ manual: true, applyOrder: 'arrival' })
    try {
      const keys = Array.from({ length: 6 }, () => Keypair.random())
      for (const k of keys) await s.server.requestAirdrop(k.publicKey())
      const sent: string[] = []
      for (const k of keys) sent.push((await s.server.sendTransaction(await payment(s, k, keys[0]!.publicKey(), '1'))).hash)
      const closed = await s.call<ClosedLedger>('sandbox_closeLedgers', { count: 1 })
      expect(closed.applied).toEqual(sent)
      const orders = await Promise.all(
        sent.map(async (h) => {
          const r = await s.server.getTransaction(h)
          return r.status === rpc.Api.GetTransactionStatus.SUCCESS ? r.applicationOrder : r.status
        }),
      )
      expect(orders).toEqual([1, 2, 3, 4, 5, 6])
    } finally {
      await s.stop()
    }
  })

  it('closes with only the transactions that `arrived` as candidates; the others wait', async () => {
    const [a, b] = [Keypair.random(), Keypair.random()]
    for (const k of [a, b]) await sb.server.requestAirdrop(k.publicKey())
    const s1 = await sb.server.sendTransaction(await payment(sb, a, b.publicKey(), '1'))
    const s2 = await sb.server.sendTransaction(await payment(sb, b, a.publicKey(), '2'))
    const closed = await sb.call<ClosedLedger>('sandbox_closeLedgers', { count: 1, arrived: [s2.hash] })
    expect(closed).toEqual({ latestLedger: closed.latestLedger, applied: [s2.hash], dropped: [], baseFee: [100, 100], surged: [false, false], held: 1 })
    expect((await sb.server.getTransaction(s1.hash)).status).toBe('NOT_FOUND')
    await expect(sb.call('sandbox_closeLedgers', { count: 1, arrived: ['00'.repeat(32)] })).rejects.toThrow(`arrived: ${'00'.repeat(32)} is not pending`)
    expect((await sb.call<ClosedLedger>('sandbox_closeLedgers', { count: 1 })).applied).toEqual([s1.hash])
  })

  it('replaces a pending transaction by a fee bump bidding ten times its fee', async () => {
    const [a, b, payer] = [Keypair.random(), Keypair.random(), Keypair.random()]
    for (const k of [a, b, payer]) await sb.server.requestAirdrop(k.publicKey())
    const tx = await payment(sb, a, b.publicKey(), '1')
    const old = await sb.server.sendTransaction(tx)
    expect(old.status).toBe('PENDING')
    // The fee bump counts two operations: 100 × 10 × 2 = 2000 at least; 999 per operation is 1998.
    const low = TransactionBuilder.buildFeeBumpTransaction(payer, '999', tx, sb.networkPassphrase)
    low.sign(payer)
    const refused = await sb.server.sendTransaction(low)
    expect(refused.status).toBe('ERROR')
    expect(refused.errorResult?.result.type).toBe('txInsufficientFee')
    expect(refused.errorResult?.feeCharged.toString()).toBe('2000')
    const bump = TransactionBuilder.buildFeeBumpTransaction(payer, '1000', tx, sb.networkPassphrase)
    bump.sign(payer)
    const sent = await sb.server.sendTransaction(bump)
    expect(sent.status).toBe('PENDING')
    expect((await sb.server.sendTransaction(tx)).status).toBe('DUPLICATE')
    const closed = await sb.call<ClosedLedger>('sandbox_closeLedgers', { count: 1 })
    expect(closed.applied).toEqual([sent.hash])
    const r = await sb.server.getTransaction(sent.hash)
    expect(r.status).toBe('SUCCESS')
    if (r.status !== 'SUCCESS') return
    expect(r.resultXdr.feeCharged.toString()).toBe('200')
    expect((await sb.server.getTransaction(old.hash)).status).toBe('NOT_FOUND')
  })

  it('closes a ledger with the pending transactions named in `order`, in that order, and holds the rest', async () => {
    const [a, b, c] = [Keypair.random(), Keypair.random(), Keypair.random()]
    for (const k of [a, b, c]) await sb.server.requestAirdrop(k.publicKey())
    const s1 = await sb.server.sendTransaction(await payment(sb, a, c.publicKey(), '1'))
    const s2 = await sb.server.sendTransaction(await payment(sb, b, c.publicKey(), '2'))
    const s3 = await sb.server.sendTransaction(await payment(sb, c, a.publicKey(), '3'))
    const res = await sb.call<{ latestLedger: number; held: number }>('sandbox_closeLedgers', { count: 1, order: [s2.hash, s1.hash] })
    expect(res.held).toBe(1)
    const order = async (hash: string) => {
      const r = await sb.server.getTransaction(hash)
      return r.status === 'SUCCESS' ? { ledger: r.ledger, order: r.applicationOrder } : r.status
    }
    expect(await order(s2.hash)).toEqual({ ledger: res.latestLedger, order: 1 })
    expect(await order(s1.hash)).toEqual({ ledger: res.latestLedger, order: 2 })
    expect(await order(s3.hash)).toBe('NOT_FOUND')
    const next = await sb.closeLedgers(1)
    expect(await order(s3.hash)).toEqual({ ledger: next, order: 1 })
    await expect(sb.call('sandbox_closeLedgers', { order: ['00'.repeat(32)] })).rejects.toThrow(/not pending/)
    await expect(sb.call('sandbox_closeLedgers', { count: 2, order: [] })).rejects.toThrow(/only with count 1/)
  })

  it('switches instant closing on and off', async () => {
    const a = Keypair.random()
    await sb.server.requestAirdrop(a.publicKey())
    expect(await sb.call('sandbox_setInstant', { enabled: true })).toEqual({ instant: true })
    const sent = await sb.server.sendTransaction(await payment(sb, a, a.publicKey(), '1'))
    expect((await sb.server.getTransaction(sent.hash)).status).toBe('SUCCESS')
    await sb.call('sandbox_setInstant', { enabled: false })
    const held = await sb.server.sendTransaction(await payment(sb, a, a.publicKey(), '1'))
    expect((await sb.server.getTransaction(held.hash)).status).toBe('NOT_FOUND')
    await sb.closeLedgers(1)
    await expect(sb.call('sandbox_setInstant', {})).rejects.toThrow(/enabled/)
  })

  it('accepts a fee bump and charges the fee source', async () => {
    const inner = Keypair.random()
    const payer = Keypair.random()
    await sb.server.requestAirdrop(inner.publicKey())
    await sb.server.requestAirdrop(payer.publicKey())
    const tx = await payment(sb, inner, payer.publicKey(), '1')
    const bump = TransactionBuilder.buildFeeBumpTransaction(payer, '200', tx, sb.networkPassphrase)
    bump.sign(payer)
    const before = await balance(sb, payer.publicKey())
    const sent = await sb.server.sendTransaction(bump)
    expect(sent.status).toBe('PENDING')
    await sb.closeLedgers(1)
    const r = await sb.server.getTransaction(sent.hash)
    expect(r.status).toBe('SUCCESS')
    if (r.status !== 'SUCCESS') return
    expect(r.feeBump).toBe(true)
    expect(await balance(sb, payer.publicKey())).toBe(before + 10_000_000n - 200n)
  })

  it('moves time forward', async () => {
    const t0 = Number((await sb.server.getLatestLedger()).closeTime)
    await sb.advanceTime(3600)
    await sb.closeLedgers(1)
    const t1 = Number((await sb.server.getLatestLedger()).closeTime)
    expect(t1).toBeGreaterThanOrEqual(t0 + 3600)
  })

  it('reverts to a snapshot', async () => {
    const a = Keypair.random()
    const b = Keypair.random()
    await sb.server.requestAirdrop(a.publicKey())
    await sb.server.requestAirdrop(b.publicKey())
    const { id } = await sb.call<{ id: number }>('sandbox_snapshot')
    const ledgerBefore = (await sb.server.getLatestLedger()).sequence
    await sb.server.sendTransaction(await payment(sb, a, b.publicKey(), '100'))
    await sb.closeLedgers(3)
    expect(await balance(sb, b.publicKey())).toBe(101_000_000_000n)
    await sb.call('sandbox_revert', { id })
    expect(await balance(sb, b.publicKey())).toBe(100_000_000_000n)
    expect((await sb.server.getLatestLedger()).sequence).toBe(ledgerBefore)
    await expect(sb.call('sandbox_revert', { id: 99 })).rejects.toThrow(/no snapshot/)
  })

  it('writes state on stop and loads it on start', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sandbox-state-')), 'state.json')
    const first = await startSandbox({ manual: true, state: file })
    const kp = Keypair.random()
    await first.server.requestAirdrop(kp.publicKey())
    const seq = (await first.server.getLatestLedger()).sequence
    await first.stop()
    const second = await startSandbox({ manual: true, state: file })
    try {
      expect(await balance(second, kp.publicKey())).toBe(100_000_000_000n)
      expect((await second.server.getLatestLedger()).sequence).toBe(seq)
    } finally {
      await second.stop()
    }
  })

  it('applies a transaction at once with instant closing', async () => {
    const fast = await startSandbox({ manual: true, instant: true })
    try {
      const a = Keypair.random()
      const b = Keypair.random()
      await fast.server.requestAirdrop(a.publicKey())
      await fast.server.requestAirdrop(b.publicKey())
      const before = (await fast.server.getLatestLedger()).sequence
      const sent = await fast.server.sendTransaction(await payment(fast, a, b.publicKey(), '3'))
      expect(sent.status).toBe('PENDING')
      const r = await fast.server.getTransaction(sent.hash)
      expect(r.status).toBe('SUCCESS')
      expect((await fast.server.getLatestLedger()).sequence).toBe(before + 1)
    } finally {
      await fast.stop()
    }
  })

  it('keeps history for the retention window only', async () => {
    const small = await startSandbox({ manual: true, extraArgs: ['--retention-window', '5'] })
    try {
      const kp = Keypair.random()
      await small.server.requestAirdrop(kp.publicKey())
      const latest = await small.closeLedgers(10)
      const health = await small.server.getHealth()
      expect(health.oldestLedger).toBe(latest - 4)
      expect(health.ledgerRetentionWindow).toBe(5)
      await expect(small.server.getEvents({ startLedger: 1, filters: [] })).rejects.toThrow(/startLedger must be within the ledger range: \d+ - \d+/)
    } finally {
      await small.stop()
    }
  })

  it('rejects unknown methods and bad params with JSON-RPC error codes', async () => {
    await expect(sb.call('noSuchMethod')).rejects.toThrow(/code -32601/)
    await expect(sb.call('getLedgerEntries', { keys: ['not-xdr'] })).rejects.toThrow(/code -32602/)
    await expect(sb.call('sandbox_closeLedgers', { count: 'many' })).rejects.toThrow(/code -32602/)
  })
})

describe('determinism', () => {
  async function run(): Promise<{ header: string; results: string[] }> {
    const s = await startSandbox({ manual: true, seed: 42 })
    try {
      const a = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 1))
      const b = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 2))
      await s.server.requestAirdrop(a.publicKey())
      await s.server.requestAirdrop(b.publicKey())
      const sent = await s.server.sendTransaction(await payment(s, a, b.publicKey(), '12.5', TimeoutInfinite))
      await s.closeLedgers(1)
      // A Soroban transaction too: deploying the native asset contract.
      const deploy = new TransactionBuilder(await s.server.getAccount(b.publicKey()), { fee: BASE_FEE, networkPassphrase: s.networkPassphrase })
        .addOperation(Operation.createStellarAssetContract({ asset: Asset.native() }))
        .setTimeout(TimeoutInfinite)
        .build()
      const prepared = await s.server.prepareTransaction(deploy)
      prepared.sign(b)
      const sent2 = await s.server.sendTransaction(prepared)
      await s.closeLedgers(2)
      const results: string[] = []
      for (const h of [sent.hash, sent2.hash]) {
        const r = await s.server.getTransaction(h)
        results.push(r.status === rpc.Api.GetTransactionStatus.SUCCESS ? r.resultXdr.toXdr('base64') + r.resultMetaXdr.toXdr('base64') : 'failed')
      }
      const raw = await s.call<{ headerXdr: string }>('getLatestLedger')
      return { header: raw.headerXdr, results }
    } finally {
      await s.stop()
    }
  }

  it('gives byte-identical ledger headers and results for the same seed and transactions', async () => {
    const [x, y] = await Promise.all([run(), run()])
    expect(x.results).not.toContain('failed')
    expect(x).toEqual(y)
  })
})
