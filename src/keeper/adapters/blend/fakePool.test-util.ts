/**
 * Test helper: a Blend pool on a FakeLedger (USDC and XLM reserves, an oracle answering by
 * simulation, two borrowers found in borrow events); `setDebt` changes a borrower's positions and
 * emits the event the pool would. Used by unit tests only.
 */
import { Address, xdr, type rpc, type Transaction } from '@stellar/stellar-sdk'
import { createChain } from '../../../chain/index.js'
import {
  contractEntry,
  encodePoolConfig,
  encodePositions,
  encodeReserveConfig,
  encodeReserveData,
  FakeLedger,
  instanceEntry,
  randomAccount,
  randomContract,
} from './fakeLedger.test-util.js'
import { instanceKey, positionsKey, resConfigKey, resDataKey, resListKey } from './storage.js'
import { endCursor, eventId } from './fakeEvents.test-util.js'

export const ONE = 1_0000000n
const RATE_ONE = 10n ** 12n
const NOW = BigInt(Math.floor(Date.now() / 1000))

/** A pool with USDC (index 0) and XLM (index 1) reserves, an oracle, and borrowers. */
export function world() {
  const ledger = new FakeLedger()
  const pool = randomContract()
  const oracle = randomContract()
  const backstop = randomContract()
  const usdc = randomContract()
  const xlm = randomContract()
  const addr = (a: string) => new Address(a).toScVal()
  ledger.set(
    instanceKey(pool),
    instanceEntry(instanceKey(pool), {
      Config: encodePoolConfig({ oracle, min_collateral: 0n, bstop_rate: 1_000_000, status: 0, max_positions: 8 }),
      Backstop: addr(backstop),
    }),
  )
  ledger.set(resListKey(pool), contractEntry(resListKey(pool), xdr.ScVal.scvVec([addr(usdc), addr(xlm)])))
  const cfg = (index: number, c: number) => ({
    index, decimals: 7, c_factor: c, l_factor: 10_000_000, util: 8_000_000, max_util: 9_500_000,
    r_base: 100_000, r_one: 500_000, r_two: 5_000_000, r_three: 15_000_000, reactivity: 20, supply_cap: 10n ** 20n, enabled: true,
  })
  const data = { d_rate: RATE_ONE, b_rate: RATE_ONE, ir_mod: ONE, b_supply: 1000n * ONE, d_supply: 100n * ONE, backstop_credit: 0n, last_time: NOW }
  for (const [a, c] of [[usdc, cfg(0, 9_500_000)], [xlm, cfg(1, 7_500_000)]] as const) {
    ledger.set(resConfigKey(pool, a), contractEntry(resConfigKey(pool, a), encodeReserveConfig(c)))
    ledger.set(resDataKey(pool, a), contractEntry(resDataKey(pool, a), encodeReserveData(data)))
  }
  const healthy = randomAccount()
  const sick = randomAccount()

  // events: both borrowed
  const events = [healthy, sick].map((u, i) => ({
    id: eventId(10 + i, 0),
    ledger: 10 + i,
    topic: [xdr.ScVal.scvSymbol('borrow'), addr(usdc), addr(u)],
  }))
  // The pool names the user of every change in an event: a repay here.
  let nextEventLedger = 20
  const touch = (user: string) => {
    const ledgerSeq = nextEventLedger++
    events.push({ id: eventId(ledgerSeq, 0), ledger: ledgerSeq, topic: [xdr.ScVal.scvSymbol('repay'), addr(usdc), addr(user)] })
  }
  const setDebt = (user: string, debt: bigint) => {
    ledger.set(
      positionsKey(pool, user),
      contractEntry(positionsKey(pool, user), encodePositions({ collateral: new Map([[1, 1000n * ONE]]), liabilities: new Map([[0, debt]]), supply: new Map() })),
    )
    touch(user)
  }
  setDebt(healthy, 50n * ONE) // 75 / 50: HF 1.5
  setDebt(sick, 80n * ONE) // 75 / 80: HF 0.94
  // Later changes come in ledgers after the latest one so far, which moves on with them.
  nextEventLedger = 101
  const latest = () => Math.max(100, nextEventLedger - 1)
  let eventCalls = 0
  const reader = {
    getLedgerEntries: ledger.getLedgerEntries,
    getHealth: async () => ({ status: 'healthy', latestLedger: latest(), oldestLedger: 1, ledgerRetentionWindow: latest() - 1 }) as rpc.Api.GetHealthResponse,
    getLatestLedger: async () => ({ id: 'x', sequence: latest(), protocolVersion: 23 }) as unknown as rpc.Api.GetLatestLedgerResponse,
    getEvents: async (req: rpc.Api.GetEventsRequest) => {
      eventCalls += 1
      const after = req.cursor
      const limit = req.limit ?? 100
      const page = events.filter((e) => after === undefined || e.id > after).slice(0, limit)
      const cursor = page.length === limit ? page.at(-1)!.id : endCursor(latest())
      return { events: page, cursor, latestLedger: latest(), oldestLedger: 1 } as unknown as rpc.Api.GetEventsResponse
    },
  }
  // oracle: lastprice(Stellar(asset)) and decimals() by simulation
  let simulations = 0
  const prices = new Map([[usdc, ONE], [xlm, ONE / 10n]])
  const server = {
    simulateTransaction: async (tx: Transaction) => {
      simulations += 1
      const call = tx.operations[0]! as unknown as { func: xdr.HostFunction }
      const ic = xdr.expectUnionVariant(call.func, 'hostFunctionTypeInvokeContract').invokeContract
      const fn = ic.functionName.toString()
      let retval: xdr.ScVal
      if (fn === 'decimals') retval = xdr.ScVal.scvU32(7)
      else {
        const asset = Address.fromScAddress(xdr.expectUnionVariant(xdr.expectUnionVariant(ic.args[0]!, 'scvVec').vec![1]!, 'scvAddress').address).toString()
        retval = xdr.ScVal.scvMap([
          new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('price'), val: xdr.ScVal.scvI128(new xdr.Int128Parts({ hi: 0n, lo: prices.get(asset)! })) }),
          new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('timestamp'), val: xdr.ScVal.scvU64(NOW) }),
        ])
      }
      return { result: { retval, auth: [] }, latestLedger: 100, events: [], _parsed: true } as unknown as rpc.Api.SimulateTransactionResponse
    },
  }
  const chain = createChain({ rpcUrl: 'http://localhost:1', networkPassphrase: 'test', server: server as never })
  return { ledger, pool, backstop, usdc, xlm, healthy, sick, reader, server, chain, setDebt, touch, counts: () => ({ eventCalls, simulations }) }
}
