import { readFileSync, existsSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  Address,
  Asset,
  BASE_FEE,
  Contract,
  Keypair,
  Operation,
  SorobanDataBuilder,
  TransactionBuilder,
  contract,
  nativeToScVal,
  rpc,
  scValToNative,
  xdr,
  type Transaction,
} from '@stellar/stellar-sdk'
import { REPO_ROOT, startSandbox, type Sandbox } from './launch.js'

const WASM = join(REPO_ROOT, 'target', 'wasm', 'sandbox_fixture.wasm')

let sb: Sandbox
let admin: Keypair

function fixtureWasm(): Buffer {
  if (!existsSync(WASM)) {
    const r = spawnSync('bash', ['scripts/build-wasm.sh', 'sandbox-fixture'], { cwd: REPO_ROOT, stdio: 'inherit' })
    if (r.status !== 0) throw new Error('building the sandbox-fixture wasm failed')
  }
  return readFileSync(WASM)
}

async function send(tx: Transaction, signer: Keypair): Promise<rpc.Api.GetTransactionResponse> {
  const prepared = await sb.server.prepareTransaction(tx)
  prepared.sign(signer)
  const sent = await sb.server.sendTransaction(prepared)
  expect(sent.status).toBe('PENDING')
  return sb.server.pollTransaction(sent.hash, { attempts: 100, sleepStrategy: () => 100 })
}

async function builder(kp: Keypair, fee: string = BASE_FEE) {
  return new TransactionBuilder(await sb.server.getAccount(kp.publicKey()), { fee, networkPassphrase: sb.networkPassphrase }).setTimeout(60)
}

async function uploadFixture(): Promise<Buffer> {
  const wasm = fixtureWasm()
  const res = await send((await builder(admin)).addOperation(Operation.uploadContractWasm({ wasm })).build(), admin)
  expect(res.status).toBe(rpc.Api.GetTransactionStatus.SUCCESS)
  if (res.status !== rpc.Api.GetTransactionStatus.SUCCESS) throw new Error('upload failed')
  return Buffer.from(scValToNative(res.returnValue!) as Uint8Array)
}

function clientOptions(kp: Keypair) {
  return {
    rpcUrl: sb.rpcUrl,
    networkPassphrase: sb.networkPassphrase,
    allowHttp: true,
    publicKey: kp.publicKey(),
    ...contract.basicNodeSigner(kp, sb.networkPassphrase),
  }
}

beforeAll(async () => {
  sb = await startSandbox({ ledgerIntervalSeconds: 0.2 })
  admin = Keypair.random()
  await sb.server.requestAirdrop(admin.publicKey())
})
afterAll(async () => {
  await sb?.stop()
})

describe('Soroban through rpc.Server and contract.Client', () => {
  it('uploads and deploys a contract with a constructor, then calls it through contract.Client', async () => {
    const wasmHash = await uploadFixture()
    const deployTx = await contract.Client.deploy({ admin: admin.publicKey(), start: 10 }, { ...clientOptions(admin), wasmHash })
    const { result: client } = await deployTx.signAndSend()
    const contractId = client.options.contractId
    expect(contractId).toMatch(/^C[A-Z2-7]{55}$/)

    const user = Keypair.random()
    await sb.server.requestAirdrop(user.publicKey())
    const c = await contract.Client.from({ ...clientOptions(user), contractId })
    const get = (await (c as any).get({ user: user.publicKey() })) as contract.AssembledTransaction<number>
    expect(get.result).toBe(10)
    const inc = (await (c as any).increment({ user: user.publicKey(), by: 5 })) as contract.AssembledTransaction<number>
    const sent = await inc.signAndSend()
    expect(sent.result).toBe(15)
    const after = (await (c as any).get({ user: user.publicKey() })) as contract.AssembledTransaction<number>
    expect(after.result).toBe(15)

    // Its event is found by getEvents with a topic filter.
    const latest = await sb.server.getLatestLedger()
    const events = await sb.server.getEvents({
      startLedger: Math.max(1, latest.sequence - 50),
      filters: [{ type: 'contract', contractIds: [contractId], topics: [[nativeToScVal('incr', { type: 'symbol' }).toXdr('base64'), '*']] }],
    })
    expect(events.events.length).toBe(1)
    expect(scValToNative(events.events[0]!.value)).toBe(15)
    expect(events.events[0]!.id).toMatch(/^\d{19}-\d{10}$/)
  })

  it('pages through events with a cursor', async () => {
    const wasmHash = await uploadFixture()
    const { result: client } = await (await contract.Client.deploy({ admin: admin.publicKey(), start: 0 }, { ...clientOptions(admin), wasmHash })).signAndSend()
    const contractId = client.options.contractId
    const c = await contract.Client.from({ ...clientOptions(admin), contractId })
    const startLedger = (await sb.server.getLatestLedger()).sequence
    for (const by of [1, 2, 3]) {
      const tx = (await (c as any).increment({ user: admin.publicKey(), by })) as contract.AssembledTransaction<number>
      await tx.signAndSend()
    }
    const filters = [{ type: 'contract' as const, contractIds: [contractId] }]
    const seen: number[] = []
    let page = await sb.server.getEvents({ startLedger, filters, limit: 1 })
    while (page.events.length > 0) {
      expect(page.events.length).toBe(1)
      seen.push(scValToNative(page.events[0]!.value) as number)
      page = await sb.server.getEvents({ cursor: page.cursor, filters, limit: 1 })
    }
    expect(seen).toEqual([1, 3, 6])
  })

  it('accepts a call authorized by another account through signed auth entries', async () => {
    const wasmHash = await uploadFixture()
    const { result: client } = await (await contract.Client.deploy({ admin: admin.publicKey(), start: 100 }, { ...clientOptions(admin), wasmHash })).signAndSend()
    const user = Keypair.random()
    await sb.server.requestAirdrop(user.publicKey())
    const c = await contract.Client.from({ ...clientOptions(admin), contractId: client.options.contractId })
    // The admin pays and submits; the user only signs its authorization entry.
    const tx = (await (c as any).increment({ user: user.publicKey(), by: 7 })) as contract.AssembledTransaction<number>
    expect(tx.needsNonInvokerSigningBy()).toEqual([user.publicKey()])
    await tx.signAuthEntries({ address: user.publicKey(), signAuthEntry: contract.basicNodeSigner(user, sb.networkPassphrase).signAuthEntry })
    const sent = await tx.signAndSend()
    expect(sent.result).toBe(107)
  })

  it('enforces auth: another account cannot increment for the user', async () => {
    const wasmHash = await uploadFixture()
    const { result: client } = await (await contract.Client.deploy({ admin: admin.publicKey(), start: 0 }, { ...clientOptions(admin), wasmHash })).signAndSend()
    const victim = Keypair.random().publicKey()
    const contractId = client.options.contractId
    // Simulation records the victim's auth; sending without the victim's signature fails.
    const tx = (await builder(admin)).addOperation(new Contract(contractId).call('increment', new Address(victim).toScVal(), nativeToScVal(1, { type: 'u32' }))).build()
    const sim = await sb.server.simulateTransaction(tx)
    expect(rpc.Api.isSimulationSuccess(sim)).toBe(true)
    const prepared = rpc.assembleTransaction(tx, sim).build()
    prepared.sign(admin)
    const sent = await sb.server.sendTransaction(prepared)
    expect(sent.status).toBe('PENDING')
    const res = await sb.server.pollTransaction(sent.hash, { attempts: 100, sleepStrategy: () => 100 })
    expect(res.status).toBe(rpc.Api.GetTransactionStatus.FAILED)
  })

  it('deploys a Stellar Asset Contract, reads a balance by simulation, transfers and finds the event', async () => {
    const issuer = Keypair.random()
    const holder = Keypair.random()
    await sb.server.requestAirdrop(issuer.publicKey())
    await sb.server.requestAirdrop(holder.publicKey())
    const usdc = new Asset('USDC', issuer.publicKey())
    const trust = (await builder(holder)).addOperation(Operation.changeTrust({ asset: usdc })).build()
    trust.sign(holder)
    const s1 = await sb.server.sendTransaction(trust)
    expect((await sb.server.pollTransaction(s1.hash, { attempts: 50, sleepStrategy: () => 100 })).status).toBe('SUCCESS')

    const deployed = await send((await builder(issuer)).addOperation(Operation.createStellarAssetContract({ asset: usdc })).build(), issuer)
    expect(deployed.status).toBe('SUCCESS')
    const sacId = usdc.contractId(sb.networkPassphrase)
    const sac = new Contract(sacId)

    const mint = await send((await builder(issuer)).addOperation(sac.call('mint', new Address(holder.publicKey()).toScVal(), nativeToScVal(1_000_0000000n, { type: 'i128' }))).build(), issuer)
    expect(mint.status).toBe('SUCCESS')

    const balanceOf = async (who: string) => {
      const sim = await sb.server.simulateTransaction((await builder(holder)).addOperation(sac.call('balance', new Address(who).toScVal())).build())
      if (!rpc.Api.isSimulationSuccess(sim)) throw new Error(sim.error)
      return scValToNative(sim.result!.retval) as bigint
    }
    expect(await balanceOf(holder.publicKey())).toBe(1_000_0000000n)

    const to = Keypair.random()
    await sb.server.requestAirdrop(to.publicKey())
    const t2 = (await builder(to)).addOperation(Operation.changeTrust({ asset: usdc })).build()
    t2.sign(to)
    const s2 = await sb.server.sendTransaction(t2)
    await sb.server.pollTransaction(s2.hash, { attempts: 50, sleepStrategy: () => 100 })

    const transfer = await send(
      (await builder(holder)).addOperation(sac.call('transfer', new Address(holder.publicKey()).toScVal(), new Address(to.publicKey()).toScVal(), nativeToScVal(250_0000000n, { type: 'i128' }))).build(),
      holder,
    )
    expect(transfer.status).toBe('SUCCESS')
    expect(await balanceOf(to.publicKey())).toBe(250_0000000n)
    expect(await balanceOf(holder.publicKey())).toBe(750_0000000n)

    const latest = await sb.server.getLatestLedger()
    const ev = await sb.server.getEvents({
      startLedger: Math.max(1, latest.sequence - 50),
      filters: [{ type: 'contract', contractIds: [sacId], topics: [[nativeToScVal('transfer', { type: 'symbol' }).toXdr('base64'), '**']] }],
    })
    expect(ev.events.length).toBe(1)
    expect(ev.events[0]!.txHash).toBe((transfer as rpc.Api.GetSuccessfulTransactionResponse).txHash)
  })

  it('extends the TTL of a contract instance', async () => {
    const wasmHash = await uploadFixture()
    const { result: client } = await (await contract.Client.deploy({ admin: admin.publicKey(), start: 0 }, { ...clientOptions(admin), wasmHash })).signAndSend()
    const instanceKey = new Contract(client.options.contractId).getFootprint()
    const before = (await sb.server.getLedgerEntries(instanceKey)).entries[0]!.liveUntilLedgerSeq!
    const data = new SorobanDataBuilder().setReadOnly([instanceKey]).build()
    const latest = await sb.server.getLatestLedger()
    const extendTo = before - latest.sequence + 10_000
    const tx = (await builder(admin)).setSorobanData(data).addOperation(Operation.extendFootprintTtl({ extendTo })).build()
    const res = await send(tx, admin)
    expect(res.status).toBe('SUCCESS')
    const after = (await sb.server.getLedgerEntries(instanceKey)).entries[0]!.liveUntilLedgerSeq!
    expect(after).toBeGreaterThanOrEqual(before + 9_000)
  })

  const blendPool = join(REPO_ROOT, 'target', 'wasm', 'blend', 'pool.wasm')
  it.skipIf(!existsSync(blendPool))('uploads a large contract (the Blend v2 pool wasm)', async () => {
    const wasm = readFileSync(blendPool)
    const res = await send((await builder(admin)).addOperation(Operation.uploadContractWasm({ wasm })).build(), admin)
    expect(res.status).toBe(rpc.Api.GetTransactionStatus.SUCCESS)
  })

  it('a contract panic is FAILED on chain, with diagnostic events', async () => {
    const wasmHash = await uploadFixture()
    const { result: client } = await (await contract.Client.deploy({ admin: admin.publicKey(), start: 0 }, { ...clientOptions(admin), wasmHash })).signAndSend()
    const c = new Contract(client.options.contractId)
    // Simulation fails with the contract error ...
    const failTx = (await builder(admin)).addOperation(c.call('fail')).build()
    const sim = await sb.server.simulateTransaction(failTx)
    expect(rpc.Api.isSimulationError(sim)).toBe(true)
    expect((sim as rpc.Api.SimulateTransactionErrorResponse).error).toMatch(/Error\(Contract, #7\)/)
    // ... and sent anyway with the footprint of a read call, it fails on chain.
    const readSim = await sb.server.simulateTransaction((await builder(admin)).addOperation(c.call('admin')).build())
    if (!rpc.Api.isSimulationSuccess(readSim)) throw new Error('read simulation failed')
    const data = readSim.transactionData.setResourceFee(5_000_000).setResources(50_000_000, 200_000, 10_000).build()
    const tx = (await builder(admin, '5000100')).setSorobanData(data).addOperation(c.call('fail')).build()
    tx.sign(admin)
    const sent = await sb.server.sendTransaction(tx)
    expect(sent.status).toBe('PENDING')
    const res = await sb.server.pollTransaction(sent.hash, { attempts: 100, sleepStrategy: () => 100 })
    expect(res.status).toBe(rpc.Api.GetTransactionStatus.FAILED)
    if (res.status !== rpc.Api.GetTransactionStatus.FAILED) return
    expect(res.resultXdr.result.type).toBe('txFailed')
    const opResult = xdr.expectUnionVariant(xdr.expectUnionVariant(xdr.expectUnionVariant(res.resultXdr.result, 'txFailed').results[0]!, 'opInner').tr, 'invokeHostFunction').invokeHostFunctionResult
    expect(opResult.type).toBe('invokeHostFunctionTrapped')
    expect(res.diagnosticEventsXdr?.length ?? 0).toBeGreaterThan(0)
    // Fee charged: more than the inclusion fee, less than the whole offer (refundable part returned).
    expect(Number(res.resultXdr.feeCharged.toString())).toBeGreaterThan(100)
    expect(Number(res.resultXdr.feeCharged.toString())).toBeLessThan(5_000_100)
  })
})
