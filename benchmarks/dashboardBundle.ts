/**
 * Dashboard first-load bundle size: the JavaScript a browser fetches before the app can start,
 * gzipped, against a budget of 300 KB.
 *
 *   build        `vite build` with dashboard/vite.config.ts into target/dashboard (always, so the
 *                figures are of the current sources; --no-build measures what is there)
 *   first load   target/dashboard/index.html's entry `<script type="module" src>` and its
 *                `<link rel="modulepreload">` chunks, plus any chunk they import statically that
 *                is not preloaded (the browser fetches it too; listed as "static import"); each
 *                file gzipped at level 9 (zlib), per file and in total
 *   lazy         every other .js chunk in target/dashboard/assets (dynamic `import()`s: views,
 *                the wallet kit, charts), raw and gzipped, not counted against the budget
 *   styles       the stylesheets index.html links, gzipped, shown but not counted (the budget is
 *                JavaScript)
 *
 * Run: npx tsx benchmarks/dashboardBundle.ts [--no-build] [--budget-kb 300]   (npm run bench -- dashboardBundle)
 * Prints the tables and a final JSON line; exits 1 when the first-load JavaScript is above budget.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join, posix } from 'node:path'
import { gzipSync } from 'node:zlib'
import { textTable } from '../sim/src/report/summary.js'
import { DASHBOARD_OUT, ensureDashboardBuilt } from '../dashboard/server/build.js'

const KB = 1024
const budgetKb = Number(argValue('budget-kb') ?? 300)

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : undefined
}

interface FileSize {
  file: string
  role: string
  raw: number
  gzip: number
}

const kb = (n: number) => (n / KB).toFixed(1)

function sizeOf(file: string, role: string): FileSize {
  const bytes = readFileSync(join(DASHBOARD_OUT, file))
  return { file, role, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length }
}

/** `./assets/x.js` or `/assets/x.js` in index.html → `assets/x.js`. */
const local = (href: string) => posix.normalize(href.replace(/^\.?\//, ''))

/** Attribute values of the tags in index.html that match `tag` and `filter`. */
function attrs(html: string, tag: RegExp, attr: string): string[] {
  const out: string[] = []
  for (const m of html.matchAll(tag)) {
    const v = new RegExp(`\\b${attr}=["']([^"']+)["']`).exec(m[0])
    if (v) out.push(local(v[1]!))
  }
  return out
}

/** Chunks a chunk imports statically (`import{a}from"./x.js"`, `import"./x.js"`), not `import()`. */
function staticImports(file: string): string[] {
  const code = readFileSync(join(DASHBOARD_OUT, file), 'utf8')
  const out: string[] = []
  for (const m of code.matchAll(/(?:^|[;\n}])\s*import\s*(?:[\w$*{}\s,]+?\s*from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g)) {
    out.push(posix.normalize(posix.join(posix.dirname(file), m[1]!)))
  }
  return out
}

async function main(): Promise<void> {
  const started = Date.now()
  if (!process.argv.includes('--no-build')) await ensureDashboardBuilt({ force: true, log: (l) => process.stderr.write(`${l}\n`) })
  const buildMs = Date.now() - started
  const html = readFileSync(join(DASHBOARD_OUT, 'index.html'), 'utf8')
  const entries = attrs(html, /<script\b[^>]*type=["']module["'][^>]*>/g, 'src')
  const preloads = attrs(html, /<link\b[^>]*rel=["']modulepreload["'][^>]*>/g, 'href')
  const styles = attrs(html, /<link\b[^>]*rel=["']stylesheet["'][^>]*>/g, 'href')
  if (entries.length === 0) throw new Error(`no <script type="module" src> in ${join(DASHBOARD_OUT, 'index.html')}`)

  const first = new Map<string, string>()
  for (const e of entries) first.set(e, 'entry')
  for (const p of preloads) if (!first.has(p)) first.set(p, 'modulepreload')
  // What the browser fetches anyway: static imports of first-load chunks, transitively.
  const queue = [...first.keys()]
  while (queue.length > 0) {
    for (const dep of staticImports(queue.shift()!)) {
      if (first.has(dep)) continue
      first.set(dep, 'static import (not preloaded)')
      queue.push(dep)
    }
  }
  const firstLoad = [...first].map(([file, role]) => sizeOf(file, role))
  const total = firstLoad.reduce((a, f) => a + f.gzip, 0)
  const totalRaw = firstLoad.reduce((a, f) => a + f.raw, 0)
  const lazy = readdirSync(join(DASHBOARD_OUT, 'assets'))
    .map((name) => `assets/${name}`)
    .filter((f) => f.endsWith('.js') && !first.has(f))
    .map((f) => sizeOf(f, 'lazy'))
    .sort((a, b) => b.gzip - a.gzip)
  const css = styles.map((f) => sizeOf(f, 'stylesheet'))

  const row = (f: FileSize) => [f.file, f.role, kb(f.raw), kb(f.gzip)]
  const over = total > budgetKb * KB
  process.stdout.write(
    `\nfirst load: JavaScript index.html makes the browser fetch (gzip -9)\n${textTable(
      ['file', 'how', 'raw KB', 'gzip KB'],
      [...firstLoad.map(row), ['total', `${firstLoad.length} files`, kb(totalRaw), kb(total)], ['budget', over ? 'OVER' : 'within', '', String(budgetKb)]],
      ['left', 'left', 'right', 'right'],
    )}\n`,
  )
  process.stdout.write(
    `\nlazy chunks (dynamic import, not counted)\n${textTable(
      ['file', 'raw KB', 'gzip KB'],
      [...lazy.map((f) => [f.file, kb(f.raw), kb(f.gzip)]), ['total', kb(lazy.reduce((a, f) => a + f.raw, 0)), kb(lazy.reduce((a, f) => a + f.gzip, 0))]],
      ['left', 'right', 'right'],
    )}\n`,
  )
  if (css.length > 0) {
    process.stdout.write(`\nstylesheets (not counted)\n${textTable(['file', 'raw KB', 'gzip KB'], css.map((f) => [f.file, kb(f.raw), kb(f.gzip)]), ['left', 'right', 'right'])}\n`)
  }
  process.stdout.write(
    `\n${JSON.stringify({
      budgetKb,
      firstLoadGzipKb: Number(kb(total)),
      firstLoadRawKb: Number(kb(totalRaw)),
      firstLoad: firstLoad.map((f) => ({ file: f.file, how: f.role, gzipKb: Number(kb(f.gzip)) })),
      lazy: lazy.map((f) => ({ file: f.file, gzipKb: Number(kb(f.gzip)) })),
      cssGzipKb: Number(kb(css.reduce((a, f) => a + f.gzip, 0))),
      buildMs,
      withinBudget: !over,
    })}\n`,
  )
  if (over) {
    process.stderr.write(`first-load JavaScript ${kb(total)} KB gzipped is above the ${budgetKb} KB budget\n`)
    process.exit(1)
  }
}

main().catch((err) => {
  process.stderr.write(`dashboardBundle failed: ${(err as Error).stack ?? String(err)}\n`)
  process.exit(1)
})
