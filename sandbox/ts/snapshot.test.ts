import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { Address, Asset, BASE_FEE, Keypair, Operation, TransactionBuilder, nativeToScVal, rpc, xdr, type Transaction } from '@stellar/stellar-sdk'
import { startSandbox, type Sandbox, type StartSandboxOptions } from './launch.js'

const started: Sandbox[] = []
afterAll(async () => {
  for (const s of started) await s.stop().catch(() => undefined)
})

async function start(opts: StartSandboxOptions = {}): Promise<Sandbox> {
  const sb = await startSandbox({ manual: true, instant: true, seed: 11, ...opts })
  started.push(sb)
  return sb
}

async function send(sb: Sandbox, from: Keypair, op: xdr.Operation, soroban = false): Promise<void> {
  let tx: Transaction = new TransactionBuilder(await sb.server.getAccount(from.publicKey()), { fee: BASE_FEE, networkPassphrase: sb.networkPassphrase })
    .addOperation(op)
    .setTimeout(0)
    .build()
  if (soroban) tx = await sb.server.prepareTransaction(tx)
  tx.sign(from)
  const sent = await sb.server.sendTransaction(tx)
  const r = await sb.server.pollTransaction(sent.hash, { attempts: 50, sleepStrategy: () => 50 })
  expect(r.status).toBe(rpc.Api.GetTransactionStatus.SUCCESS)
}

/** Raw JSON-RPC answers: the comparison is of the wire. */
async function raw(sb: Sandbox, method: string, params: unknown): Promise<unknown> {
  const res = await fetch(sb.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  return ((await res.json()) as { result: unknown }).result
}

const accountKey = (kp: Keypair) => xdr.LedgerKey.account(new xdr.LedgerKeyAccount({ accountId: kp.xdrPublicKey() })).toXDR('base64')
const instanceKey = (contract: string) =>
  xdr.LedgerKey.contractData(
    new xdr.LedgerKeyContractData({ contract: new Address(contract).toScAddress(), key: xdr.ScVal.scvLedgerKeyContractInstance(), durability: xdr.ContractDataDurability.persistent }),
  ).toXDR('base64')

describe('ledger snapshots (LedgerSnapshot JSON)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-snapshot-'))
  const [alice, bob] = [Keypair.random(), Keypair.random()]
  let first: Sandbox
  let sac: string

  it('a dump loaded into a fresh node gives identical getLedgerEntries and simulateTransaction answers', async () => {
    first = await start()
    await first.server.requestAirdrop(alice.publicKey())
    await first.server.requestAirdrop(bob.publicKey())
    sac = Asset.native().contractId(first.networkPassphrase)
    await send(first, alice, Operation.createStellarAssetContract({ asset: Asset.native() }), true)
    const transfer = (amount: bigint) =>
      Operation.invokeContractFunction({
        contract: sac,
        function: 'transfer',
        args: [new Address(alice.publicKey()).toScVal(), new Address(bob.publicKey()).toScVal(), nativeToScVal(amount, { type: 'i128' })],
      })
    await send(first, alice, transfer(5_0000000n), true)

    const file = join(dir, 'world.json')
    const dumped = (await first.call('sandbox_dumpSnapshot', { path: file })) as { latestLedger: number; entries: number }
    const snap = JSON.parse(readFileSync(file, 'utf8')) as { sequence_number: number; protocol_version: number; ledger_entries: unknown[] }
    expect(snap.sequence_number).toBe(dumped.latestLedger)
    expect(snap.protocol_version).toBe(28)
    expect(snap.ledger_entries.length).toBe(dumped.entries)

    const second = await start({ extraArgs: ['--snapshot', file] })
    const keys = { keys: [accountKey(alice), accountKey(bob), instanceKey(sac)] }
    const entries = await raw(first, 'getLedgerEntries', keys)
    expect((entries as { entries: unknown[] }).entries.length).toBe(3)
    expect(await raw(second, 'getLedgerEntries', keys)).toEqual(entries)

    const draft = new TransactionBuilder(await first.server.getAccount(alice.publicKey()), { fee: BASE_FEE, networkPassphrase: first.networkPassphrase })
      .addOperation(transfer(1_0000000n))
      .setTimeout(0)
      .build()
    const sim = await raw(first, 'simulateTransaction', { transaction: draft.toXDR() })
    expect(sim).toHaveProperty('transactionData')
    expect(await raw(second, 'simulateTransaction', { transaction: draft.toXDR() })).toEqual(sim)
    // The loaded node goes on from the snapshot's ledger.
    expect(await second.closeLedgers(1)).toBe(dumped.latestLedger + 1)
  })

  it('dumps only the given contracts and accounts', async () => {
    const file = join(dir, 'part.json')
    await first.call('sandbox_dumpSnapshot', { path: file, contracts: [sac], accounts: [bob.publicKey()] })
    const snap = JSON.parse(readFileSync(file, 'utf8')) as { ledger_entries: Array<{ entry: { data: Record<string, Record<string, unknown>> } }> }
    const kinds = snap.ledger_entries.map((e) => Object.keys(e.entry.data)[0])
    expect(new Set(kinds)).toEqual(new Set(['account', 'contract_data']))
    expect(kinds.filter((k) => k === 'account')).toHaveLength(1)
    expect(snap.ledger_entries.find((e) => e.entry.data.account)?.entry.data.account?.account_id).toBe(bob.publicKey())
  })

  it('sandbox_loadSnapshot replaces a running node state; bad input is refused and changes nothing', async () => {
    const third = await start()
    const at = (await third.server.getLatestLedger()).sequence
    await expect(third.call('sandbox_loadSnapshot', { path: join(dir, 'missing.json') })).rejects.toThrow(/missing\.json/)
    await expect(third.call('sandbox_dumpSnapshot', { path: join(dir, 'x.json'), contracts: ['nope'] })).rejects.toThrow(/contracts: "nope" is not a contract address/)
    await expect(third.call('sandbox_loadSnapshot', {})).rejects.toThrow(/path .* is required/)
    expect((await third.server.getLatestLedger()).sequence).toBe(at)
    const loaded = (await third.call('sandbox_loadSnapshot', { path: join(dir, 'world.json') })) as { latestLedger: number }
    expect((await third.server.getLatestLedger()).sequence).toBe(loaded.latestLedger)
    expect((await third.server.getAccount(alice.publicKey())).accountId()).toBe(alice.publicKey())
  })
})
