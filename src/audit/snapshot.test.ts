/**
 * readSnapshot against a scripted RPC node: the read rounds (books before and after), event
 * paging, and ChainReadError for each kind of failure.
 */
import { Address, Keypair, StrKey, nativeToScVal, scValToNative, xdr, type Transaction } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { addr, i128, struct, sym } from '../chain/scval.js'
import { scanEndCursor } from '../chain/events.js'
import { ChainReadError } from './errors.js'
import type { AuditRpc } from './rpc.js'
import { readSnapshot } from './snapshot.js'

const U = 10_000_000n
const contract = (n: number) => StrKey.encodeContract(Buffer.alloc(32, n))
const VAULT = contract(1)
const REGISTRY = contract(2)
const USDC = contract(3)
const A = Keypair.random().publicKey()
const PASSPHRASE = 'Test SDF Network ; September 2015'

type Handler = (args: unknown[]) => xdr.ScVal

/** A node answering the vault, registry and token calls from `handlers`, and getEvents from `events`. */
function fakeNode(
  handlers: Record<string, Handler>,
  events: { id: string; ledger: number; ledgerClosedAt?: string; topic: xdr.ScVal[]; value: xdr.ScVal }[],
  ledger = 50,
) {
  const calls: string[] = []
  const server = {
    async getNetwork() {
      return { passphrase: PASSPHRASE, protocolVersion: 23 }
    },
    async getHealth() {
      return { status: 'healthy', latestLedger: ledger, oldestLedger: 1, ledgerRetentionWindow: 17280 }
    },
    async getLatestLedger() {
      return { id: '0', sequence: ledger, protocolVersion: '23', closeTime: '1000' }
    },
    async simulateTransaction(tx: Transaction) {
      const op = tx.operations[0] as unknown as { func: xdr.HostFunction }
      const inv = xdr.expectUnionVariant(op.func, 'hostFunctionTypeInvokeContract').invokeContract
      const target = Address.fromScAddress(inv.contractAddress).toString()
      const name = `${target === VAULT ? 'vault' : target === REGISTRY ? 'registry' : 'usdc'}.${inv.functionName.toString()}`
      calls.push(name)
      const h = handlers[name]
      if (!h) return { id: '1', latestLedger: ledger, events: [], _parsed: true, error: `HostError: Error(Storage, MissingValue) ${name}` }
      const retval = h(inv.args.map((a) => scValToNative(a)))
      return { id: '1', latestLedger: ledger, events: [], _parsed: true, minResourceFee: '0', result: { auth: [], retval } }
    },
    async getEvents(req: { cursor?: string; startLedger?: number; limit?: number }) {
      calls.push('getEvents')
      const start = req.cursor === undefined ? events.findIndex((e) => e.ledger >= req.startLedger!) : events.findIndex((e) => e.id > req.cursor!)
      const page = (start < 0 ? [] : events.slice(start, start + (req.limit ?? 100))).map((e) => ({ ...e, inSuccessfulContractCall: true }))
      // A full page's cursor is its last id; a short one's the end of the ledgers scanned.
      const cursor = page.length === (req.limit ?? 100) ? page.at(-1)!.id : scanEndCursor(ledger)
      return { events: page, cursor, latestLedger: ledger, oldestLedger: 1 }
    },
  }
  return { server: server as unknown as AuditRpc, calls }
}

const u64 = (v: bigint) => nativeToScVal(v, { type: 'u64' })
const u32 = (v: number) => nativeToScVal(v, { type: 'u32' })
const books = (totalUsdc: bigint, totalShares: bigint) =>
  struct({
    active_liq: i128(0n),
    lock_end: u64(0n),
    lock_start: u64(0n),
    locked_profit: i128(0n),
    pending_shares: i128(0n),
    total_profit: i128(0n),
    total_shares: i128(totalShares),
    total_usdc: i128(totalUsdc),
  })
const depositor = (shares: bigint) =>
  struct({
    cost_basis: i128(shares),
    last_deposit_time: u64(0n),
    shares: i128(shares),
    total_deposited: i128(shares),
    total_withdrawn: i128(0n),
    withdraw_request: i128(0n),
  })

function handlers(state: () => xdr.ScVal): Record<string, Handler> {
  return {
    'vault.get_usdc': () => addr(USDC),
    'vault.get_registry': () => addr(REGISTRY),
    'registry.get_vault': () => addr(VAULT),
    'registry.get_config': () =>
      struct({
        executor_wasm: xdr.ScVal.scvBytes(Buffer.alloc(32, 0xab)),
        min_stake: i128(1000n * U),
        slash_rate_bps: u32(1000),
        slash_timeout: u64(3600n),
        usdc_token: addr(USDC),
      }),
    'vault.get_config': () =>
      struct({
        deposit_cap: i128(1_000_000n * U),
        keeper_fee_bps: u32(1000),
        max_draw_per_keeper: i128(500n * U),
        profit_unlock_secs: u64(3600n),
        withdraw_cooldown: u64(0n),
      }),
    'vault.get_locked_profit': () => i128(0n),
    'registry.get_keepers': () => xdr.ScVal.scvVec([]),
    'vault.get_state': state,
    'vault.get_depositor': ([who]) => (who === VAULT ? depositor(1000n) : depositor(100n * U - 1000n)),
    'vault.balance': () => i128(100n * U - 1000n),
    'usdc.balance': () => i128(100n * U),
  }
}

const depositEvent = (id: string, ledger: number) => ({
  id,
  ledger,
  topic: [sym('deposit'), addr(A)],
  value: struct({ amount: i128(100n * U), dead_shares: i128(1000n), shares: i128(100n * U - 1000n) }),
})
const registryEvent = { id: '0000000001', ledger: 3, topic: [sym('registry')], value: struct({ registry: addr(REGISTRY) }) }

describe('readSnapshot', () => {
  it('pages through the events, stopping at the snapshot ledger', async () => {
    const events = [registryEvent, depositEvent('0000000002', 4), ...['3', '4', '5'].map((n) => ({ ...registryEvent, id: `000000000${n}`, ledger: 10 })), depositEvent('0000000009', 51)]
    const { server } = fakeNode(handlers(() => books(100n * U, 100n * U)), events)
    const s = await readSnapshot({ server, networkPassphrase: PASSPHRASE }, { vault: VAULT, registry: REGISTRY }, { eventPageSize: 2 })
    expect(s.ledger).toBe(50)
    expect(s.history).toMatchObject({ complete: true, fromLedger: 1, toLedger: 50 })
    expect(s.history.events.map((e) => e.id)).toEqual(['0000000001', '0000000002', '0000000003', '0000000004', '0000000005'])
    expect(s.depositors).toEqual([expect.objectContaining({ account: A, shares: 100n * U - 1000n, balance: 100n * U - 1000n })])
    expect(s.deadShares).toBe(1000n)
  })

  it('reads the vault config once and get_locked_profit at both ends of a round (its fall with the clock is no reason to read again)', async () => {
    const h = handlers(() => books(100n * U, 100n * U))
    let locked = 50n
    h['vault.get_locked_profit'] = () => i128((locked -= 10n))
    const { server, calls } = fakeNode(h, [registryEvent])
    const s = await readSnapshot({ server, networkPassphrase: PASSPHRASE }, { vault: VAULT, registry: REGISTRY })
    expect(s.locked).toEqual({ before: 40n, after: 30n })
    expect(s.vaultSettings).toEqual({ depositCap: 1_000_000n * U, withdrawCooldown: 0, maxDrawPerKeeper: 500n * U, keeperFeeBps: 1000, profitUnlockSecs: 3600 })
    expect(s.registrySettings.executorWasm).toBe('ab'.repeat(32))
    expect(calls.filter((c) => c === 'vault.get_config')).toHaveLength(1)
    expect(calls.filter((c) => c === 'vault.get_state')).toHaveLength(2)
  })

  it('decodes flash draws, withdrawal requests, return fees and the close time of each event', async () => {
    const B = Keypair.random().publicKey()
    const K = Keypair.random().publicKey()
    const at = '2026-12-01T10:00:00Z'
    const events = [
      { ...registryEvent, ledgerClosedAt: at },
      { id: '0000000002', ledger: 4, ledgerClosedAt: at, topic: [sym('flash'), addr(K)], value: struct({ amount: i128(200n * U), fee: i128(2n * U), profit: i128(18n * U) }) },
      {
        id: '0000000003',
        ledger: 5,
        ledgerClosedAt: at,
        topic: [sym('return'), addr(K)],
        value: struct({ amount: i128(110n * U), fee: i128(U), profit: i128(9n * U), remaining: i128(0n), response_time_ms: u64(40n) }),
      },
      { id: '0000000004', ledger: 6, topic: [sym('wreq'), addr(B)], value: struct({ shares: i128(7n * U) }) },
    ]
    const h = handlers(() => books(100n * U, 100n * U))
    h['vault.get_keeper_draw'] = () => i128(0n)
    const { server } = fakeNode(h, events)
    const s = await readSnapshot({ server, networkPassphrase: PASSPHRASE }, { vault: VAULT, registry: REGISTRY })
    expect(s.draws).toEqual([{ account: K, draw: 0n, keeper: undefined }])
    const t = BigInt(Date.parse(at) / 1000)
    expect(s.history.events.slice(1)).toEqual([
      { id: '0000000002', ledger: 4, time: t, kind: 'flash', account: K, amount: 200n * U, fee: 2n * U, profit: 18n * U },
      { id: '0000000003', ledger: 5, time: t, kind: 'return', account: K, amount: 110n * U, fee: U, profit: 9n * U, remaining: 0n },
      { id: '0000000004', ledger: 6, kind: 'wreq', account: B, shares: 7n * U },
    ])
    // A depositor that only asked to withdraw is read too.
    expect(s.depositors.map((d) => d.account)).toEqual([B])
  })

  it('reads again when the books moved during a round', async () => {
    let n = 0
    // Rounds read the books twice: 1st round 100 / 101 (moved), 2nd round 101 / 101 (kept).
    const { server, calls } = fakeNode(
      handlers(() => books(++n === 1 ? 100n * U : 101n * U, 100n * U)),
      [registryEvent],
    )
    const s = await readSnapshot({ server, networkPassphrase: PASSPHRASE }, { vault: VAULT, registry: REGISTRY })
    expect(s.books.totalUsdc).toBe(101n * U)
    expect(calls.filter((c) => c === 'vault.get_state')).toHaveLength(4)
  })

  it('gives up with a ChainReadError when the books move in every round', async () => {
    let n = 0
    const { server } = fakeNode(handlers(() => books(BigInt(++n) * U, 100n * U)), [registryEvent])
    const err = await readSnapshot({ server, networkPassphrase: PASSPHRASE }, { vault: VAULT, registry: REGISTRY }, { attempts: 2 }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ChainReadError)
    expect((err as ChainReadError).call).toBe('snapshot')
    expect((err as Error).message).toMatch(/changed during each of 2 read rounds/)
  })

  it('names the failing simulation, or the failing RPC method', async () => {
    const h = handlers(() => books(0n, 0n))
    delete h['registry.get_keepers']
    const { server } = fakeNode(h, [])
    await expect(readSnapshot({ server, networkPassphrase: PASSPHRASE }, { vault: VAULT, registry: REGISTRY })).rejects.toThrow(
      /^reading registry\.get_keepers failed: simulation failed: HostError: Error\(Storage, MissingValue\)/,
    )
    const broken = fakeNode(handlers(() => books(0n, 0n)), [])
    broken.server.getEvents = () => Promise.reject(new Error('socket hang up'))
    await expect(readSnapshot({ server: broken.server, networkPassphrase: PASSPHRASE }, { vault: VAULT, registry: REGISTRY })).rejects.toThrow(
      /^reading getEvents\(vault from ledger 1\) failed: socket hang up$/,
    )
  })

  it('refuses an RPC client without getEvents', async () => {
    const { server } = fakeNode(handlers(() => books(0n, 0n)), [])
    const partial = { ...server, getEvents: undefined } as unknown as AuditRpc
    await expect(readSnapshot({ server: partial, networkPassphrase: PASSPHRASE }, { vault: VAULT, registry: REGISTRY })).rejects.toThrow(
      /^reading connect failed: the RPC client lacks getEvents/,
    )
  })
})

describe('mapLimit', () => {
  it('keeps input order, bounds the calls in flight, and throws the lowest failing index', async () => {
    const { mapLimit } = await import('./rpc.js')
    let inFlight = 0
    let peak = 0
    const out = await mapLimit([5, 1, 4, 2, 3], 2, async (x) => {
      peak = Math.max(peak, ++inFlight)
      await new Promise((r) => setTimeout(r, x))
      inFlight--
      return x * 10
    })
    expect(out).toEqual([50, 10, 40, 20, 30])
    expect(peak).toBe(2)
    const err = await mapLimit([30, 1, 2], 3, async (x, i) => {
      await new Promise((r) => setTimeout(r, x))
      throw new Error(`item ${i}`)
    }).catch((e: unknown) => (e as Error).message)
    expect(err).toBe('item 0')
  })
})
