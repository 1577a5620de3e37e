/**
 * Helpers of benchmarks/keeper-cycle.ts: an rpc.Server that counts its requests, the CPU clocks of
 * this process and of the sandbox node, one cycle's figures and their medians, synthetic borrowers
 * written straight into the sandbox's ledger, a CPU profile of a stretch of code, and the markdown
 * table.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { join } from 'node:path'
import { Address, StrKey, xdr, type rpc } from '@stellar/stellar-sdk'
import { encodePositions } from '../../src/keeper/adapters/blend/fakeLedger.test-util.js'

/**
 * rpc.Server whose every request is counted by method; `busyMs` is the wall time with at least
 * one request in flight (the cycle's time spent waiting for the node, overlapping requests once).
 */
export function countingServer(inner: rpc.Server): { server: rpc.Server; counts: Map<string, number>; reset(): void; total(): number; busyMs(): number } {
  const counts = new Map<string, number>()
  const methods = ['getLedgerEntries', 'getEvents', 'getHealth', 'getLatestLedger', 'simulateTransaction', 'sendTransaction', 'getTransaction', 'getAccount']
  let inFlight = 0
  let since = 0
  let busy = 0
  const done = () => {
    if (--inFlight === 0) busy += performance.now() - since
  }
  const server = new Proxy(inner, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown
      if (typeof prop === 'string' && methods.includes(prop) && typeof v === 'function') {
        return (...a: unknown[]) => {
          counts.set(prop, (counts.get(prop) ?? 0) + 1)
          if (inFlight++ === 0) since = performance.now()
          const out = (v as (...x: unknown[]) => Promise<unknown>).apply(target, a)
          out.then(done, done)
          return out
        }
      }
      return typeof v === 'function' ? (v as (...x: unknown[]) => unknown).bind(target) : v
    },
  })
  return {
    server,
    counts,
    reset: () => {
      counts.clear()
      busy = 0
      if (inFlight > 0) since = performance.now()
    },
    total: () => [...counts.values()].reduce((s, v) => s + v, 0),
    busyMs: () => busy + (inFlight > 0 ? performance.now() - since : 0),
  }
}

/** The sandbox node started by this process (its child), from /proc: Linux only, else undefined. */
function sandboxPid(): string | undefined {
  try {
    return readdirSync('/proc').find((d) => {
      if (!/^\d+$/.test(d)) return false
      try {
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8')
        return stat.includes('(sandbox)') && stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] === String(process.pid)
      } catch {
        return false
      }
    })
  } catch {
    return undefined
  }
}

/**
 * CPU time (ms) of this process and of the sandbox node, and the node's peak RSS (MB), read from
 * /proc (undefined elsewhere).
 */
export function cpuClock(): { cpu(): { clientMs: number; nodeMs: number | undefined }; nodePeakRssMb(): number | undefined } {
  const pid = sandboxPid()
  const read = (file: string): string | undefined => {
    try {
      return pid === undefined ? undefined : readFileSync(`/proc/${pid}/${file}`, 'utf8')
    } catch {
      return undefined
    }
  }
  return {
    cpu() {
      const u = process.cpuUsage()
      const stat = read('stat')
      const f = stat?.slice(stat.lastIndexOf(')') + 2).split(' ')
      // utime and stime, in ticks of 10 ms (USER_HZ 100).
      return { clientMs: (u.user + u.system) / 1000, nodeMs: f === undefined ? undefined : (Number(f[11]) + Number(f[12])) * 10 }
    },
    nodePeakRssMb() {
      const m = /VmHWM:\s+(\d+) kB/.exec(read('status') ?? '')
      return m === null ? undefined : Math.round(Number(m[1]) / 1024)
    },
  }
}

export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

export interface Cycle {
  ms: number
  requests: number
  getLedgerEntries: number
  waves: number
  positionsRead: number
  fullRead: string | undefined
  /** CPU of this process (the keeper) and of the sandbox node during the cycle; time with a request open. */
  clientCpuMs: number
  nodeCpuMs: number | undefined
  rpcMs: number
}

/** The median of each figure over some cycles. */
export function med(cs: Cycle[]): Omit<Cycle, 'fullRead'> {
  const m = (f: (c: Cycle) => number) => Number(median(cs.map(f)).toFixed(1))
  return {
    ms: m((c) => c.ms),
    requests: m((c) => c.requests),
    getLedgerEntries: m((c) => c.getLedgerEntries),
    waves: m((c) => c.waves),
    positionsRead: m((c) => c.positionsRead),
    clientCpuMs: m((c) => c.clientCpuMs),
    nodeCpuMs: cs.some((c) => c.nodeCpuMs === undefined) ? undefined : m((c) => c.nodeCpuMs!),
    rpcMs: m((c) => c.rpcMs),
  }
}

/** The i-th synthetic borrower: a G... address from sha256("keeper-cycle borrower i"), the same every run. */
export function syntheticUser(i: number): string {
  return StrKey.encodeEd25519PublicKey(createHash('sha256').update(`keeper-cycle borrower ${i}`).digest())
}

export interface SyntheticPositions {
  rpcUrl: string
  pool: string
  collateral: Map<number, bigint>
  liabilities: Map<number, bigint>
  /** Entries per JSON-RPC batch (one HTTP request; the node takes at most 8 MiB). */
  perRequest?: number
  /** Batches in flight. */
  inFlight?: number
}

/**
 * Writes one Positions entry per user with `sandbox_setLedgerEntry`, many calls to one JSON-RPC
 * batch (the node's transport answers an array of requests in one HTTP round trip). The keys are
 * built here rather than with storage.ts `positionsKey`, so the scanner's key cache stays as cold
 * as a keeper's and a wrongly built key shows as borrowers without debt.
 */
export async function writePositions(users: readonly string[], o: SyntheticPositions): Promise<void> {
  const contract = new Address(o.pool).toScAddress()
  const val = encodePositions({ collateral: o.collateral, liabilities: o.liabilities, supply: new Map() })
  await setLedgerEntries(o.rpcUrl, users, o, (user) => {
    const key = xdr.ScVal.scvVec([xdr.ScVal.scvSymbol('Positions'), new Address(user).toScVal()])
    return new xdr.LedgerEntry({
      lastModifiedLedgerSeq: 0,
      data: xdr.LedgerEntryData.contractData(
        new xdr.ContractDataEntry({ ext: xdr.ExtensionPoint.v0(), contract, key, durability: xdr.ContractDataDurability.persistent, val }),
      ),
      ext: xdr.LedgerEntryExt.v0(),
    })
  })
}

/**
 * Writes the ledger entry `entry(item)` of each item with `sandbox_setLedgerEntry`, `perRequest`
 * calls to one JSON-RPC batch, `inFlight` batches at a time. `liveUntilLedgerSeq` (entries with a
 * TTL): absent, the node keeps an existing entry's TTL or gives a new one the network's minimum
 * persistent TTL.
 */
export async function setLedgerEntries<T>(
  rpcUrl: string,
  items: readonly T[],
  o: { perRequest?: number; inFlight?: number; liveUntilLedgerSeq?: number },
  entry: (item: T) => xdr.LedgerEntry,
): Promise<void> {
  const perRequest = o.perRequest ?? 500
  let next = 0
  let id = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const chunk = items.slice(next, next + perRequest)
      next += chunk.length
      const body = chunk.map((item) => ({
        jsonrpc: '2.0',
        id: ++id,
        method: 'sandbox_setLedgerEntry',
        params: { entry: entry(item).toXdr('base64'), ...(o.liveUntilLedgerSeq === undefined ? {} : { liveUntilLedgerSeq: o.liveUntilLedgerSeq }) },
      }))
      const res = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      const answers = (await res.json()) as { error?: { message: string } }[]
      const failed = Array.isArray(answers) ? answers.find((a) => a.error !== undefined) : { error: { message: JSON.stringify(answers) } }
      if (failed !== undefined || answers.length !== chunk.length) throw new Error(`sandbox_setLedgerEntry batch: ${failed?.error?.message ?? `${answers.length} answers`}`)
    }
  }
  await Promise.all(Array.from({ length: o.inFlight ?? 2 }, worker))
}

/**
 * Runs `fn` under the V8 sampling profiler and writes DIR/NAME.cpuprofile (Chrome DevTools, or
 * `npx speedscope`). Without a directory, just runs `fn`.
 */
export async function profiled<T>(dir: string | undefined, name: string, fn: () => Promise<T>): Promise<T> {
  if (dir === undefined) return fn()
  const session = new Session()
  session.connect()
  try {
    await session.post('Profiler.enable')
    await session.post('Profiler.setSamplingInterval', { interval: 200 })
    await session.post('Profiler.start')
    const out = await fn()
    const { profile } = await session.post('Profiler.stop')
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify(profile))
    return out
  } finally {
    session.disconnect()
  }
}

/** A markdown table with padded columns. */
export function markdownTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n')
}
