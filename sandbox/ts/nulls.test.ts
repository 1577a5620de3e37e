/**
 * Optional request fields sent as JSON `null` read as absent, on every method, as stellar-rpc
 * reads them (clients that serialize unset fields as null must work). Required fields stay
 * required: missing or null, they are an invalid-params error naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Address, Contract, Keypair, TransactionBuilder, nativeToScVal, xdr } from '@stellar/stellar-sdk'
import { startSandbox, type Sandbox } from './launch.js'
import { raw, sacTransfer, type Transfer } from './shapes.js'

let sb: Sandbox
let t: Transfer

beforeAll(async () => {
  sb = await startSandbox({ manual: true, instant: true })
  t = await sacTransfer(sb)
})
afterAll(async () => {
  await sb?.stop()
})

/** The result, failing the test on a JSON-RPC error. */
async function ok(method: string, params: unknown) {
  const r = await raw(sb, method, params)
  expect(r.error, `${method} ${JSON.stringify(params)}`).toBeUndefined()
  return r.result
}

async function refused(method: string, params: unknown, message: string) {
  expect((await raw(sb, method, params)).error).toEqual({ code: -32602, message: `invalid params: ${message}` })
}

function accountKey(pk: string): string {
  return xdr.LedgerKey.account(new xdr.LedgerKeyAccount({ accountId: Keypair.fromPublicKey(pk).xdrAccountId() })).toXDR('base64')
}

describe('null optional fields, method by method', () => {
  it('getHealth, getNetwork, getVersionInfo, getLatestLedger, getFeeStats take params: null', async () => {
    expect((await ok('getHealth', null)).status).toBe('healthy')
    expect((await ok('getNetwork', null)).passphrase).toBe(sb.networkPassphrase)
    expect(await ok('getVersionInfo', null)).toHaveProperty('commitHash')
    expect((await ok('getLatestLedger', null)).sequence).toBeGreaterThanOrEqual(t.ledger)
    expect(await ok('getFeeStats', null)).toHaveProperty('sorobanInclusionFee')
  })

  it('getLedgerEntries: xdrFormat null; keys required', async () => {
    const r = await ok('getLedgerEntries', { keys: [accountKey(t.from.publicKey())], xdrFormat: null })
    expect(r.entries).toHaveLength(1)
    expect(r.entries[0]).toHaveProperty('xdr')
    await refused('getLedgerEntries', { keys: null }, 'keys is required')
  })

  it('getLedgers: pagination, cursor, limit and xdrFormat null', async () => {
    const a = await ok('getLedgers', { startLedger: t.ledger, pagination: null, xdrFormat: null })
    const b = await ok('getLedgers', { startLedger: t.ledger, pagination: { cursor: null, limit: null } })
    expect(a.ledgers[0].sequence).toBe(t.ledger)
    expect(b.ledgers.map((l: { hash: string }) => l.hash)).toEqual(a.ledgers.map((l: { hash: string }) => l.hash))
    expect(a.ledgers[0]).toHaveProperty('headerXdr')
  })

  it('simulateTransaction: authMode, resourceConfig, instructionLeeway, useUpgradedAuth and xdrFormat null', async () => {
    const transaction = (await t.call(1n)).toXDR()
    const plain = await ok('simulateTransaction', { transaction })
    const nulls = await ok('simulateTransaction', { transaction, authMode: null, resourceConfig: null, useUpgradedAuth: null, xdrFormat: null })
    const leeway = await ok('simulateTransaction', { transaction, resourceConfig: { instructionLeeway: null } })
    expect(plain.error).toBeUndefined()
    expect(nulls).toEqual(plain)
    expect(leeway).toEqual(plain)
    await refused('simulateTransaction', { transaction: null }, 'transaction is required')
  })

  it('simulateTransaction: useUpgradedAuth null is its default (true), not false', async () => {
    // Invoked by someone else, `from` authorizes with address credentials: v2 (CAP-71) when
    // upgraded auth is on.
    const other = Keypair.random()
    await sb.server.requestAirdrop(other.publicKey())
    const tx = new TransactionBuilder(await sb.server.getAccount(other.publicKey()), { fee: '100', networkPassphrase: sb.networkPassphrase })
      .addOperation(new Contract(t.sacId).call('transfer', new Address(t.from.publicKey()).toScVal(), new Address(other.publicKey()).toScVal(), nativeToScVal(1n, { type: 'i128' })))
      .setTimeout(60)
      .build()
    const credentials = async (useUpgradedAuth?: boolean | null) => {
      const r = await ok('simulateTransaction', { transaction: tx.toXDR(), ...(useUpgradedAuth === undefined ? {} : { useUpgradedAuth }) })
      return xdr.SorobanAuthorizationEntry.fromXDR(r.results[0].auth[0], 'base64').credentials.type
    }
    const dflt = await credentials()
    expect(await credentials(null)).toBe(dflt)
    expect(await credentials(true)).toBe(dflt)
    expect(await credentials(false)).not.toBe(dflt)
  })

  it('sendTransaction: xdrFormat null; transaction required', async () => {
    const tx = await t.call(1n)
    const sim = await sb.server.prepareTransaction(tx)
    sim.sign(t.from)
    expect((await ok('sendTransaction', { transaction: sim.toXDR(), xdrFormat: null })).status).toBe('PENDING')
    await refused('sendTransaction', { transaction: null }, 'transaction is required')
  })

  it('getTransaction: xdrFormat null; hash required', async () => {
    const r = await ok('getTransaction', { hash: t.hash, xdrFormat: null })
    expect(r.status).toBe('SUCCESS')
    expect(r).toHaveProperty('resultXdr')
    await refused('getTransaction', { hash: null }, 'hash is required')
  })

  it('getTransactions: pagination, cursor, limit and xdrFormat null', async () => {
    const a = await ok('getTransactions', { startLedger: t.ledger, pagination: { cursor: null, limit: null }, xdrFormat: null })
    const b = await ok('getTransactions', { startLedger: t.ledger, pagination: null })
    expect(a.transactions[0].txHash).toBe(t.hash)
    expect(b.transactions.map((x: { txHash: string }) => x.txHash)).toEqual(a.transactions.map((x: { txHash: string }) => x.txHash))
  })

  it('getEvents: endLedger, filters, type, contractIds, topics, pagination, cursor, limit and xdrFormat null', async () => {
    // The request of a client that writes every unset field as null.
    const r = await ok('getEvents', {
      startLedger: t.ledger,
      endLedger: null,
      filters: [{ type: null, contractIds: null, topics: null }],
      pagination: { cursor: null, limit: null },
      xdrFormat: null,
    })
    expect(r.events.map((e: { txHash: string }) => e.txHash)).toContain(t.hash)
    const plain = await ok('getEvents', { startLedger: t.ledger })
    expect(r.events).toEqual(plain.events)
    expect((await ok('getEvents', { startLedger: t.ledger, filters: null, pagination: null })).events).toEqual(plain.events)
    // A null filter is an empty one: it matches every event.
    expect((await ok('getEvents', { startLedger: t.ledger, filters: [null] })).events).toEqual(plain.events)
    // Only the named contract, topics null.
    const one = await ok('getEvents', { startLedger: t.ledger, filters: [{ type: 'contract', contractIds: [t.sacId], topics: null }] })
    expect(one.events.every((e: { contractId: string }) => e.contractId === t.sacId)).toBe(true)
    // A null inside a topic pattern is not a wildcard.
    expect((await raw(sb, 'getEvents', { startLedger: t.ledger, filters: [{ topics: [['*', null]] }] })).error?.code).toBe(-32602)
  })
})

describe('null optional parameters of the sandbox_ cheats', () => {
  it('sandbox_closeLedgers: count and order null', async () => {
    const before = (await ok('getLatestLedger', null)).sequence
    expect((await ok('sandbox_closeLedgers', { count: null, order: null })).latestLedger).toBe(before + 1)
    expect((await ok('sandbox_closeLedgers', null)).latestLedger).toBe(before + 2)
  })

  it('sandbox_dumpState / sandbox_loadState: path null', async () => {
    const state = await ok('sandbox_dumpState', { path: null })
    expect(state).toHaveProperty('entries')
    expect((await ok('sandbox_loadState', { path: null, state })).latestLedger).toBe((await ok('getLatestLedger', null)).sequence)
    await refused('sandbox_loadState', { path: null, state: null }, 'give {"state": <dump>} or {"path": FILE}')
    // history null is its default (true).
    expect((await ok('sandbox_dumpState', { path: null, history: null })).history.ledgers.length).toBeGreaterThan(0)
  })

  it('sandbox_setLedgerLimits / getLedgerLimits / pending: a null limit is one not given', async () => {
    const before = await ok('sandbox_getLedgerLimits', null)
    const after = await ok('sandbox_setLedgerLimits', { txCount: null, classicOps: before.classicOps })
    expect(after).toEqual(before)
    expect((await ok('sandbox_pending', null)).pending).toEqual([])
  })

  it('sandbox_setLedgerEntry: liveUntilLedgerSeq and delete null', async () => {
    const key = accountKey(t.to.publicKey())
    const entry = (await ok('getLedgerEntries', { keys: [key] })).entries[0]
    // LedgerEntry XDR: lastModifiedLedgerSeq (u32), the entry's data, ext v0 (a zero u32).
    const full = Buffer.concat([Buffer.alloc(4), Buffer.from(entry.xdr, 'base64'), Buffer.alloc(4)]).toString('base64')
    const r = await ok('sandbox_setLedgerEntry', { entry: full, liveUntilLedgerSeq: null, delete: null })
    expect(r).toEqual({ key, liveUntilLedgerSeq: null })
  })

  it('sandbox_snapshot, sandbox_revert, sandbox_advanceTime, sandbox_setTime, sandbox_setInstant: null params; required ones stay required', async () => {
    const { id } = await ok('sandbox_snapshot', null)
    await refused('sandbox_revert', { id: null }, 'id is required')
    await refused('sandbox_advanceTime', { seconds: null }, 'seconds is required')
    await refused('sandbox_setTime', { time: null }, 'time (unix seconds) is required')
    await refused('sandbox_setInstant', { enabled: null }, 'enabled (true or false) is required')
    expect((await ok('sandbox_revert', { id })).reverted).toBe(true)
  })
})
