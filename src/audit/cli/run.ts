/**
 * What `npm run audit` does, as a function of its arguments and its output streams, so tests can
 * drive it in-process: one audit (exit 0 / 1 / 2), or `--watch`, which audits again every
 * `--interval-ledgers` ledgers until the signal aborts it, optionally serving Prometheus metrics.
 */
import { rpc } from '@stellar/stellar-sdk'
import { withLazyLatestLedger } from '../../chain/latestLedger.js'
import { audit } from '../audit.js'
import { ChainReadError } from '../errors.js'
import { call, connect, type AuditConnection } from '../rpc.js'
import type { AuditOptions, AuditReport } from '../types.js'
import { errorDocument, exitCodeOf, reportDocument, unreadableLine } from './document.js'
import { createAuditMetrics, serveMetrics, type AuditMetrics } from './metrics.js'
import { parseCli, USAGE, UsageError, type CliOptions } from './options.js'
import { renderReport, verdict, mark } from './table.js'

export interface CliIo {
  out(text: string): void
  err(text: string): void
  /** Terminal width for the text table. */
  columns?: number
  /** Aborts `--watch` (the process wires SIGINT and SIGTERM to it). */
  signal?: AbortSignal
  /** `--watch`: how often to ask the node for its latest ledger (default 1,000 ms). */
  pollMs?: number
  /** `--watch --metrics-port`: told the metrics URL once listening. */
  onMetrics?(url: string): void
}

/** Runs the command; resolves to the exit status. Never throws for bad input or an unreadable chain. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let opts: CliOptions | 'help'
  try {
    opts = parseCli(argv)
  } catch (err) {
    if (!(err instanceof UsageError)) throw err
    io.err(`audit: ${err.message}\n(npm run audit -- --help lists the options)\n`)
    return 2
  }
  if (opts === 'help') {
    io.out(`${USAGE}\n`)
    return 0
  }
  return opts.watch ? watch(opts, opts.watch, io) : once(opts, io)
}

function auditOptions(opts: CliOptions): AuditOptions {
  const o: AuditOptions = {}
  if (opts.fromLedger !== undefined) o.fromLedger = opts.fromLedger
  if (opts.depositors.length > 0) o.depositors = opts.depositors
  if (opts.concurrency !== undefined) o.concurrency = opts.concurrency
  return o
}

const addressesOf = (opts: CliOptions) => ({ vault: opts.vault, registry: opts.registry, ...(opts.usdc === undefined ? {} : { usdc: opts.usdc }) })

function server(opts: CliOptions): rpc.Server {
  return withLazyLatestLedger(new rpc.Server(opts.rpcUrl, { allowHttp: opts.rpcUrl.startsWith('http://'), headers: opts.rpcHeaders }))
}

/** Audits once; `conn` is reused by `--watch`. @throws ChainReadError */
async function auditOnce(opts: CliOptions, conn: AuditConnection): Promise<{ report: AuditReport; ms: number }> {
  const started = performance.now()
  const report = await audit(conn, addressesOf(opts), auditOptions(opts))
  return { report, ms: performance.now() - started }
}

async function once(opts: CliOptions, io: CliIo): Promise<number> {
  try {
    const conn = await connect(server(opts))
    const { report, ms } = await auditOnce(opts, conn)
    io.out(opts.json ? `${JSON.stringify(reportDocument(report, opts, ms), null, 2)}\n` : renderReport(report, opts, io.columns))
    return exitCodeOf(report)
  } catch (err) {
    if (!(err instanceof ChainReadError)) throw err
    if (opts.json) io.out(`${JSON.stringify(errorDocument(err, opts), null, 2)}\n`)
    io.err(`${unreadableLine(err, opts)}\n`)
    return 2
  }
}

const statusKey = (r: AuditReport) => r.invariants.map((i) => `${i.id}${mark(i)}${i.offenders.length}`).join(' ')

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve()
    const t = setTimeout(done, ms)
    function done() {
      clearTimeout(t)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    signal?.addEventListener('abort', done, { once: true })
  })
}

/**
 * `--watch`: audits whenever the node's latest ledger has reached the last audited ledger +
 * `intervalLedgers`. The full table is printed at the first audit and whenever an invariant's
 * status or offender count changes, one verdict line otherwise (`--json`: one document per line,
 * every audit). An unreadable chain is reported and retried; it never ends the watch.
 */
async function watch(opts: CliOptions, w: NonNullable<CliOptions['watch']>, io: CliIo): Promise<number> {
  const metrics: AuditMetrics | undefined = w.metrics ? createAuditMetrics() : undefined
  let served: Awaited<ReturnType<typeof serveMetrics>> | undefined
  if (metrics && w.metrics) {
    try {
      served = await serveMetrics(metrics, w.metrics.port, w.metrics.host)
    } catch (err) {
      io.err(`audit: cannot serve metrics on ${w.metrics.host}:${w.metrics.port}: ${(err as Error).message}\n`)
      return 2
    }
    io.err(`audit: metrics on ${served.url}\n`)
    io.onMetrics?.(served.url)
  }
  const rpcServer = server(opts)
  let conn: AuditConnection | undefined
  let next = 0
  let lastKey: string | undefined
  let lastError: string | undefined
  try {
    while (!io.signal?.aborted) {
      try {
        conn ??= await connect(rpcServer)
        const latest = await call('getLatestLedger', () => rpcServer.getLatestLedger())
        if (latest.sequence >= next) {
          const { report, ms } = await auditOnce(opts, conn)
          metrics?.audited(report, ms / 1000)
          lastError = undefined
          const key = statusKey(report)
          if (opts.json) io.out(`${JSON.stringify(reportDocument(report, opts, ms))}\n`)
          else io.out(key === lastKey ? `${new Date().toISOString()} ${verdict(report)} (${Math.round(ms)} ms)\n` : renderReport(report, opts, io.columns))
          lastKey = key
          next = report.ledger + w.intervalLedgers
        }
      } catch (err) {
        if (!(err instanceof ChainReadError)) throw err
        metrics?.unreadable()
        if (opts.json) io.out(`${JSON.stringify(errorDocument(err, opts))}\n`)
        // Said once per distinct failure, not every poll.
        if (err.message !== lastError) io.err(`${new Date().toISOString()} ${unreadableLine(err, opts)} (retrying)\n`)
        lastError = err.message
      }
      await sleep(io.pollMs ?? 1_000, io.signal)
    }
  } finally {
    if (served) {
      served.server.closeAllConnections()
      await new Promise((resolve) => served!.server.close(resolve))
    }
  }
  return 0
}
