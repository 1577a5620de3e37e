/** The vault reader against a scripted node: books and events of the same ledger, read incrementally. */
import { Keypair, StrKey, nativeToScVal, xdr, type Transaction } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { addr, i128, struct, sym } from '../../../src/chain/scval.js'
import { scanEndCursor } from '../../../src/chain/events.js'
import { VaultEventsReader, vaultEventsReader, type VaultEventsRpc } from './vaultEvents.js'

const U = 10_000_000n
const VAULT = StrKey.encodeContract(Buffer.alloc(32, 1))
const A = Keypair.random().publicKey()

interface RawEvent {
  id: string
  ledger: number
  ledgerClosedAt: string
  topic: xdr.ScVal[]
  value: xdr.ScVal
}

function node(events: RawEvent[]) {
  let ledger = 10
  let totalUsdc = 0n
  const requests: unknown[] = []
  const simulated: string[] = []
  const server = {
    async getHealth() {
      return { status: 'healthy', latestLedger: ledger, oldestLedger: 1, ledgerRetentionWindow: 100 }
    },
    async getLatestLedger() {
      return { id: '0', sequence: ledger, protocolVersion: '23', closeTime: String(1_000 + ledger) }
    },
    async simulateTransaction(tx: Transaction) {
      const op = tx.operations[0] as unknown as { func: xdr.HostFunction }
      const fn = xdr.expectUnionVariant(op.func, 'hostFunctionTypeInvokeContract').invokeContract.functionName.toString()
      simulated.push(fn)
      const u64 = (v: bigint) => nativeToScVal(v, { type: 'u64' })
      const retval =
        fn === 'get_config'
          ? struct({
              deposit_cap: i128(1_000_000n * U),
              keeper_fee_bps: nativeToScVal(1000, { type: 'u32' }),
              max_draw_per_keeper: i128(500n * U),
              profit_unlock_secs: u64(3600n),
              withdraw_cooldown: u64(0n),
            })
          : struct({
              active_liq: i128(0n),
              lock_end: u64(0n),
              lock_start: u64(0n),
              locked_profit: i128(0n),
              pending_shares: i128(0n),
              total_profit: i128(0n),
              total_shares: i128(totalUsdc),
              total_usdc: i128(totalUsdc),
            })
      return { id: '1', latestLedger: ledger, events: [], _parsed: true, minResourceFee: '0', result: { auth: [], retval } }
    },
    async getEvents(req: { cursor?: string; startLedger?: number; endLedger?: number; limit?: number }) {
      requests.push(req)
      const start = req.cursor === undefined ? events.findIndex((e) => e.ledger >= req.startLedger!) : events.findIndex((e) => e.id > req.cursor!)
      const page = (start < 0 ? [] : events.slice(start, start + (req.limit ?? 100))).map((e) => ({ ...e, inSuccessfulContractCall: true, txHash: `tx${e.id}` }))
      // A full page's cursor is its last id; a short one's the end of the ledgers scanned.
      const cursor = page.length === (req.limit ?? 100) ? page.at(-1)!.id : scanEndCursor(ledger)
      return { events: page, cursor, latestLedger: ledger, oldestLedger: 1 }
    },
  }
  return {
    server: server as unknown as VaultEventsRpc,
    requests,
    simulated,
    advance(to: number, usdc: bigint) {
      ledger = to
      totalUsdc = usdc
    },
  }
}

const deposit = (id: string, ledger: number, amount: bigint): RawEvent => ({
  id,
  ledger,
  ledgerClosedAt: new Date((1_000 + ledger) * 1000).toISOString(),
  topic: [sym('deposit'), addr(A)],
  value: struct({ amount: i128(amount), dead_shares: i128(0n), shares: i128(amount) }),
})
const registry: RawEvent = { id: '0001', ledger: 2, ledgerClosedAt: new Date(1_002_000).toISOString(), topic: [sym('registry')], value: struct({ registry: addr(VAULT) }) }

describe('VaultEventsReader', () => {
  it('reads the books and every event through the ledger the books were read at, then only new ledgers', async () => {
    const events = [registry, deposit('0005', 5, 100n * U), deposit('0012', 12, 50n * U)]
    const n = node(events)
    n.advance(10, 100n * U)
    const reader = new VaultEventsReader(n.server, 'test', VAULT)
    const first = await reader.read()
    expect(first.ledger).toBe(10)
    expect(first.books.totalUsdc).toBe(100n * U)
    expect(first.events.map((e) => e.event.kind)).toEqual(['registry', 'deposit'])
    expect(first.events[1]!.closeTime).toBe(1_005)
    expect(first.events[1]!.txHash).toBe('tx0005')
    expect(first.complete).toBe(true)
    expect(first.fromLedger).toBe(1)
    expect(first.closeTime).toBe(1_010)

    expect(first.config).toMatchObject({ keeperFeeBps: 1000, profitUnlockSecs: 3600 })

    n.advance(12, 150n * U)
    const second = await reader.read()
    // The config never changes: read once.
    expect(n.simulated.filter((f) => f === 'get_config')).toHaveLength(1)
    expect(second.config).toBe(first.config)
    expect(second.events.map((e) => e.event.ledger)).toEqual([2, 5, 12])
    // The second round starts after the ledger the first read through.
    expect(n.requests.filter((r) => (r as { startLedger?: number }).startLedger !== undefined).map((r) => (r as { startLedger: number }).startLedger)).toEqual([1, 11])
  })

  it('shares one read between overlapping calls', async () => {
    const n = node([deposit('0005', 5, 100n * U)])
    n.advance(10, 100n * U)
    const reader = new VaultEventsReader(n.server, 'test', VAULT)
    const [a, b] = await Promise.all([reader.read(), reader.read()])
    expect(a).toBe(b)
    expect(a.events).toHaveLength(1)
    expect(a.complete).toBe(false)
  })

  it('refuses a client that cannot read events', () => {
    expect(() => vaultEventsReader({ simulateTransaction: () => undefined }, 'test', VAULT)).toThrow(/getEvents/)
  })
})
