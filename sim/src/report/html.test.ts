import vm from 'node:vm'
import { transformSync } from 'esbuild'
import { describe, expect, it } from 'vitest'
import { emptyReportFixture, reportFixture } from '../../../test/sim/reportFixture.js'
import { chartJsSource } from './chartjs.js'
import type { ReportSource } from '../record/source.js'
import { reportHtml } from './html.js'
import { embedJson } from './page.js'
import { PAGE_SCRIPT } from './pageScript.js'
import type { Report } from './types.js'

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
  it('has a Pools section, tags balanced, only when the run had more than one pool', () => {
    expect(html).not.toContain('<section id="pools">')
    const multi = reportFixture()
    const pool = (id: string, badDebt: number) => ({
      pool: id,
      borrowers: 6,
      auctions: { created: 4, filled: 3, expired: 1, open: 0 },
      fills: 3,
      missed: 0,
      badDebt,
      borrowedStart: 60_000,
      bidPaid: 9_000,
      liquidatedCollateral: 9_500,
      vaultProfit: 120,
    })
    multi.summary.pools = [pool(`CAAA${'A'.repeat(52)}`, 0), pool(`CBBB${'B'.repeat(52)}`, 17.25)]
    const page = reportHtml(multi)
    const section = /<section id="pools">[\s\S]*?<\/section>/.exec(page)?.[0] ?? ''
    expect(section).toContain('<h2>Pools</h2>')
    expect(section.match(/<tr class="alert">/g)).toHaveLength(1)
    expect(section).toContain('17.25')
    expect(unbalancedTags(page)).toEqual([])
  })

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
      'chart-locked-profit',
      'chart-bad-debt',
    ])
    for (const s of scripts(html).slice(1)) expect(() => new vm.Script(s.body)).not.toThrow()
  })

  it('shows the header, the headline figures first, and every table', () => {
    for (const text of ['seed 42', '0.1234%', '0.12% cumulative', '17.25 USD', 'Keeper alpha', '40.25 USDC, 1 win', 'no stale draws', '1 draw open past expiry', 'predicted 1203, chain 1205 &#60;late&#62;', 'harness 0.1.0', 'protocol 23', '1000–1720'])
      expect(html.includes(text), text).toBe(true)
    const order = ['id="headline"', 'id="charts"', 'id="events"', 'id="auctions"', 'id="competition"', 'id="keepers"', 'id="attacks"', 'id="replay"', 'id="audit"'].map((t) => html.indexOf(t))
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
    const keepers = html.slice(html.indexOf('id="keepers"'), html.indexOf('id="attacks"'))
    expect(keepers).toContain('<th class="num">To vault (USDC)</th><th class="num">Rewards (USDC)</th>')
    expect(keepers).toContain('<td class="num">8.95</td>')
    expect(keepers).toContain('<th class="num">Missed</th><th class="num">Unprofitable</th>')
    expect(keepers).toContain('<th class="num">Fees (XLM)</th>')
    expect(keepers).toContain('<td class="num">0.0456789</td>')
    // the swaps of each keeper's landed fills by route kind; a dash for a report without them
    expect(keepers).toContain('<th>Sales by route (swaps)</th>')
    expect(keepers).toContain('<td>primary 1, fallback 1, via 1, comet 1; 1 split</td>')
    expect(keepers).toContain('<td>primary 0, fallback 0, via 0, comet 0; 0 split</td>')
    const old = reportFixture()
    for (const k of old.keepers) delete k.sales
    const oldKeepers = reportHtml(old)
    expect(oldKeepers.slice(oldKeepers.indexOf('id="keepers"'), oldKeepers.indexOf('id="attacks"'))).toContain('<th>Sales by route (swaps)</th>')
  })

  it('shows the attacks, each attempt’s refusals, gain and depositors’ loss, and every step; none without attacks', () => {
    const section = html.slice(html.indexOf('id="attacks"'), html.indexOf('id="replay"'))
    const rows = [...section.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((m) => [...m[1]!.matchAll(/<t[dh][^>]*>([\s\S]*?)<\/t[dh]>/g)].map((c) => c[1]))
    expect(rows[0]).toEqual(['Attacker', 'Kind', 'Try', 'Ledgers', 'Tried', 'Refused by', 'Gain (USDC)', 'Depositors&#39; loss (USDC)', 'Outcome'])
    expect(rows[1]).toEqual(['keeper-4', 'draw-and-run', '1', '1010–1300', 'register with min_stake, draw, keep it', '216 BondTooSmall, 116 KeeperSlashed', '-100.00', '-100.00', 'slashed at ledger 1300 &#60;b&#62;'])
    expect(rows[2]!.slice(3, 5)).toEqual(['1103–end', 'deposit before a fill &#60;/script&#62;'])
    // the steps: 5 of the first attempt, 1 of the second
    expect(rows.slice(4).map((r) => [r[0], r[1], r[3], r[4]])).toEqual([
      ['keeper-4 #1', '1010', 'applied', '—'],
      ['keeper-4 #1', '1011', 'refused', '216 BondTooSmall'],
      ['keeper-4 #1', '1011', 'applied', '—'],
      ['keeper-4 #1', '1300', 'applied', '—'],
      ['keeper-4 #1', '1301', 'refused', '116 KeeperSlashed'],
      ['jit-1 #1', '1103', 'failed', '10 BalanceError'],
    ])
    const flagged = reportFixture()
    flagged.attacks![1]!.gain = 0.25
    expect(reportHtml(flagged)).toMatch(/<tr class="alert"><td>jit-1<\/td>/)
    expect(reportHtml(emptyReportFixture())).not.toContain('id="attacks"')
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

const POOL = 'CPOOL' + 'P'.repeat(51)
const ORACLE = 'CORACLE' + 'O'.repeat(49)
const BACKSTOP = 'CBACKSTOP' + 'B'.repeat(47)

/** A snapshot start with 53 borrowers (the two lowest liquidatable), text fields carrying markup. */
function snapshotSource(): ReportSource {
  const borrowers = Array.from({ length: 53 }, (_, i) => ({
    address: `G${String(i).padStart(3, '0')}`.padEnd(56, 'U'),
    healthFactor: 0.9 + i * 0.05 + 0.000012345,
    collateral: 1000 + i,
    liabilities: 900.5,
  }))
  return {
    kind: 'snapshot',
    file: 'snapshots/<upstream>.json',
    sha256: 'ab12cd34ef56' + '0'.repeat(52),
    ledger: 72,
    networkPassphrase: 'Test SDF Network ; September 2015',
    pool: POOL,
    oracle: ORACLE,
    oracleCode: 'fe'.repeat(32),
    backstop: BACKSTOP,
    borrowerSources: { snapshot: 53 },
    start: {
      reserves: [
        { asset: 'CUSDC' + 'U'.repeat(51), code: 'USDC', price: 1, supplied: 1250000.5, borrowed: 800000.25, utilisation: 0.64, cFactor: 0.95, lFactor: 0.95 },
        { asset: 'CXLM' + 'X'.repeat(52), code: 'XLM', price: 0.1234567, supplied: 5000000, borrowed: 0, utilisation: 0, cFactor: 0.75, lFactor: 1 },
      ],
      borrowers,
      liquidatable: 2,
    },
  }
}

function withSource(source: ReportSource): Report {
  return { ...reportFixture(), source }
}

/** The cells of every row in `section`, header row first. */
function tableRows(section: string): string[][] {
  return [...section.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((m) => [...m[1]!.matchAll(/<t[dh][^>]*>([\s\S]*?)<\/t[dh]>/g)].map((c) => c[1]!))
}

describe('reportHtml: the source of a run from a snapshot or a fork', () => {
  const page = reportHtml(withSource(snapshotSource()))
  const section = page.slice(page.indexOf('<section id="source">'), page.indexOf('<section id="charts">'))

  it('has no Source section when the report has no source', () => {
    expect(html.includes('id="source"')).toBe(false)
    expect(html.includes('<h2>Source</h2>')).toBe(false)
    expect(reportHtml(emptyReportFixture()).includes('id="source"')).toBe(false)
  })

  it('puts the Source section after the headline figures and before the charts, and stays well-formed', () => {
    expect(page.indexOf('id="headline"')).toBeLessThan(page.indexOf('id="source"'))
    expect(page.indexOf('id="source"')).toBeLessThan(page.indexOf('id="charts"'))
    expect(section).toContain('<h2>Source</h2>')
    expect(unbalancedTags(page)).toEqual([])
    expect(reportHtml(withSource(snapshotSource()))).toBe(page)
  })

  it('says where the run started, the contracts, the oracle taken over and where the borrowers came from', () => {
    expect(section).toContain('<p>Snapshot snapshots/&#60;upstream&#62;.json (sha256 ab12cd34ef56…, ledger 72).</p>')
    for (const text of [POOL, ORACLE, BACKSTOP, 'fe'.repeat(32), 'Test SDF Network ; September 2015', '<dt>Borrowers from</dt><dd>snapshot 53</dd>'])
      expect(section.includes(text), text).toBe(true)
    expect(section).toMatch(/oracle’s code \(wasm fefefefefefe…\) was replaced by the sim’s controllable oracle at the same address/)
    expect(section).toContain('market path')
    expect(section).not.toContain('<upstream>')
  })

  it('lists the reserves at the start', () => {
    const reserves = section.slice(section.indexOf('Reserves at the start'), section.indexOf('Borrowers at the start'))
    const rows = tableRows(reserves)
    expect(rows[0]).toEqual(['Reserve', 'Price', 'Supplied', 'Borrowed', 'Utilisation', 'C-factor', 'L-factor'])
    expect(rows[1]).toEqual([`<span title="${'CUSDC' + 'U'.repeat(51)}">USDC</span>`, '1.0000000', '1,250,000.50', '800,000.25', '64.00%', '0.95', '0.95'])
    expect(rows[2]!.slice(1)).toEqual(['0.1234567', '5,000,000.00', '0.00', '0.00%', '0.75', '1'])
  })

  it('lists the 50 lowest health factors, says how many more there are and how many are liquidatable', () => {
    const borrowers = section.slice(section.indexOf('Borrowers at the start'))
    expect(borrowers).toContain('2 of 53 borrowers liquidatable at the start (health factor under 1)')
    expect(borrowers).toContain('The 50 lowest health factors; 3 more borrowers not shown.')
    const rows = tableRows(borrowers)
    expect(rows[0]).toEqual(['Borrower', 'Health factor', 'Collateral', 'Liabilities'])
    expect(rows).toHaveLength(51)
    expect(rows[1]).toEqual([`<span title="${'G000'.padEnd(56, 'U')}">G000…UUUU</span>`, '0.9000', '1,000.00', '900.50'])
    expect(rows[50]![1]).toBe('3.3500')
    expect(borrowers.match(/<tr class="alert">/g)).toHaveLength(2)
  })

  it('names a fork by its upstream and ledger, and a missing oracle code hash', () => {
    const { file: _file, sha256: _sha256, ...common } = snapshotSource()
    const fork: ReportSource = {
      ...common,
      kind: 'fork',
      url: 'https://rpc.example.org/?key=****',
      ledger: 55261759,
      oracleCode: null,
      borrowerSources: { events: 8, hints: 2 },
      start: { reserves: [], borrowers: [], liquidatable: 0 },
    }
    const forked = reportHtml(withSource(fork))
    const s = forked.slice(forked.indexOf('<section id="source">'), forked.indexOf('<section id="charts">'))
    expect(s).toContain('<p>Fork of https://rpc.example.org/?key=**** at ledger 55,261,759.</p>')
    expect(s).not.toContain('Snapshot SHA-256')
    expect(s).toContain('<dd>events 8, hints 2</dd>')
    expect(s).toContain('The oracle’s code was replaced')
    expect(s).toContain('0 of 0 borrowers liquidatable at the start')
    expect(s).toContain('No borrowers with liabilities at the start.')
    expect(s).toContain('The pool has no reserves.')
    expect(unbalancedTags(forked)).toEqual([])
  })
})
