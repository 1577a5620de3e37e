/**
 * Lazy fork benchmark: getLedgerEntries on a node started with `--fork-url` against another
 * sandbox node (the upstream), with a cold cache (every key fetched from the upstream) and a warm
 * one (the same keys again), one key and 50 keys per request; the upstream itself as the control.
 *
 *   upstream   a manual node holding N extra entries written with `sandbox_setLedgerEntry`: half
 *              accounts, half persistent contract data (64-byte values) spread over 4 contracts
 *   fork       `startSandbox({ manual, networkPassphrase, extraArgs: ['--fork-url', upstream] })`,
 *              a fresh one per cold pass, so each cold pass starts with nothing fetched
 *   reads      one client, one request at a time, every key once per pass, in a shuffled order;
 *              every answer must hold every key asked for
 *   upstream   `sandbox_forkStatus` before and after each pass: requests sent upstream, keys
 *              fetched, cache hits
 *
 * Run: npx tsx benchmarks/sandbox-fork.ts   (options: --entries 2000 --reps 3 --batch 50;
 *      npm run bench -- sandbox-fork). Prints a table and a final JSON line.
 */
import { performance } from 'node:perf_hooks'
import { Address, Keypair, hash, xdr } from '@stellar/stellar-sdk'
import { startSandbox, type ForkStatus, type Sandbox } from '../sandbox/ts/launch.js'
import { plainAccountEntry } from '../src/chain/index.js'
import { textTable } from '../sim/src/report/summary.js'

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback
}

const ENTRIES = Number(arg('entries', '2000'))
const REPS = Number(arg('reps', '3'))
const BATCH = Number(arg('batch', '50'))
const CONTRACTS = 4
const log = (line: string) => process.stderr.write(`${line}\n`)
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

const seed = (label: string) => hash(Buffer.from(`sandbox-fork-bench/${label}`))

/** The i-th extra entry: an account for even i, a contract data entry for odd i. */
function entry(i: number): xdr.LedgerEntry {
  const data =
    i % 2 === 0
      ? plainAccountEntry(Keypair.fromRawEd25519Seed(seed(`account/${i}`)).publicKey(), 1_000_000_000n, 0n)
      : xdr.LedgerEntryData.contractData(
          new xdr.ContractDataEntry({
            ext: xdr.ExtensionPoint.v0(),
            contract: Address.contract(seed(`contract/${i % CONTRACTS}`)).toScAddress(),
            key: xdr.ScVal.scvU32(i),
            durability: xdr.ContractDataDurability.persistent,
            val: xdr.ScVal.scvBytes(Buffer.alloc(64, i % 256)),
          }),
        )
  return new xdr.LedgerEntry({ lastModifiedLedgerSeq: 0, data, ext: xdr.LedgerEntryExt.v0() })
}

function keyOf(e: xdr.LedgerEntry): string {
  const d = e.data
  if (d.type === 'account') return xdr.LedgerKey.account(new xdr.LedgerKeyAccount({ accountId: d.account.accountId })).toXdr('base64')
  const c = xdr.expectUnionVariant(d, 'contractData').contractData
  return xdr.LedgerKey.contractData(new xdr.LedgerKeyContractData({ contract: c.contract, key: c.key, durability: c.durability })).toXdr('base64')
}

/** Fisher-Yates with a fixed LCG, so every run reads in the same order. */
function shuffled<T>(xs: readonly T[]): T[] {
  const out = [...xs]
  let s = 12345
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2 ** 31
    const j = s % (i + 1)
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

interface Pass {
  readsPerSec: number
  requestMsP50: number
  upstreamRequests: number
  keysFetched: number
  cacheHits: number
}

/** Reads every key once, `batch` keys per request; upstream counters from the fork, if it is one. */
async function pass(node: Sandbox, keys: string[], batch: number, fork: boolean): Promise<Pass> {
  const status = () => (fork ? node.call<ForkStatus>('sandbox_forkStatus') : Promise.resolve(undefined))
  const s0 = await status()
  const lat: number[] = []
  const t0 = performance.now()
  for (let i = 0; i < keys.length; i += batch) {
    const asked = keys.slice(i, i + batch)
    const t = performance.now()
    const r = await node.call<{ entries?: unknown[] }>('getLedgerEntries', { keys: asked })
    lat.push(performance.now() - t)
    const got = r.entries?.length ?? 0
    if (got !== asked.length) throw new Error(`getLedgerEntries answered ${got} of ${asked.length} keys (from key ${i})`)
  }
  const seconds = (performance.now() - t0) / 1000
  const s1 = await status()
  return {
    readsPerSec: keys.length / seconds,
    requestMsP50: median(lat),
    upstreamRequests: s0 && s1 ? s1.requests - s0.requests : 0,
    keysFetched: s0 && s1 ? s1.keysFetched - s0.keysFetched : 0,
    cacheHits: s0 && s1 ? s1.cacheHits - s0.cacheHits : 0,
  }
}

async function main() {
  const upstream = await startSandbox({ manual: true })
  const rows = new Map<string, Pass[]>()
  const add = (name: string, p: Pass) => rows.set(name, [...(rows.get(name) ?? []), p])
  const forkStartMs: number[] = []
  /** What a fork asks its upstream for before its first client request (ledger, network, settings). */
  const forkStartUpstream: { requests: number; keysFetched: number }[] = []
  try {
    const t0 = performance.now()
    const entries = Array.from({ length: ENTRIES }, (_, i) => entry(i))
    for (let i = 0; i < entries.length; i += 16) {
      await Promise.all(
        entries.slice(i, i + 16).map((e) => upstream.call('sandbox_setLedgerEntry', { entry: e.toXdr('base64'), liveUntilLedgerSeq: 10_000_000 })),
      )
    }
    await upstream.closeLedgers(1)
    const keys = shuffled(entries.map(keyOf))
    log(`upstream: ${ENTRIES} entries written in ${((performance.now() - t0) / 1000).toFixed(1)} s`)

    const startFork = async () => {
      const t = performance.now()
      const node = await startSandbox({ manual: true, networkPassphrase: upstream.networkPassphrase, extraArgs: ['--fork-url', upstream.rpcUrl] })
      forkStartMs.push(performance.now() - t)
      const s = await node.call<ForkStatus>('sandbox_forkStatus')
      forkStartUpstream.push({ requests: s.requests, keysFetched: s.keysFetched })
      return node
    }
    for (let rep = 0; rep < REPS; rep++) {
      add('upstream, 1 key', await pass(upstream, keys, 1, false))
      add(`upstream, ${BATCH} keys`, await pass(upstream, keys, BATCH, false))
      for (const batch of [1, BATCH]) {
        const fork = await startFork()
        try {
          add(`fork cold, ${batch === 1 ? '1 key' : `${batch} keys`}`, await pass(fork, keys, batch, true))
          add(`fork warm, 1 key`, await pass(fork, keys, 1, true))
          add(`fork warm, ${BATCH} keys`, await pass(fork, keys, BATCH, true))
        } finally {
          await fork.stop()
        }
      }
      log(`rep ${rep + 1}/${REPS} done`)
    }
  } finally {
    await upstream.stop()
  }

  const order = ['upstream, 1 key', `upstream, ${BATCH} keys`, 'fork cold, 1 key', `fork cold, ${BATCH} keys`, 'fork warm, 1 key', `fork warm, ${BATCH} keys`]
  const fmt = (xs: number[], digits = 0) => {
    const m = median(xs).toFixed(digits)
    return xs.length > 1 ? `${m} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})` : m
  }
  const table = order.map((name) => {
    const ps = rows.get(name) ?? []
    return [
      name,
      fmt(ps.map((p) => p.readsPerSec)),
      fmt(ps.map((p) => p.requestMsP50), 2),
      name.startsWith('fork') ? fmt(ps.map((p) => p.upstreamRequests)) : '–',
      name.startsWith('fork') ? fmt(ps.map((p) => p.keysFetched)) : '–',
      name.startsWith('fork') ? fmt(ps.map((p) => p.cacheHits)) : '–',
    ]
  })
  process.stdout.write(
    `\ngetLedgerEntries over ${ENTRIES} keys (${ENTRIES / 2} accounts, ${ENTRIES / 2} contract data), one client, ${REPS} reps: median (min–max)\n` +
      `${textTable(['pass', 'keys/s', 'ms per request p50', 'upstream requests', 'keys fetched', 'cache hits'], table, ['left', 'right', 'right', 'right', 'right', 'right'])}\n` +
      `fork start (spawn -> ready): ${fmt(forkStartMs)} ms; upstream requests by then ${fmt(forkStartUpstream.map((u) => u.requests))}, keys fetched ${fmt(forkStartUpstream.map((u) => u.keysFetched))}\n`,
  )
  const json = Object.fromEntries(order.map((name) => [name, rows.get(name)]))
  process.stdout.write(`${JSON.stringify({ entries: ENTRIES, reps: REPS, batch: BATCH, forkStartMs, forkStartUpstream, passes: json })}\n`)
}

main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
