import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { Address, Asset, BASE_FEE, Keypair, Operation, TransactionBuilder, nativeToScVal, rpc, type Transaction } from '@stellar/stellar-sdk'
import { startSandbox, type Sandbox } from './launch.js'

const started: Sandbox[] = []
afterAll(async () => {
  for (const s of started) await s.stop().catch(() => undefined)
})

async function start(state: string): Promise<Sandbox> {
  const sb = await startSandbox({ manual: true, instant: true, state })
  started.push(sb)
  return sb
}

async function send(sb: Sandbox, from: Keypair, build: (b: TransactionBuilder) => TransactionBuilder, soroban = false): Promise<string> {
  let tx: Transaction = build(new TransactionBuilder(await sb.server.getAccount(from.publicKey()), { fee: BASE_FEE, networkPassphrase: sb.networkPassphrase })).setTimeout(60).build()
  if (soroban) tx = await sb.server.prepareTransaction(tx)
  tx.sign(from)
  const sent = await sb.server.sendTransaction(tx)
  const r = await sb.server.pollTransaction(sent.hash, { attempts: 50, sleepStrategy: () => 50 })
  expect(r.status).toBe(rpc.Api.GetTransactionStatus.SUCCESS)
  return sent.hash
}

/** Raw JSON-RPC answers, so the comparison is of the wire, not of the SDK's parsing. */
async function raw(sb: Sandbox, method: string, params: unknown): Promise<unknown> {
  const res = await fetch(sb.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  return ((await res.json()) as { result: unknown }).result
}

describe('a node restarted from --state keeps its history', () => {
  it('answers getEvents, getTransaction(s), getLedgers and getHealth identically before and after', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sandbox-restart-')), 'state.json')
    const first = await start(file)
    const [a, b] = [Keypair.random(), Keypair.random()]
    await first.server.requestAirdrop(a.publicKey())
    await first.server.requestAirdrop(b.publicKey())
    const sac = Asset.native().contractId(first.networkPassphrase)
    await send(first, a, (t) => t.addOperation(Operation.createStellarAssetContract({ asset: Asset.native() })), true)
    const transfers: string[] = []
    for (const amount of [5n, 7n]) {
      transfers.push(
        await send(
          first,
          a,
          (t) =>
            t.addOperation(
              Operation.invokeContractFunction({
                contract: sac,
                function: 'transfer',
                args: [new Address(a.publicKey()).toScVal(), new Address(b.publicKey()).toScVal(), nativeToScVal(amount * 10_000_000n, { type: 'i128' })],
              }),
            ),
          true,
        ),
      )
    }
    const payment = await send(first, b, (t) => t.addOperation(Operation.payment({ destination: a.publicKey(), asset: Asset.native(), amount: '1' })))
    await first.closeLedgers(3)
    await first.advanceTime(600)

    const health = (await raw(first, 'getHealth', {})) as { oldestLedger: number; latestLedger: number }
    const queries: Array<[string, unknown]> = [
      ['getHealth', {}],
      ['getLatestLedger', {}],
      ['getFeeStats', {}],
      ['getEvents', { startLedger: health.oldestLedger, filters: [{ type: 'contract', contractIds: [sac] }] }],
      ['getEvents', { startLedger: health.oldestLedger, pagination: { limit: 1 } }],
      ['getTransactions', { startLedger: health.oldestLedger, pagination: { limit: 200 } }],
      ['getLedgers', { startLedger: health.oldestLedger, pagination: { limit: 200 } }],
      ...[...transfers, payment].map((hash): [string, unknown] => ['getTransaction', { hash }]),
    ]
    const before = await Promise.all(queries.map(([m, p]) => raw(first, m, p)))
    const events = (before[3] as { events: unknown[] }).events
    // Fee events, the SAC transfers and the classic payment's transfer, all under the native SAC.
    expect(events.length).toBeGreaterThanOrEqual(10)
    const nextClose = ((await first.call('sandbox_advanceTime', { seconds: 0 })) as { nextCloseTime: number }).nextCloseTime
    await first.stop()

    const second = await start(file)
    const after = await Promise.all(queries.map(([m, p]) => raw(second, m, p)))
    expect(after).toEqual(before)
    // The SDK's parsed view agrees, and the cursor of the first page still pages on.
    const page = await second.server.getEvents({ startLedger: health.oldestLedger, filters: [{ type: 'contract', contractIds: [sac] }], limit: 1 })
    const rest = await second.server.getEvents({ cursor: page.cursor, filters: [{ type: 'contract', contractIds: [sac] }], limit: 1000 })
    expect([...page.events, ...rest.events].map((e) => e.id)).toEqual((events as Array<{ id: string }>).map((e) => e.id))
    // The clock continues where it was (the time travelled before the restart is kept).
    const resumed = ((await second.call('sandbox_advanceTime', { seconds: 0 })) as { nextCloseTime: number }).nextCloseTime
    expect(resumed).toBeGreaterThanOrEqual(nextClose)
    // And the chain goes on from the same ledger.
    const latest = await second.closeLedgers(1)
    expect(latest).toBe(health.latestLedger + 1)
    expect((await second.server.getTransaction(payment)).status).toBe('SUCCESS')
  })

  it('dumps without history when asked, as a node that lost it', async () => {
    const sb = await start(join(mkdtempSync(join(tmpdir(), 'sandbox-restart-')), 'unused.json'))
    const kp = Keypair.random()
    await sb.server.requestAirdrop(kp.publicKey())
    const full = (await sb.call('sandbox_dumpState', {})) as { history?: { ledgers: unknown[] } }
    const bare = (await sb.call('sandbox_dumpState', { history: false })) as { history?: unknown }
    expect(full.history?.ledgers.length).toBe((await sb.server.getLatestLedger()).sequence)
    expect(bare.history).toBeUndefined()
    await expect(sb.call('sandbox_dumpState', { history: 'no' })).rejects.toThrow(/history must be true or false/)
  })
})
