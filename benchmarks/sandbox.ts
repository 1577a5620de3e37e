/**
 * Sandbox node benchmark: cold start, simulate latency (p50/p99) and applied transactions per
 * second for native SAC transfers and a contract call (the sandbox-fixture `increment`).
 *
 * Run: npx tsx benchmarks/sandbox.ts   (builds target/sandbox/sandbox and the fixture wasm if needed)
 */
import { readFileSync, existsSync } from 'node:fs'
import { spawn, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import {
  Address,
  Asset,
  BASE_FEE,
  Contract,
  Keypair,
  Operation,
  TimeoutInfinite,
  TransactionBuilder,
  contract,
  nativeToScVal,
  rpc,
  scValToNative,
  type xdr,
} from '@stellar/stellar-sdk'
import { REPO_ROOT, ensureSandboxBinary, startSandbox, type Sandbox } from '../sandbox/ts/launch.js'

const TXS = Number(process.env.BENCH_TXS ?? 400)
const SIMS = Number(process.env.BENCH_SIMS ?? 300)

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!
}

async function coldStart(): Promise<number> {
  const bin = ensureSandboxBinary()
  const times: number[] = []
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now()
    const child = spawn(bin, ['--port', '0', '--manual', '--quiet'], { stdio: ['ignore', 'pipe', 'ignore'] })
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (d: Buffer) => {
        if (d.toString().includes('sandbox ready')) resolve()
      })
    })
    times.push(performance.now() - t0)
    child.kill('SIGTERM')
    await new Promise((r) => child.once('exit', r))
  }
  return pct(times, 50)
}

async function submitAll(sb: Sandbox, txs: { toXdr(): string }[]): Promise<string[]> {
  const hashes: string[] = []
  for (const tx of txs) {
    const r = await sb.call<{ status: string; hash: string; errorResultXdr?: string }>('sendTransaction', { transaction: tx.toXdr() })
    if (r.status !== 'PENDING') throw new Error(`send: ${r.status} ${r.errorResultXdr ?? ''}`)
    hashes.push(r.hash)
  }
  return hashes
}

/** Signs `count` copies of an operation from `source`, with consecutive sequence numbers. */
async function batch(sb: Sandbox, source: Keypair, op: xdr.Operation, count: number) {
  const account = await sb.server.getAccount(source.publicKey())
  const draft = new TransactionBuilder(account, { fee: BASE_FEE, networkPassphrase: sb.networkPassphrase })
    .addOperation(op)
    .setTimeout(TimeoutInfinite)
    .build()
  const sim = await sb.server.simulateTransaction(draft)
  if (!rpc.Api.isSimulationSuccess(sim)) throw new Error(`simulate: ${(sim as { error?: string }).error}`)
  const acc = await sb.server.getAccount(source.publicKey())
  const out = []
  for (let i = 0; i < count; i++) {
    const tx = rpc.assembleTransaction(
      new TransactionBuilder(acc, { fee: BASE_FEE, networkPassphrase: sb.networkPassphrase }).addOperation(op).setTimeout(TimeoutInfinite).build(),
      sim,
    ).build()
    tx.sign(source)
    out.push(tx)
  }
  return out
}

/**
 * Submits the batch, then closes ledgers until the queue is empty (testnet's per-ledger limits
 * take 100 Soroban transactions a ledger); the rate is over the closes' total time.
 */
async function applyRate(sb: Sandbox, sources: Keypair[], op: (kp: Keypair) => xdr.Operation): Promise<{ perSec: number; n: number; closes: number }> {
  const per = Math.ceil(TXS / sources.length)
  const bySource: Awaited<ReturnType<typeof batch>>[] = []
  for (const kp of sources) bySource.push(await batch(sb, kp, op(kp), per))
  // Round robin over the sources, so every account moves each ledger (an account left
  // waiting 4 closes would be dropped from the queue).
  const txs = Array.from({ length: per }, (_, i) => bySource.map((b) => b[i]!)).flat()
  const hashes = await submitAll(sb, txs)
  let closes = 0
  let dt = 0
  for (;;) {
    const t0 = performance.now()
    await sb.closeLedgers(1)
    dt += (performance.now() - t0) / 1000
    closes++
    const { pending } = await sb.call<{ pending: unknown[] }>('sandbox_pending')
    if (pending.length === 0) break
  }
  for (const h of [hashes[0]!, hashes[hashes.length - 1]!]) {
    const r = await sb.server.getTransaction(h)
    if (r.status !== 'SUCCESS') throw new Error(`transaction ${h}: ${r.status}`)
  }
  return { perSec: txs.length / dt, n: txs.length, closes }
}

async function main() {
  const cold = await coldStart()
  // Relaxed queue rules: each of the 8 sources queues its whole share of the batch before a close.
  const sb = await startSandbox({ manual: true, queueRules: 'relaxed' })
  try {
    const sources = Array.from({ length: 8 }, () => Keypair.random())
    for (const kp of sources) await sb.server.requestAirdrop(kp.publicKey())
    const sink = Keypair.random()
    await sb.server.requestAirdrop(sink.publicKey())

    // Native asset contract.
    const native = Asset.native()
    const deployer = sources[0]!
    const dep = await sb.server.prepareTransaction(
      new TransactionBuilder(await sb.server.getAccount(deployer.publicKey()), { fee: BASE_FEE, networkPassphrase: sb.networkPassphrase })
        .addOperation(Operation.createStellarAssetContract({ asset: native }))
        .setTimeout(60)
        .build(),
    )
    dep.sign(deployer)
    await submitAll(sb, [dep])
    await sb.closeLedgers(1)
    const sac = new Contract(native.contractId(sb.networkPassphrase))

    // Simulate latency: SAC balance reads.
    const reader = new TransactionBuilder(await sb.server.getAccount(sink.publicKey()), { fee: BASE_FEE, networkPassphrase: sb.networkPassphrase })
      .addOperation(sac.call('balance', new Address(sink.publicKey()).toScVal()))
      .setTimeout(TimeoutInfinite)
      .build()
      .toXdr()
    const lat: number[] = []
    for (let i = 0; i < SIMS; i++) {
      const t0 = performance.now()
      await sb.call('simulateTransaction', { transaction: reader })
      lat.push(performance.now() - t0)
    }

    const sacRate = await applyRate(sb, sources, (kp) =>
      sac.call('transfer', new Address(kp.publicKey()).toScVal(), new Address(sink.publicKey()).toScVal(), nativeToScVal(1n, { type: 'i128' })),
    )

    // Contract call: the fixture's increment (auth by the source account).
    const wasmPath = join(REPO_ROOT, 'target', 'wasm', 'sandbox_fixture.wasm')
    if (!existsSync(wasmPath)) spawnSync('bash', ['scripts/build-wasm.sh', 'sandbox-fixture'], { cwd: REPO_ROOT, stdio: 'inherit' })
    const up = await sb.server.prepareTransaction(
      new TransactionBuilder(await sb.server.getAccount(deployer.publicKey()), { fee: BASE_FEE, networkPassphrase: sb.networkPassphrase })
        .addOperation(Operation.uploadContractWasm({ wasm: readFileSync(wasmPath) }))
        .setTimeout(60)
        .build(),
    )
    up.sign(deployer)
    const [upHash] = await submitAll(sb, [up])
    await sb.closeLedgers(1)
    const upRes = await sb.server.getTransaction(upHash!)
    if (upRes.status !== 'SUCCESS') throw new Error('upload failed')
    const wasmHash = Buffer.from(scValToNative(upRes.returnValue!) as Uint8Array)
    const deployTx = await contract.Client.deploy(
      { admin: deployer.publicKey(), start: 0 },
      { rpcUrl: sb.rpcUrl, networkPassphrase: sb.networkPassphrase, allowHttp: true, publicKey: deployer.publicKey(), wasmHash, ...contract.basicNodeSigner(deployer, sb.networkPassphrase) },
    )
    await deployTx.sign()
    const built = deployTx.signed!
    const [depHash] = await submitAll(sb, [built])
    await sb.closeLedgers(1)
    const depRes = await sb.server.getTransaction(depHash!)
    if (depRes.status !== 'SUCCESS') throw new Error('deploy failed')
    const fixture = new Contract(Address.fromScVal(depRes.returnValue!).toString())
    const callRate = await applyRate(sb, sources, (kp) => fixture.call('increment', new Address(kp.publicKey()).toScVal(), nativeToScVal(1, { type: 'u32' })))

    const fmt = (x: number) => x.toFixed(2)
    console.log(`cold start (spawn -> ready, p50 of 5): ${fmt(cold)} ms`)
    console.log(`simulate (SAC balance) p50: ${fmt(pct(lat, 50))} ms  p99: ${fmt(pct(lat, 99))} ms  (n=${SIMS})`)
    console.log(`applied SAC transfers: ${sacRate.perSec.toFixed(0)} tx/s  (${sacRate.n} txs in ${sacRate.closes} ledger closes)`)
    console.log(`applied contract calls (fixture increment): ${callRate.perSec.toFixed(0)} tx/s  (${callRate.n} txs in ${callRate.closes} ledger closes)`)
  } finally {
    await sb.stop()
  }
}

main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
