/**
 * `xdrFormat: "json"` on every method that takes it, field names as in stellar-rpc's protocol
 * types (go-stellar-sdk protocols/rpc): each `...Xdr` field gives way to its `...Json` field,
 * whose value is serde_json of the stellar-xdr type (stellar-rpc's xdr2json). The SDK reads
 * base64 only, so JSON is checked on raw calls; the SDK's own calls must keep working.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Account, Address, Asset, Contract, Keypair, Operation, TransactionBuilder, rpc, scValToNative, xdr } from '@stellar/stellar-sdk'
import { startSandbox, type Sandbox } from './launch.js'
import { raw, sacTransfer, type Transfer } from './shapes.js'

let sb: Sandbox
let t: Transfer

const INVALID = "got 'xml': expected base64, json for optional 'xdrFormat'"

beforeAll(async () => {
  sb = await startSandbox({ manual: true, instant: true })
  t = await sacTransfer(sb)
})
afterAll(async () => {
  await sb?.stop()
})

function keys(v: object): string[] {
  return Object.keys(v).sort()
}

/** The transfer event's topics as ScVal JSON: symbol, two addresses, the SEP-11 asset name. */
function transferTopics() {
  return [{ symbol: 'transfer' }, { address: t.from.publicKey() }, { address: t.to.publicKey() }, { string: 'native' }]
}

/** The fields one transaction of getTransaction / getTransactions carries with JSON. */
function expectJsonTransaction(tx: Record<string, unknown> & { events: Record<string, unknown> }) {
  for (const f of ['envelopeXdr', 'resultXdr', 'resultMetaXdr', 'diagnosticEventsXdr']) expect(tx).not.toHaveProperty(f)
  expect(keys(tx.envelopeJson as object)).toEqual(['tx'])
  expect(keys(tx.resultJson as object)).toEqual(['ext', 'fee_charged', 'result'])
  expect(tx.resultJson).toMatchObject({ result: { tx_success: [{ op_inner: { invoke_host_function: { success: expect.any(String) } } }] } })
  expect(keys(tx.resultMetaJson as object)).toEqual(['v4'])
  expect(keys(tx.events)).toEqual(['contractEventsJson', 'transactionEventsJson'])
  const [opEvents] = tx.events.contractEventsJson as { body: { v0: { topics: unknown[]; data: unknown } }; contract_id: string }[][]
  expect(opEvents).toHaveLength(1)
  expect(opEvents![0]!.contract_id).toBe(t.sacId)
  expect(opEvents![0]!.body.v0.topics).toEqual(transferTopics())
  expect(opEvents![0]!.body.v0.data).toEqual({ i128: '50000000' })
  const stages = (tx.events.transactionEventsJson as { stage: string }[]).map((e) => e.stage)
  expect(stages).toEqual(['before_all_txs', 'after_all_txs'])
  expect(Array.isArray(tx.diagnosticEventsJson)).toBe(true)
}

describe('xdrFormat "json", as stellar-rpc answers it', () => {
  it('getTransaction: envelopeJson, resultJson, resultMetaJson, events.*Json, diagnosticEventsJson', async () => {
    const { result } = await raw(sb, 'getTransaction', { hash: t.hash, xdrFormat: 'json' })
    expectJsonTransaction(result)
    // The same fee the SDK reads from the base64 result.
    const sdk = (await sb.server.getTransaction(t.hash)) as rpc.Api.GetSuccessfulTransactionResponse
    expect(sdk.status).toBe('SUCCESS')
    expect(result.resultJson.fee_charged).toBe(sdk.resultXdr.feeCharged.toString())
    // Absent, "" and "base64" are one and the same base64 answer.
    const b64 = (await raw(sb, 'getTransaction', { hash: t.hash })).result
    expect((await raw(sb, 'getTransaction', { hash: t.hash, xdrFormat: '' })).result).toEqual(b64)
    expect((await raw(sb, 'getTransaction', { hash: t.hash, xdrFormat: 'base64' })).result).toEqual(b64)
    expect(keys(b64.events)).toEqual(['contractEventsXdr', 'transactionEventsXdr'])
    expect(b64).not.toHaveProperty('resultJson')
  })

  it('getTransactions: the same fields per transaction', async () => {
    const { result } = await raw(sb, 'getTransactions', { startLedger: t.ledger, pagination: { limit: 1 }, xdrFormat: 'json' })
    expect(result.transactions).toHaveLength(1)
    expect(result.transactions[0].txHash).toBe(t.hash)
    expectJsonTransaction(result.transactions[0])
    const sdk = await sb.server.getTransactions({ startLedger: t.ledger, pagination: { limit: 1 } })
    expect(sdk.transactions[0]!.txHash).toBe(t.hash)
  })

  it('getEvents: topicJson and valueJson take the place of topic and value', async () => {
    // The transfer only (the native SAC also carries the ledger's fee events).
    const transfer = xdr.ScVal.scvSymbol('transfer').toXDR('base64')
    const params = { startLedger: t.ledger, endLedger: t.ledger + 1, filters: [{ type: 'contract', contractIds: [t.sacId], topics: [[transfer, '**']] }] }
    const { result } = await raw(sb, 'getEvents', { ...params, xdrFormat: 'json' })
    expect(result.events).toHaveLength(1)
    const ev = result.events[0]
    expect(ev).not.toHaveProperty('topic')
    expect(ev).not.toHaveProperty('value')
    expect(ev.topicJson).toEqual(transferTopics())
    expect(ev.valueJson).toEqual({ i128: '50000000' })
    // The SDK's base64 view of the same event agrees.
    const sdk = await sb.server.getEvents(params as rpc.Server.GetEventsRequest)
    expect(sdk.events[0]!.topic.map((s) => scValToNative(s))).toEqual(['transfer', t.from.publicKey(), t.to.publicKey(), 'native'])
    expect(scValToNative(sdk.events[0]!.value)).toBe(5_0000000n)
  })

  it('getLedgerEntries: keyJson, dataJson, extJson', async () => {
    const key = xdr.LedgerKey.account(new xdr.LedgerKeyAccount({ accountId: Keypair.fromPublicKey(t.from.publicKey()).xdrAccountId() }))
    const { result } = await raw(sb, 'getLedgerEntries', { keys: [key.toXDR('base64')], xdrFormat: 'json' })
    const [e] = result.entries
    expect(keys(e)).toEqual(['dataJson', 'extJson', 'keyJson', 'lastModifiedLedgerSeq'])
    expect(e.keyJson).toEqual({ account: { account_id: t.from.publicKey() } })
    expect(e.dataJson.account.account_id).toBe(t.from.publicKey())
    expect(e.extJson).toBe('v0')
    // base64: key, xdr and extXdr (LedgerEntryExt), as stellar-rpc answers.
    const b64 = (await raw(sb, 'getLedgerEntries', { keys: [key.toXDR('base64')] })).result.entries[0]
    expect(keys(b64)).toEqual(['extXdr', 'key', 'lastModifiedLedgerSeq', 'xdr'])
    expect(xdr.LedgerEntryExt.fromXDR(b64.extXdr, 'base64').type).toBe('v0')
    expect((await sb.server.getAccount(t.from.publicKey())).accountId()).toBe(t.from.publicKey())
  })

  it('getLedgers: headerJson and metadataJson, the base64 fields left empty', async () => {
    const { result } = await raw(sb, 'getLedgers', { startLedger: t.ledger, pagination: { limit: 1 }, xdrFormat: 'json' })
    const [l] = result.ledgers
    expect(l.headerXdr).toBe('')
    expect(l.metadataXdr).toBe('')
    expect(keys(l.headerJson)).toEqual(['ext', 'hash', 'header'])
    expect(l.headerJson.hash).toBe(l.hash)
    expect(l.headerJson.header.ledger_seq).toBe(t.ledger)
    expect(keys(l.metadataJson)).toEqual(['v2'])
    expect(l.metadataJson.v2.ledger_header.hash).toBe(l.hash)
    const sdk = await sb.server.getLedgers({ startLedger: t.ledger, pagination: { limit: 1 } })
    expect(sdk.ledgers[0]!.hash).toBe(l.hash)
    expect(sdk.ledgers[0]!.headerXdr.header.ledgerSeq).toBe(t.ledger)
  })

  it('getLatestLedger takes no xdrFormat: base64 whatever the request says', async () => {
    const json = (await raw(sb, 'getLatestLedger', { xdrFormat: 'json' })).result
    expect(json).toHaveProperty('headerXdr')
    expect(json).not.toHaveProperty('headerJson')
    expect((await raw(sb, 'getLatestLedger', { xdrFormat: 'xml' })).error).toBeUndefined()
  })

  it('simulateTransaction: transactionDataJson, eventsJson, results[].authJson / returnValueJson, stateChanges *Json', async () => {
    const tx = await t.call(1n)
    const { result } = await raw(sb, 'simulateTransaction', { transaction: tx.toXDR(), xdrFormat: 'json' })
    for (const f of ['transactionData', 'events']) expect(result).not.toHaveProperty(f)
    expect(keys(result.transactionDataJson)).toEqual(['ext', 'resource_fee', 'resources'])
    expect(result.minResourceFee).toBe(result.transactionDataJson.resource_fee)
    expect(result.eventsJson.length).toBeGreaterThan(0)
    expect(keys(result.eventsJson[0])).toEqual(['event', 'in_successful_contract_call'])
    const [r] = result.results
    expect(keys(r)).toEqual(['authJson', 'returnValueJson'])
    expect(r.returnValueJson).toBe('void')
    expect(r.authJson[0].credentials).toBe('source_account')
    expect(r.authJson[0].root_invocation.function.contract_fn.function_name).toBe('transfer')
    const change = result.stateChanges.find((c: { keyJson?: { account?: { account_id: string } } }) => c.keyJson?.account?.account_id === t.from.publicKey())
    expect(keys(change)).toEqual(['after', 'afterJson', 'before', 'beforeJson', 'keyJson', 'type'])
    expect([change.type, change.before, change.after]).toEqual(['updated', null, null])
    expect(BigInt(change.beforeJson.data.account.balance) - BigInt(change.afterJson.data.account.balance)).toBe(1n)
    // A read: no auth, so no authJson (stellar-rpc leaves an empty list out).
    const read = await raw(sb, 'simulateTransaction', { transaction: (await readBalance()).toXDR(), xdrFormat: 'json' })
    expect(read.result.results[0]).not.toHaveProperty('authJson')
    expect(read.result.results[0].returnValueJson).toHaveProperty('i128')
    // The SDK's simulation of the same transfer still decodes.
    const sim = await sb.server.simulateTransaction(tx)
    expect(rpc.Api.isSimulationSuccess(sim)).toBe(true)
  })

  it('sendTransaction: errorResultJson for a refused transaction', async () => {
    const acc = await sb.server.getAccount(t.from.publicKey())
    const stale = new Account(t.from.publicKey(), (BigInt(acc.sequenceNumber()) - 1n).toString())
    const tx = new TransactionBuilder(stale, { fee: '100', networkPassphrase: sb.networkPassphrase })
      .addOperation(Operation.payment({ destination: t.to.publicKey(), asset: Asset.native(), amount: '1' }))
      .setTimeout(60)
      .build()
    tx.sign(t.from)
    const { result } = await raw(sb, 'sendTransaction', { transaction: tx.toXDR(), xdrFormat: 'json' })
    expect(result.status).toBe('ERROR')
    expect(result).not.toHaveProperty('errorResultXdr')
    expect(keys(result.errorResultJson)).toEqual(['ext', 'fee_charged', 'result'])
    expect(result.errorResultJson.result).toBe('tx_bad_seq')
    const sdk = await sb.server.sendTransaction(tx)
    expect(sdk.status).toBe('ERROR')
    expect(sdk.errorResult?.result.type).toBe('txBadSeq')
  })

  it("refuses any other xdrFormat with stellar-rpc's code and message", async () => {
    const bad = { xdrFormat: 'xml' }
    const cases: [string, object, number][] = [
      ['getLedgerEntries', { keys: [], ...bad }, -32602],
      ['getTransaction', { hash: t.hash, ...bad }, -32602],
      ['sendTransaction', { transaction: 'AAAA', ...bad }, -32602],
      ['getEvents', { startLedger: t.ledger, ...bad }, -32602],
      ['getLedgers', { startLedger: t.ledger, ...bad }, -32600],
      ['getTransactions', { startLedger: t.ledger, ...bad }, -32600],
    ]
    for (const [method, params, code] of cases) {
      expect({ method, error: (await raw(sb, method, params)).error }).toEqual({ method, error: { code, message: INVALID } })
    }
    // simulateTransaction answers it in the result's `error`, as stellar-rpc does.
    const sim = await raw(sb, 'simulateTransaction', { transaction: (await t.call(1n)).toXDR(), ...bad })
    expect(sim.error).toBeUndefined()
    expect(sim.result.error).toBe(INVALID)
  })
})

async function readBalance() {
  return new TransactionBuilder(await sb.server.getAccount(t.from.publicKey()), { fee: '100', networkPassphrase: sb.networkPassphrase })
    .addOperation(new Contract(t.sacId).call('balance', new Address(t.from.publicKey()).toScVal()))
    .setTimeout(60)
    .build()
}
