import vm from 'node:vm'
import { transformSync } from 'esbuild'
import { describe, expect, it } from 'vitest'
import { emptyReportFixture, reportFixture } from '../../../test/sim/reportFixture.js'
import { chartJsSource } from './chartjs.js'
import { embedJson, reportHtml } from './html.js'
import { PAGE_SCRIPT } from './pageScript.js'

const html = reportHtml(reportFixture())

/** The text of every `<script ...>` element, in order, with its opening tag. */
function scripts(page: string): { open: string; body: string }[] {
  return [...page.matchAll(/(<script[^>]*>)([\s\S]*?)<\/script>/g)].map((m) => ({ open: m[1]!, body: m[2]! }))
}

/** Open / close tags balance (void elements aside), script and style bodies skipped. */
function unbalancedTags(page: string): string[] {
  const VOID = new Set(['meta', 'link', 'br', 'hr', 'img', 'input', 'col', 'wbr', 'source'])
  const body = page.replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1>/g, '').replace(/<!DOCTYPE html>/i, '')
  const stack: string[] = []
  const problems: string[] = []
  for (const m of body.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9]*)[^>]*>/g)) {
    const [, close, raw] = m
    const tag = raw!.toLowerCase()
    if (VOID.has(tag)) continue
    if (!close) stack.push(tag)
    else if (stack.pop() !== tag) problems.push(`</${tag}> at ${m.index}`)
  }
  return [...problems, ...stack.map((t) => `<${t}> never closed`)]
}

describe('reportHtml', () => {
  it('refers to nothing outside the file: no script src, no link, no URL outside the chart.js licence comments', () => {
    // checked with .test() so a failure does not print the whole page
    expect(/<script[^>]*\ssrc=/i.test(html), '<script src=').toBe(false)
    expect(/<link\b/i.test(html), '<link').toBe(false)
    expect(html.includes('sourceMappingURL'), 'source map comment').toBe(false)
    // the page's own markup, style and script (chart.js aside) load nothing either
    const own = html.replace(chartJsSource().trim(), '')
    expect(own.length).toBeLessThan(html.length - 200_000)
    expect(/\b(src|href)\s*=|url\(|@import|\bfetch\(|XMLHttpRequest/i.exec(own)?.[0], 'a reference in the page').toBeUndefined()
    const licences = [...html.matchAll(/\/\*![\s\S]*?\*\//g)].map((m) => [m.index, m.index + m[0].length] as const)
    const urls = [...html.matchAll(/https?:\/\//gi)]
    expect(urls.length).toBeGreaterThan(0)
    for (const u of urls) expect(licences.some(([a, b]) => u.index >= a && u.index < b), `URL at ${u.index}`).toBe(true)
  })

  it('inlines chart.js and the page script as the last two scripts', () => {
    const s = scripts(html)
    expect(s.map((x) => x.open)).toEqual(['<script type="application/json" id="report-data">', '<script>', '<script>'])
    expect(s[1]!.body.trim()).toBe(chartJsSource().trim())
    expect(s[1]!.body.includes('Chart.js v4.6.1'), 'chart.js banner').toBe(true)
    expect(s[2]!.body).toBe(PAGE_SCRIPT)
  })

  it('embeds the report as JSON that parses back to the report, with no "<" in it', () => {
    const r = reportFixture()
    const data = scripts(html)[0]!.body
    expect(data).not.toContain('<')
    expect(data).toBe(embedJson(r))
    expect(JSON.parse(data)).toEqual(r)
    // the hostile description and resolved scenario did not close anything early
    expect(html.match(/<\/script>/g)).toHaveLength(3)
  })

  it('parses: balanced tags, escaped text, one canvas per chart', () => {
    expect(unbalancedTags(html)).toEqual([])
    expect(html.includes('<h1>cascade &#60;small&#62;</h1>'), 'escaped name').toBe(true)
    expect(html.includes('<b>bold</b>'), 'unescaped description').toBe(false)
    const canvases = [...html.matchAll(/<canvas id="([^"]+)"/g)].map((m) => m[1])
    expect(canvases).toEqual([
      'chart-share-price',
      'chart-apy',
      'chart-price-0',
      'chart-price-1',
      'chart-fill-delay',
      'chart-keepers',
      'chart-utilisation',
      'chart-bad-debt',
    ])
    for (const s of scripts(html).slice(1)) expect(() => new vm.Script(s.body)).not.toThrow()
  })

  it('shows the header, the headline figures first, and every table', () => {
    for (const text of ['seed 42', '0.1234%', '0.12% cumulative', '17.25 USD', 'Keeper alpha', '40.25 USDC, 1 win', 'no stale draws', '1 draw open past expiry', 'predicted 1203, chain 1205 &#60;late&#62;', 'harness 0.1.0', 'protocol 23', '1000–1720'])
      expect(html.includes(text), text).toBe(true)
    const order = ['id="headline"', 'id="charts"', 'id="events"', 'id="auctions"', 'id="competition"', 'id="keepers"', 'id="replay"', 'id="audit"'].map((t) => html.indexOf(t))
    expect(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]!))).toBe(true)
    expect(html.includes('<span class="bad">✗</span>'), '✗').toBe(true)
    // the filling keeper is named, not shown as its address
    expect(/<span title="CAKEEPER[A]+">alpha<\/span>/.test(html), 'keeper name').toBe(true)
  })

  it('shows the competition per auction and the competition columns per keeper', () => {
    const section = html.slice(html.indexOf('id="competition"'), html.indexOf('id="keepers"'))
    const rows = [...section.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => [...m[1]!.matchAll(/<t[dh][^>]*>([\s\S]*?)<\/t[dh]>/g)].map((c) => c[1]))
    expect(rows[0]).toEqual(['Auction', 'Winner', 'Ledger', 'Delay (ledgers)', 'Latency', 'Fee (XLM)', 'Profit to vault (USDC)', 'Contenders'])
    expect(rows[1]).toEqual([
      'GUSER1:liquidation:1100',
      `<span title="${'CAKEEPER' + 'A'.repeat(48)}">alpha</span>`,
      '1104',
      '2',
      '200 ms',
      '0.0061728',
      '80.50',
      '<b>alpha</b>, beta',
    ])
    expect(rows[2]!.slice(4)).toEqual(['913 ms', '0.0228395', '36.50', '<b>beta</b>'])
    // the expired auction: nobody filled it or sent a fill
    expect(rows[3]!.slice(1)).toEqual(['—', '—', '—', '—', '—', '—', '—'])
    const keepers = html.slice(html.indexOf('id="keepers"'), html.indexOf('id="replay"'))
    expect(keepers).toContain('<th class="num">Missed</th><th class="num">Unprofitable</th>')
    expect(keepers).toContain('<th class="num">Fees (XLM)</th>')
    expect(keepers).toContain('<td class="num">0.0456789</td>')
  })

  it('shows every fill of an auction filled in parts, and what is left of it', () => {
    const section = html.slice(html.indexOf('id="auctions"'), html.indexOf('id="competition"'))
    const rows = [...section.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((m) => [...m[1]!.matchAll(/<t[dh][^>]*>([\s\S]*?)<\/t[dh]>/g)].map((c) => c[1]))
    const head = rows[0]!
    const col = (name: string) => head.indexOf(name)
    expect(col('Fills')).toBeGreaterThan(0)
    const beta = '<span title="beta">beta</span>'
    expect(rows[2]![col('Fills')]).toBe(`60 % @1205 ${beta} (+20.00), 100 % @1206 ${beta} (+16.50)`)
    expect(rows[2]![col('Left')]).toBe('0 %')
    expect(rows[4]![col('Left')]).toBe('75 %')
    expect(rows[3]![col('Fills')]).toBe('—')
    const keepers = html.slice(html.indexOf('id="keepers"'), html.indexOf('id="replay"'))
    expect(keepers).toContain('<th class="num">Fills</th>')
    expect(keepers).toContain('<th class="num">Failed txs</th>')
  })

  it('gives the same bytes for the same report', () => {
    expect(reportHtml(reportFixture())).toBe(html)
    expect(reportHtml(emptyReportFixture())).toBe(reportHtml(emptyReportFixture()))
  })

  it('has a page script in plain ES2017 (esbuild lowers nothing for an ES2017 target)', () => {
    const esnext = transformSync(PAGE_SCRIPT, { target: 'esnext', format: 'iife' }).code
    const es2017 = transformSync(PAGE_SCRIPT, { target: 'es2017', format: 'iife' }).code
    expect(es2017).toBe(esnext)
  })
})
