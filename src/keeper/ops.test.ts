import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse as parseYaml } from 'yaml'
import { createAuditMetrics } from '../audit/cli/metrics.js'
import { createMetrics } from './metrics.js'
import { REPO_ROOT } from '../../test/keeper/vaultWorld.js'

// The operations files (alerts, dashboard, systemd unit, guide) must keep naming what the code
// exports: a renamed metric or a moved heading fails here, not at 3 a.m.
const text = (p: string) => readFileSync(join(REPO_ROOT, p), 'utf8')

const GUIDE = 'docs/operator-guide.md'
const ALERTS = 'deploy/prometheus/alerts.yml'
const DASHBOARD = 'deploy/grafana/keeper-dashboard.json'
const UNIT = 'deploy/systemd/keeper.service'

interface Rule {
  alert?: string
  expr?: string
  for?: string
  labels?: Record<string, string>
  annotations?: Record<string, string>
}
interface Target {
  refId?: string
  expr?: string
  datasource?: { type?: string; uid?: string }
}
interface Panel {
  id: number
  type: string
  title: string
  datasource?: { type?: string; uid?: string }
  targets?: Target[]
}

const alerts = parseYaml(text(ALERTS)) as { groups: { name: string; rules: Rule[] }[] }
const rules = alerts.groups.flatMap((g) => g.rules)
const dashboard = JSON.parse(text(DASHBOARD)) as {
  __inputs: { name: string; type: string; pluginId: string }[]
  panels: Panel[]
  templating: { list: { name: string }[] }
  schemaVersion: number
}

/** Metric names in a PromQL expression that belong to the keeper or the auditor. */
function metricNames(expr: string): string[] {
  const withoutStrings = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""')
  return [...withoutStrings.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)]
    .map((m) => m[0])
    .filter((n) => /^(service|process|nodejs|audit)_/.test(n))
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

/** name -> type for every metric a registry exposes. */
async function exposed(registry: { getMetricsAsJSON(): Promise<{ name: string; type: unknown }[]> }): Promise<Map<string, string>> {
  return new Map((await registry.getMetricsAsJSON()).map((m) => [m.name, String(m.type)]))
}

function known(name: string, metrics: Map<string, string>): boolean {
  if (metrics.has(name)) return true
  const base = name.replace(/_(bucket|sum|count)$/, '')
  return base !== name && metrics.get(base) === 'histogram'
}

function which(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0
}

describe('alerting rules (deploy/prometheus/alerts.yml)', () => {
  it('every rule has a name, expr, for, severity, summary, description and a runbook link into the guide', () => {
    expect(rules.length).toBeGreaterThanOrEqual(5)
    for (const r of rules) {
      const where = r.alert ?? JSON.stringify(r)
      expect(r.alert, where).toMatch(/^[A-Z][A-Za-z]+$/)
      expect(typeof r.expr, where).toBe('string')
      expect(r.for, where).toMatch(/^\d+[smh]$/)
      expect(['critical', 'warning'], where).toContain(r.labels?.severity)
      expect(r.annotations?.summary, where).toBeTruthy()
      expect(r.annotations?.description, where).toBeTruthy()
      expect(r.annotations?.runbook_url, where).toMatch(new RegExp(`^${GUIDE.replace('.', '\\.')}#[a-z0-9-]+$`))
    }
    expect(new Set(rules.map((r) => r.alert)).size).toBe(rules.length)
  })

  it('covers the keeper going down, a stalled loop, an old draw, overruns and RPC errors', () => {
    const exprs = rules.map((r) => r.expr!.replace(/\s+/g, ' '))
    expect(exprs).toContain('up{job="keeper"} == 0')
    expect(exprs.some((e) => e.includes('time() - service_last_cycle_timestamp_seconds') && e.includes('> 3 * service_poll_interval_seconds'))).toBe(true)
    expect(exprs.some((e) => /service_draw_outstanding_ledgers\{[^}]*\} > \d+/.test(e))).toBe(true)
    expect(exprs.some((e) => e.includes('rate(service_cycle_overruns_total'))).toBe(true)
    expect(exprs.some((e) => e.includes('rate(service_rpc_errors_total'))).toBe(true)
  })

  it('covers an unregistered keeper, a slashed keeper, and an operator short of XLM (warning, then critical)', () => {
    const byExpr = (re: RegExp) => rules.filter((r) => re.test(r.expr!.replace(/\s+/g, ' ')))
    expect(byExpr(/^service_keeper_registered\{job="keeper"\} == 0$/).map((r) => r.labels?.severity)).toEqual(['warning'])
    expect(byExpr(/^service_keeper_slashed\{job="keeper"\} == 1$/).map((r) => r.labels?.severity)).toEqual(['critical'])
    const xlm = byExpr(/^service_operator_xlm_balance\{job="keeper"\} < \d+(\.\d+)?$/).map((r) => ({
      severity: r.labels!.severity,
      below: Number(/< (\S+)$/.exec(r.expr!.trim())![1]),
    }))
    expect(xlm.map((x) => x.severity).sort()).toEqual(['critical', 'warning'])
    const [warning, critical] = ['warning', 'critical'].map((sev) => xlm.find((x) => x.severity === sev)!.below)
    expect(critical).toBeLessThan(warning!)
    // The guide's advice: hold 50 XLM, top up below 25; the warning must come before 25 is gone.
    expect(text(GUIDE)).toContain(`top it up when it falls below ${warning}`)
    // 1.5 XLM is locked by the account and its USDC trustline: the critical alert must leave fees to spend.
    expect(critical).toBeGreaterThan(1.5)
  })

  it('warns about an old draw well before slash_timeout (3600 s, at least 600 ledgers of 6 s)', () => {
    const ledgers = rules
      .map((r) => /service_draw_outstanding_ledgers\{[^}]*\} > (\d+)/.exec(r.expr!)?.[1])
      .filter((n): n is string => n !== undefined)
      .map(Number)
    expect(ledgers.length).toBeGreaterThan(0)
    expect(Math.min(...ledgers)).toBeLessThanOrEqual(120)
    expect(Math.max(...ledgers)).toBeLessThan(600)
  })

  it('every runbook anchor is a heading of docs/operator-guide.md', () => {
    const headings = new Set(
      text(GUIDE)
        .split('\n')
        .filter((l) => /^#{1,6} /.test(l))
        .map((l) => slug(l.replace(/^#+ /, ''))),
    )
    for (const r of rules) {
      const anchor = r.annotations!.runbook_url!.split('#')[1]!
      expect(headings, `${r.alert} -> #${anchor}`).toContain(anchor)
    }
  })

  it('the example Prometheus config loads these rules and scrapes job="keeper"', () => {
    const cfg = parseYaml(text('deploy/prometheus/prometheus.yml')) as {
      rule_files: string[]
      scrape_configs: { job_name: string }[]
    }
    expect(cfg.rule_files).toContain(basename(ALERTS))
    expect(cfg.scrape_configs.map((s) => s.job_name)).toEqual(expect.arrayContaining(['keeper', 'audit']))
  })
})

describe('metric names in alerts and dashboard exist', () => {
  let keeperMetrics: Map<string, string>
  let auditMetrics: Map<string, string>
  beforeAll(async () => {
    keeperMetrics = await exposed(createMetrics().registry)
    auditMetrics = await exposed(createAuditMetrics().registry)
  })

  const exprs = [
    ...rules.map((r) => ({ where: `${ALERTS}: ${r.alert}`, expr: r.expr! })),
    ...dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ where: `${DASHBOARD}: ${p.title}`, expr: t.expr ?? '' }))),
  ]

  it('every service_*, process_* and nodejs_* name is in the keeper registry (createMetrics)', () => {
    const names = exprs.flatMap(({ where, expr }) => metricNames(expr).filter((n) => !n.startsWith('audit_')).map((n) => ({ where, n })))
    expect(names.length).toBeGreaterThan(20)
    for (const { where, n } of names) expect(known(n, keeperMetrics), `${where}: ${n}`).toBe(true)
  })

  it('every audit_* name is in the auditor registry (createAuditMetrics)', () => {
    const names = exprs.flatMap(({ where, expr }) => metricNames(expr).filter((n) => n.startsWith('audit_')).map((n) => ({ where, n })))
    expect(names.length).toBeGreaterThan(0)
    for (const { where, n } of names) expect(known(n, auditMetrics), `${where}: ${n}`).toBe(true)
  })
})

describe('metric lists in the docs', () => {
  it('the guide, src/keeper/README.md and the OpenAPI description of /metrics name every service_* metric', async () => {
    const names = [...(await exposed(createMetrics({ defaultMetrics: false }).registry)).keys()]
    expect(names).toEqual(expect.arrayContaining(['service_keeper_registered', 'service_keeper_slashed', 'service_operator_xlm_balance']))
    const openapi = text('src/keeper/routes/openapi.ts')
    for (const [where, doc] of [
      [GUIDE, text(GUIDE)],
      ['src/keeper/README.md', text('src/keeper/README.md')],
      ['src/keeper/routes/openapi.ts', openapi],
    ] as const) {
      for (const n of names) expect(doc, `${where}: ${n}`).toMatch(new RegExp(`\\b${n}\\b`))
    }
  })
})

describe('Grafana dashboard (deploy/grafana/keeper-dashboard.json)', () => {
  it('asks for a Prometheus data source on import and uses it everywhere', () => {
    const input = dashboard.__inputs.find((i) => i.type === 'datasource' && i.pluginId === 'prometheus')
    expect(input).toBeDefined()
    const uid = `\${${input!.name}}`
    for (const p of dashboard.panels) {
      expect(p.datasource?.uid, p.title).toBe(uid)
      for (const t of p.targets ?? []) expect(t.datasource?.uid, p.title).toBe(uid)
    }
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36)
  })

  it('has job and instance variables, unique panel ids, and a query in every panel', () => {
    expect(dashboard.templating.list.map((v) => v.name)).toEqual(expect.arrayContaining(['job', 'instance']))
    const ids = dashboard.panels.map((p) => p.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const p of dashboard.panels) {
      expect(p.targets?.length, p.title).toBeGreaterThan(0)
      for (const t of p.targets!) expect(t.expr, p.title).toMatch(/\S/)
    }
  })

  it('shows every keeper metric the guide talks about', () => {
    const all = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr ?? '')).join('\n')
    for (const m of [
      'service_cycles_total',
      'service_cycle_duration_seconds_bucket',
      'service_cycle_overruns_total',
      'service_rpc_errors_total',
      'service_draws_outstanding',
      'service_draw_outstanding_ledgers',
      'service_vault_tvl',
      'service_liquidations_total',
      'service_profit_usdc_total',
      'service_tasks_total',
      'service_adapter_errors_total',
      'service_sse_active',
      'service_keeper_registered',
      'service_keeper_slashed',
      'service_operator_xlm_balance',
      'process_resident_memory_bytes',
    ]) {
      expect(all, m).toContain(m)
    }
  })
})

describe('systemd unit (deploy/systemd/keeper.service)', () => {
  const unit = text(UNIT)
  const directives = new Map<string, string[]>()
  for (const line of unit.split('\n')) {
    const m = /^([A-Za-z]+)=(.*)$/.exec(line.trim())
    if (m) directives.set(m[1]!, [...(directives.get(m[1]!) ?? []), m[2]!])
  }
  const one = (key: string) => directives.get(key)?.[0]

  it('runs the single executable as a dedicated user, restarts on failure, reads an env file', () => {
    expect(basename(one('ExecStart') ?? '')).toBe('keeper') // scripts/build-keeper.sh builds dist/keeper
    expect(one('Restart')).toBe('on-failure')
    expect(one('User')).toMatch(/^(?!root$)\S+$/)
    expect(one('EnvironmentFile')).toMatch(/^-?\/\S+$/)
  })

  it('hands the secret over as a file through KEEPER_SECRET_FILE', () => {
    const credential = one('LoadCredential')?.split(':')[0]
    expect(credential).toBeTruthy()
    const env = directives.get('Environment') ?? []
    expect(env.some((e) => e.startsWith('KEEPER_SECRET_FILE=') && e.endsWith(`/${credential}`))).toBe(true)
    expect(env.some((e) => e.startsWith('KEEPER_SECRET='))).toBe(false)
  })

  it('is hardened and outlasts the keeper\'s 30 s shutdown grace', () => {
    expect(one('NoNewPrivileges')).toBe('yes')
    expect(one('ProtectSystem')).toBe('strict')
    expect(one('MemoryDenyWriteExecute')).toBeUndefined() // the V8 JIT needs W+X pages
    const stop = /^(\d+)(s|min)$/.exec(one('TimeoutStopSec') ?? '')
    expect(stop).not.toBeNull()
    expect(Number(stop![1]) * (stop![2] === 'min' ? 60 : 1)).toBeGreaterThan(30)
  })

  describe.skipIf(!which('systemd-analyze'))('systemd-analyze verify', () => {
    let dir: string
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'keeper-unit-'))
    })
    afterAll(() => rmSync(dir, { recursive: true, force: true }))

    it('accepts the unit (with a stand-in executable)', () => {
      const file = join(dir, 'keeper.service')
      writeFileSync(file, unit.replace(/^ExecStart=.*$/m, 'ExecStart=/bin/true'))
      const r = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' })
      // Older systemd (before 254) does not know the back-off keys and says so; nothing else.
      const complaints = `${r.stdout}${r.stderr}`
        .split('\n')
        .filter((l) => l.trim() !== '' && !/Unknown key( name)? '?(RestartSteps|RestartMaxDelaySec)/.test(l))
      expect(complaints).toEqual([])
      expect(r.status).toBe(0)
    })
  })
})
