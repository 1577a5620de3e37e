/**
 * Lighthouse and axe-core on the dashboard that `npm run demo` serves, in Debian's chromium.
 *
 *   world        starts `npm run demo` on free ports (its sandbox, keepers, liquidation and then
 *                the dashboard) and waits for its `dashboard: http://…` line; `--url URL` measures
 *                a dashboard that is already running instead. The URL's query (the demo's
 *                `?keeperToken=…`, the keepers' API token) is kept on every page, so the
 *                Auctions view is measured with the keepers' planned executions
 *   performance  Lighthouse's default run (a phone on a slow 4G link and a 4× slower CPU, all
 *                simulated) on the first view, `--runs N` times (default 3): the median of each
 *                category's score and of each metric
 *   every view   one Lighthouse run per view (#/vault … #/settings) for accessibility and best
 *                practices, and axe-core's violations on each view at 390×844 and 1280×900
 *
 * Run: npx tsx benchmarks/lighthouse.ts [--url URL] [--runs 3] [--min-performance 95]
 *      (npm run bench -- lighthouse)
 * Prints the tables and a final JSON line; exits 1 when the median performance is below the
 * minimum, accessibility or best practices below 100 on any view, or axe finds a violation.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { textTable } from '../sim/src/report/summary.js'
import { CHROMIUM_PATH, launchChromium } from '../test/browser/chromium.js'
import { REPO_ROOT } from '../sandbox/ts/launch.js'

const VIEWS = ['vault', 'position', 'keepers', 'auctions', 'log', 'research', 'settings'] as const
const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
] as const
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const
const METRICS = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index', 'interactive'] as const

const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    runs: { type: 'string', default: '3' },
    'min-performance': { type: 'string', default: '95' },
  },
})
const runs = Number(args.runs)
const minPerformance = Number(args['min-performance'])
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, got ${args.runs}`)

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

/** A TCP port free on 127.0.0.1 at the time of asking. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port
      srv.close(() => resolve(port))
    })
  })
}

/** The dashboard at `raw`: its base (no trailing slash) and its query, `?keeperToken=…` or ''. */
function dashboardAt(raw: string): { base: string; query: string } {
  const u = new URL(raw)
  return { base: `${u.origin}${u.pathname.replace(/\/$/, '')}`, query: u.search }
}

/** Starts the demo and resolves with its dashboard URL (with its query) once it prints it. */
async function startDemo(): Promise<{ url: string; demo: ChildProcess }> {
  const [rpc, api, dash] = [await freePort(), await freePort(), await freePort()]
  const demo = spawn('bash', ['scripts/demo.sh', '--port', String(rpc), '--api-port', String(api), '--dashboard-port', String(dash)], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  })
  return new Promise((resolve, reject) => {
    let buffered = ''
    const timer = setTimeout(() => reject(new Error('the demo printed no dashboard URL within 20 minutes')), 20 * 60_000)
    demo.stdout!.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk)
      buffered += chunk.toString()
      const m = /dashboard: (http:\/\/\S+)/.exec(buffered)
      if (m) {
        clearTimeout(timer)
        resolve({ url: m[1]!, demo })
      }
    })
    demo.on('exit', (code) => reject(new Error(`the demo exited (${code}) before its dashboard started`)))
  })
}

interface LighthouseResult {
  scores: Record<string, number>
  metrics: Record<string, number>
  failing: string[]
  transferKb: number
}

async function runLighthouse(url: string, categories: readonly string[]): Promise<LighthouseResult> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] })
  try {
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...categories] })
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`)
    const lhr = result.lhr
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`)
    const scores: Record<string, number> = {}
    const failing: string[] = []
    for (const id of categories) {
      const cat = lhr.categories[id]!
      scores[id] = Math.round((cat.score ?? 0) * 100)
      if (id === 'performance') continue
      for (const ref of cat.auditRefs) {
        const audit = lhr.audits[ref.id]!
        if (ref.weight > 0 && audit.score !== null && audit.score < 1) failing.push(`${id}: ${ref.id} (${audit.title})`)
      }
    }
    const metrics: Record<string, number> = {}
    for (const id of METRICS) {
      const v = lhr.audits[id]?.numericValue
      if (v !== undefined) metrics[id] = v
    }
    const transfer = lhr.audits['total-byte-weight']?.numericValue ?? 0
    return { scores, metrics, failing, transferKb: transfer / 1024 }
  } finally {
    chrome.kill()
  }
}

async function axeViolations(pageUrl: (view: string) => string): Promise<{ view: string; viewport: string; violations: string[] }[]> {
  const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
  const browser = await launchChromium()
  const out: { view: string; viewport: string; violations: string[] }[] = []
  try {
    for (const vp of VIEWPORTS) {
      const page = await browser.newPage({ viewport: { width: vp.width, height: vp.height } })
      for (const view of VIEWS) {
        await page.goto(pageUrl(view))
        await page.waitForLoadState('networkidle').catch(() => undefined)
        await page.waitForTimeout(1500)
        await page.addScriptTag({ content: axeSource })
        const violations = await page.evaluate(async () => {
          const r = await (window as unknown as { axe: { run: () => Promise<{ violations: { id: string; nodes: unknown[] }[] }> } }).axe.run()
          return r.violations.map((v) => `${v.id} (${v.nodes.length})`)
        })
        out.push({ view, viewport: vp.name, violations })
      }
      await page.close()
    }
  } finally {
    await browser.close()
  }
  return out
}

async function main(): Promise<number> {
  let demo: ChildProcess | undefined
  let raw = args.url
  if (raw === undefined) {
    process.stderr.write('starting npm run demo (builds, deploys, liquidates, then serves the dashboard)…\n')
    ;({ url: raw, demo } = await startDemo())
  }
  // The printed and reported URL is the base: the token stays out of the output.
  const { base: url, query } = dashboardAt(raw)
  const pageUrl = (view?: string) => `${url}/${query}${view === undefined ? '' : `#/${view}`}`
  try {
    const first: LighthouseResult[] = []
    for (let i = 0; i < runs; i++) {
      process.stderr.write(`lighthouse ${i + 1}/${runs} on ${url}/\n`)
      first.push(await runLighthouse(pageUrl(), CATEGORIES))
    }
    const perf = median(first.map((r) => r.scores.performance!))
    const rows = [
      ...CATEGORIES.map((c) => [c, first.map((r) => String(r.scores[c])).join(' / '), String(median(first.map((r) => r.scores[c]!)))]),
      ...METRICS.map((m) => [m, first.map((r) => fmtMetric(m, r.metrics[m])).join(' / '), fmtMetric(m, median(first.map((r) => r.metrics[m] ?? 0)))]),
      ['transfer (KB)', first.map((r) => r.transferKb.toFixed(0)).join(' / '), median(first.map((r) => r.transferKb)).toFixed(0)],
    ]
    process.stdout.write(`\nfirst view (${url}/), ${runs} run(s), Lighthouse ${lighthouseVersion()} default (mobile, simulated throttling)\n`)
    process.stdout.write(`${textTable(['', 'runs', 'median'], rows, ['left', 'right', 'right'])}\n`)

    const perView: { view: string; accessibility: number; bestPractices: number; failing: string[] }[] = []
    for (const view of VIEWS) {
      process.stderr.write(`lighthouse accessibility + best practices on #/${view}\n`)
      const r = await runLighthouse(pageUrl(view), ['accessibility', 'best-practices'])
      perView.push({ view, accessibility: r.scores.accessibility!, bestPractices: r.scores['best-practices']!, failing: r.failing })
    }
    const axe = await axeViolations(pageUrl)
    process.stdout.write(`\nevery view\n`)
    process.stdout.write(
      `${textTable(
        ['view', 'accessibility', 'best practices', 'axe 390×844', 'axe 1280×900', 'failing'],
        perView.map((v) => [
          v.view,
          String(v.accessibility),
          String(v.bestPractices),
          String(axe.find((a) => a.view === v.view && a.viewport === 'phone')?.violations.length ?? '?'),
          String(axe.find((a) => a.view === v.view && a.viewport === 'desktop')?.violations.length ?? '?'),
          [...v.failing, ...axe.filter((a) => a.view === v.view).flatMap((a) => a.violations.map((x) => `axe ${a.viewport}: ${x}`))].join('; ') || '—',
        ]),
        ['left', 'right', 'right', 'right', 'right', 'left'],
      )}\n`,
    )
    const axeTotal = axe.reduce((n, a) => n + a.violations.length, 0)
    const ok =
      perf >= minPerformance &&
      first.every((r) => r.scores.accessibility === 100 && r.scores['best-practices'] === 100) &&
      perView.every((v) => v.accessibility === 100 && v.bestPractices === 100) &&
      axeTotal === 0
    process.stdout.write(
      `${JSON.stringify({
        benchmark: 'lighthouse',
        url,
        performanceMedian: perf,
        performanceRuns: first.map((r) => r.scores.performance),
        metricsMedian: Object.fromEntries(METRICS.map((m) => [m, Math.round(median(first.map((r) => r.metrics[m] ?? 0)) * 1000) / 1000])),
        views: perView.map(({ view, accessibility, bestPractices }) => ({ view, accessibility, bestPractices })),
        axeViolations: axeTotal,
        ok,
      })}\n`,
    )
    return ok ? 0 : 1
  } finally {
    if (demo?.pid !== undefined) {
      try {
        process.kill(-demo.pid, 'SIGINT')
      } catch {
        // already gone
      }
    }
  }
}

function fmtMetric(id: string, v: number | undefined): string {
  if (v === undefined) return '—'
  return id === 'cumulative-layout-shift' ? v.toFixed(3) : `${Math.round(v)} ms`
}

function lighthouseVersion(): string {
  return (JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', 'lighthouse', 'package.json'), 'utf8')) as { version: string }).version
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    process.stderr.write(`lighthouse: ${err.message}\n`)
    process.exit(1)
  },
)
