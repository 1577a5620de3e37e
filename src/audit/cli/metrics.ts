/**
 * Prometheus metrics of `npm run audit -- --watch --metrics-port P`: one gauge per invariant
 * (1 = holds), its warning flag, whether the last attempt could read the chain, and when and at
 * which ledger the books last balanced. Served on `/metrics`; `/healthz` answers 200 while the
 * chain is readable and 503 otherwise.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client'
import type { AuditReport } from '../types.js'

export interface AuditMetrics {
  registry: Registry
  /** Records a finished audit. */
  audited(report: AuditReport, seconds: number): void
  /** Records an attempt that could not read the chain. */
  unreadable(): void
}

export function createAuditMetrics(): AuditMetrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const r = [registry]
  const labels = ['invariant', 'name'] as const
  const holds = new Gauge({ name: 'audit_invariant_holds', help: 'Invariant holds at the last audit (1) or is broken (0).', labelNames: labels, registers: r })
  const warning = new Gauge({ name: 'audit_invariant_warning', help: 'Invariant holds with a warning at the last audit (1), e.g. a slashable draw.', labelNames: labels, registers: r })
  const offenders = new Gauge({ name: 'audit_invariant_offenders', help: 'Accounts the invariant names at the last audit.', labelNames: labels, registers: r })
  const allHold = new Gauge({ name: 'audit_holds', help: 'Every invariant holds at the last audit (1), or one is broken (0).', registers: r })
  const readable = new Gauge({ name: 'audit_chain_readable', help: 'The last attempt could read the chain (1) or not (0).', registers: r })
  const ledger = new Gauge({ name: 'audit_ledger', help: 'Ledger of the last finished audit.', registers: r })
  const lastAudit = new Gauge({ name: 'audit_last_audit_timestamp_seconds', help: 'Unix time of the last finished audit.', registers: r })
  const duration = new Gauge({ name: 'audit_duration_seconds', help: 'Wall time of the last finished audit.', registers: r })
  const checks = new Counter({ name: 'audit_checks_total', help: 'Audit attempts by result (holds, broken, unreadable).', labelNames: ['result'], registers: r })
  for (const result of ['holds', 'broken', 'unreadable']) checks.inc({ result }, 0)

  return {
    registry,
    audited(report, seconds) {
      for (const inv of report.invariants) {
        const l = { invariant: String(inv.id), name: inv.name }
        holds.set(l, inv.holds ? 1 : 0)
        warning.set(l, inv.warning ? 1 : 0)
        offenders.set(l, inv.offenders.length)
      }
      allHold.set(report.holds ? 1 : 0)
      readable.set(1)
      ledger.set(report.ledger)
      lastAudit.set(Date.now() / 1000)
      duration.set(seconds)
      checks.inc({ result: report.holds ? 'holds' : 'broken' })
    },
    unreadable() {
      readable.set(0)
      checks.inc({ result: 'unreadable' })
    },
  }
}

/** Serves `/metrics` and `/healthz`; resolves once listening. */
export async function serveMetrics(metrics: AuditMetrics, port: number, host: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end()
    } else if (path === '/metrics') {
      metrics.registry.metrics().then(
        (body) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(body),
        (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err)),
      )
    } else if (path === '/healthz') {
      void metrics.registry.getSingleMetric('audit_chain_readable')?.get().then((g) => {
        const ok = g.values[0]?.value === 1
        res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify({ chainReadable: ok }))
      })
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: try /metrics or /healthz\n')
    }
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const bound = (server.address() as AddressInfo).port
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host
  return { server, url: `http://${shown}:${bound}/metrics` }
}
