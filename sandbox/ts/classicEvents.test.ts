// Classic operations' unified (CAP-67) events, read back through @stellar/stellar-sdk:
// getEvents on the asset's Stellar Asset Contract id (not deployed) and getTransaction's events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  Asset,
  AuthRequiredFlag,
  AuthRevocableFlag,
  BASE_FEE,
  Keypair,
  Memo,
  MuxedAccount,
  Operation,
  TransactionBuilder,
  nativeToScVal,
  rpc,
  scValToNative,
  xdr,
} from '@stellar/stellar-sdk'
import { startSandbox, type Sandbox } from './launch.js'

let sb: Sandbox

beforeAll(async () => {
  sb = await startSandbox({ manual: true, instant: true })
})
afterAll(async () => {
  await sb?.stop()
})

const sym = (s: string) => nativeToScVal(s, { type: 'symbol' }).toXdr('base64')

interface Sent {
  hash: string
  ledger: number
  status: rpc.Api.GetTransactionStatus
  contractEvents: xdr.ContractEvent[][]
}

async function send(source: Keypair, ops: xdr.Operation[], memo?: Memo): Promise<Sent> {
  const b = new TransactionBuilder(await sb.server.getAccount(source.publicKey()), { fee: BASE_FEE, networkPassphrase: sb.networkPassphrase })
  for (const op of ops) b.addOperation(op)
  if (memo) b.addMemo(memo)
  const tx = b.setTimeout(30).build()
  tx.sign(source)
  const sent = await sb.server.sendTransaction(tx)
  expect(sent.status).toBe('PENDING')
  const got = await sb.server.pollTransaction(sent.hash, { attempts: 50, sleepStrategy: () => 50 })
  if (got.status === rpc.Api.GetTransactionStatus.NOT_FOUND) throw new Error('transaction not applied')
  return { hash: sent.hash, ledger: got.ledger, status: got.status, contractEvents: got.events.contractEventsXdr }
}

async function funded(): Promise<Keypair> {
  const kp = Keypair.random()
  await sb.server.requestAirdrop(kp.publicKey())
  return kp
}

/** The events of `asset`'s contract in `ledger` whose first topic is `name`, decoded. */
async function assetEvents(asset: Asset, ledger: number, name: string) {
  const res = await sb.server.getEvents({
    startLedger: ledger,
    endLedger: ledger + 1,
    filters: [{ type: 'contract', contractIds: [asset.contractId(sb.networkPassphrase)], topics: [[sym(name), '**']] }],
  })
  return res.events.map((e) => ({
    type: e.type,
    contractId: e.contractId?.contractId(),
    topics: e.topic.map((t) => scValToNative(t)),
    value: scValToNative(e.value),
    txHash: e.txHash,
    id: e.id,
    operationIndex: e.operationIndex,
    transactionIndex: e.transactionIndex,
    ok: e.inSuccessfulContractCall,
  }))
}

function decoded(e: xdr.ContractEvent) {
  const body = e.body.v0
  return { topics: body.topics.map((t) => scValToNative(t)), value: scValToNative(body.data) }
}

const toid = (ledger: number, tx: number, op: number) => ((BigInt(ledger) << 32n) | (BigInt(tx) << 12n) | BigInt(op)).toString().padStart(19, '0')

describe('classic operations emit unified events', () => {
  it("friendbot's CreateAccount is a native transfer from the root account, after its fee event", async () => {
    const kp = Keypair.random()
    await sb.server.requestAirdrop(kp.publicKey())
    const ledger = (await sb.server.getLatestLedger()).sequence
    const root = Keypair.master(sb.networkPassphrase).publicKey()
    const native = Asset.native()
    const [transfer, ...more] = await assetEvents(native, ledger, 'transfer')
    expect(more).toEqual([])
    expect(transfer).toMatchObject({
      type: 'contract',
      contractId: native.contractId(sb.networkPassphrase),
      topics: ['transfer', root, kp.publicKey(), 'native'],
      value: 100_000_000_000n,
      id: `${toid(ledger, 1, 0)}-0000000000`,
      operationIndex: 0,
      transactionIndex: 1,
      ok: true,
    })
    const [fee] = await assetEvents(native, ledger, 'fee')
    expect(fee).toMatchObject({ topics: ['fee', root], value: 100n, id: `${toid(ledger, 0, 0)}-0000000000`, operationIndex: 0, transactionIndex: 0, ok: true })
  })

  it('a native payment and a CreateAccount are transfers; a memo becomes to_muxed_id', async () => {
    const [a, b] = [await funded(), await funded()]
    const c = Keypair.random()
    const sent = await send(
      a,
      [Operation.payment({ destination: b.publicKey(), asset: Asset.native(), amount: '12.5' }), Operation.createAccount({ destination: c.publicKey(), startingBalance: '5' })],
      Memo.text('invoice 7'),
    )
    expect(sent.status).toBe('SUCCESS')
    const events = await assetEvents(Asset.native(), sent.ledger, 'transfer')
    expect(events.map((e) => [e.topics, e.value, e.operationIndex, e.txHash])).toEqual([
      [['transfer', a.publicKey(), b.publicKey(), 'native'], { amount: 125_000_000n, to_muxed_id: 'invoice 7' }, 0, sent.hash],
      [['transfer', a.publicKey(), c.publicKey(), 'native'], { amount: 50_000_000n, to_muxed_id: 'invoice 7' }, 1, sent.hash],
    ])
    // The same events, per operation, in getTransaction.
    expect(sent.contractEvents.map((op) => op.map(decoded))).toEqual(events.map((e) => [{ topics: e.topics, value: e.value }]))
    const plain = await send(a, [Operation.payment({ destination: b.publicKey(), asset: Asset.native(), amount: '1' })])
    expect((await assetEvents(Asset.native(), plain.ledger, 'transfer')).map((e) => e.value)).toEqual([10_000_000n])
  })

  it('credit asset: set_authorized, mint from the issuer, transfer to a muxed holder, burn to the issuer; a failed payment records none', async () => {
    const [issuer, h1, h2] = [await funded(), await funded(), await funded()]
    const usdc = new Asset('USDC', issuer.publicKey())
    const asset = `USDC:${issuer.publicKey()}`
    const flags = await send(issuer, [Operation.setOptions({ setFlags: AuthRequiredFlag | AuthRevocableFlag })])
    expect(flags.contractEvents).toEqual([[]])
    for (const h of [h1, h2]) {
      const trust = await send(h, [Operation.changeTrust({ asset: usdc })])
      expect(trust.contractEvents).toEqual([[]])
      const auth = await send(issuer, [Operation.setTrustLineFlags({ trustor: h.publicKey(), asset: usdc, flags: { authorized: true } })])
      expect((await assetEvents(usdc, auth.ledger, 'set_authorized')).map((e) => [e.topics, e.value])).toEqual([[['set_authorized', h.publicKey(), asset], true]])
    }

    const mint = await send(issuer, [Operation.payment({ destination: h1.publicKey(), asset: usdc, amount: '100' })])
    const [minted] = await assetEvents(usdc, mint.ledger, 'mint')
    expect(minted).toMatchObject({ contractId: usdc.contractId(sb.networkPassphrase), topics: ['mint', h1.publicKey(), asset], value: 1_000_000_000n, txHash: mint.hash })

    const muxed = new MuxedAccount(await sb.server.getAccount(h2.publicKey()), '42').accountId()
    const pay = await send(h1, [Operation.payment({ destination: muxed, asset: usdc, amount: '40' })])
    expect((await assetEvents(usdc, pay.ledger, 'transfer')).map((e) => [e.topics, e.value])).toEqual([
      [['transfer', h1.publicKey(), h2.publicKey(), asset], { amount: 400_000_000n, to_muxed_id: 42n }],
    ])

    const burn = await send(h2, [Operation.payment({ destination: issuer.publicKey(), asset: usdc, amount: '15' })], Memo.id('9'))
    expect((await assetEvents(usdc, burn.ledger, 'burn')).map((e) => [e.topics, e.value])).toEqual([[['burn', h2.publicKey(), asset], 150_000_000n]])

    const failed = await send(h1, [Operation.payment({ destination: h2.publicKey(), asset: usdc, amount: '1000' })])
    expect(failed.status).toBe('FAILED')
    expect(failed.contractEvents).toEqual([])
    expect(await assetEvents(usdc, failed.ledger, 'transfer')).toEqual([])
    const [fee] = await assetEvents(Asset.native(), failed.ledger, 'fee')
    expect(fee).toMatchObject({ topics: ['fee', h1.publicKey()], value: 100n, ok: false })

    // Revoking down to maintain-liabilities: set_authorized false.
    const revoke = await send(issuer, [Operation.setTrustLineFlags({ trustor: h2.publicKey(), asset: usdc, flags: { authorized: false, authorizedToMaintainLiabilities: true } })])
    expect((await assetEvents(usdc, revoke.ledger, 'set_authorized')).map((e) => e.value)).toEqual([false])
  })

  it('orders a ledger as stellar-rpc does: fee events, then operation events per transaction; paging walks it and ends past the ledger', async () => {
    const [a, b] = [await funded(), await funded()]
    await sb.call('sandbox_setInstant', { enabled: false })
    try {
      const hashes: string[] = []
      for (const [from, to] of [
        [a, b],
        [b, a],
      ] as const) {
        const tx = new TransactionBuilder(await sb.server.getAccount(from.publicKey()), { fee: BASE_FEE, networkPassphrase: sb.networkPassphrase })
          .addOperation(Operation.payment({ destination: to.publicKey(), asset: Asset.native(), amount: '1' }))
          .setTimeout(30)
          .build()
        tx.sign(from)
        hashes.push((await sb.server.sendTransaction(tx)).hash)
      }
      const ledger = await sb.closeLedgers(1)
      // The two in the order the ledger applied them (stellar-core's, drawn from the set's hash).
      const order = await Promise.all(
        hashes.map(async (h) => {
          const r = await sb.server.getTransaction(h)
          return r.status === rpc.Api.GetTransactionStatus.SUCCESS ? r.applicationOrder : 0
        }),
      )
      const [first, second] = hashes.map((h, i) => [h, order[i]!] as const).sort((x, y) => x[1] - y[1]).map(([h]) => h)
      expect([...order].sort()).toEqual([1, 2])
      const all = await sb.server.getEvents({ startLedger: ledger, endLedger: ledger + 1, filters: [] })
      expect(all.events.map((e) => [e.id, e.transactionIndex, e.operationIndex, e.txHash, scValToNative(e.topic[0]!)])).toEqual([
        [`${toid(ledger, 0, 0)}-0000000000`, 0, 0, first, 'fee'],
        [`${toid(ledger, 0, 0)}-0000000001`, 0, 0, second, 'fee'],
        [`${toid(ledger, 1, 0)}-0000000000`, 1, 0, first, 'transfer'],
        [`${toid(ledger, 2, 0)}-0000000000`, 2, 0, second, 'transfer'],
      ])
      // The end-of-window cursor is the last id of the ledger before endLedger.
      expect(all.cursor).toBe(`${toid(ledger, (1 << 20) - 1, (1 << 12) - 1)}-4294967295`)
      const ids: string[] = []
      let page = await sb.server.getEvents({ startLedger: ledger, filters: [], limit: 1 })
      while (page.events.length > 0) {
        ids.push(page.events[0]!.id)
        page = await sb.server.getEvents({ cursor: page.cursor, filters: [], limit: 1 })
      }
      expect(ids).toEqual(all.events.map((e) => e.id))
      // Nothing is skipped across ledgers: the next ledger's first fee event follows the cursor.
      const c = await funded()
      const next = await sb.server.getEvents({ cursor: page.cursor, filters: [] })
      expect(next.events.map((e) => scValToNative(e.topic[0]!))).toEqual(['fee', 'transfer'])
      expect(scValToNative(next.events[1]!.topic[2]!)).toBe(c.publicKey())
    } finally {
      await sb.call('sandbox_setInstant', { enabled: true })
    }
  })
})
