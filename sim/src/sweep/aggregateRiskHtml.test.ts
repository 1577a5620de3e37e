/**
 * The risk part of aggregate.html: the heatmap (chartjs-chart-matrix) over two chosen
 * parameters, the line with its interval band over one, the table of every point with each
 * figure's value, interval and n, the headline, and what the page shows with one or no swept
 * parameter. The page's scripts run in a VM (test/sim/aggregatePage.ts).
 */
import { describe, expect, it } from 'vitest'
import { aggregateOf, runPage } from '../../../test/sim/aggregatePage.js'
import { aggregateHtml } from './aggregateHtml.js'
import { formatInterval, formatRisk, riskHeadline } from './riskHtml.js'
import { RISK_HEATMAP_ID, RISK_LINE_ID } from './riskScript.js'
import type { HeatCell } from './riskCharts.js'


// insolventDebt = 100 × point index + seed, seeds 1 and 2 → VaR95 = 100 × index + 1.95
const a2 = aggregateOf(['keepers.count=1,2,4', 'keepers.minProfit=1.01,1.05'])

describe('risk heatmap', () => {
  it('draws the first risk figure over the first two parameters, a labelled cell per point', () => {
    const { byId } = runPage(a2)
    const heat = byId(RISK_HEATMAP_ID)!
    expect(heat.config.type).toBe('matrix')
    const cells = heat.data.datasets[0]!.data as HeatCell[]
    expect(cells.map((c) => [c.x, c.y, c.v, c.n])).toEqual([
      ['1', '1.01', 1.95, 2],
      ['1', '1.05', 101.95, 2],
      ['2', '1.01', 201.95, 2],
      ['2', '1.05', 301.95, 2],
      ['4', '1.01', 401.95, 2],
      ['4', '1.05', 501.95, 2],
    ])
    const r = a2.points[3]!.risk['badDebt.var95']!
    expect(cells[3]).toMatchObject({ lo: r.lo, hi: r.hi, id: 'keepers.count=2,keepers.minProfit=1.05' })
    expect(cells[3]!.text).toEqual(['301.95', `[${formatRisk(r.lo, 'usd')}, ${formatRisk(r.hi, 'usd')}]`])
  })

  it('follows the X, Y and figure selectors', () => {
    const { byId } = runPage(a2, { 'heat-x': '1', 'heat-y': '0', 'heat-figure': 'lpReturn.p50' })
    const cells = byId(RISK_HEATMAP_ID)!.data.datasets[0]!.data as HeatCell[]
    // lpReturn = index + seed / 10: the median of seeds 1 and 2 is index + 0.15, shown as a percentage
    expect(cells.map((c) => [c.x, c.y, c.v])).toEqual([
      ['1.01', '1', 0.15],
      ['1.05', '1', 1.15],
      ['1.01', '2', 2.15],
      ['1.05', '2', 3.15],
      ['1.01', '4', 4.15],
      ['1.05', '4', 5.15],
    ])
    expect(cells[1]!.text[0]).toBe('115 %')
  })

  it('draws nothing and says why when X and Y are the same parameter', () => {
    const { byId, elements } = runPage(a2, { 'heat-x': '1', 'heat-y': '1' })
    expect(byId(RISK_HEATMAP_ID)).toBeUndefined()
    expect((elements.get('heat-note') as { textContent: string }).textContent).toBe('Choose two different parameters for X and Y.')
  })

  it('fixes the parameters off the axes by their selects', () => {
    const a3 = aggregateOf(['keepers.count=1,2', 'keepers.minProfit=1.01', 'keepers.path=atomic,two-step'])
    const { page, byId } = runPage(a3, { 'heat-fix-2': 'two-step' })
    expect(page.includes('<select id="heat-fix-2"><option value="atomic" selected>atomic</option><option value="two-step">two-step</option></select>')).toBe(true)
    // the two-step slice: points 1 and 3
    expect((byId(RISK_HEATMAP_ID)!.data.datasets[0]!.data as HeatCell[]).map((c) => c.v)).toEqual([101.95, 301.95])
  })
})

describe('risk line chart', () => {
  it('draws the figure over one parameter with its interval as a band, the others fixed', () => {
    const { byId } = runPage(a2, { 'line-fix-1': '1.05' })
    const line = byId(RISK_LINE_ID)!
    expect(line.data.labels).toEqual(['1', '2', '4'])
    expect(line.data.datasets.map((d) => d.label)).toEqual(['95 % CI high', '95 % CI low', 'Bad debt VaR95 (USD)'])
    expect(line.data.datasets[2]!.data).toEqual([101.95, 301.95, 501.95])
    expect(line.data.datasets[0]!.data).toEqual([1, 3, 5].map((i) => a2.points[i]!.risk['badDebt.var95']!.hi))
    expect(line.data.datasets[1]!.data).toEqual([1, 3, 5].map((i) => a2.points[i]!.risk['badDebt.var95']!.lo))
    expect(line.data.datasets[0]!.fill).toBe('+1')
  })

  it('takes its X parameter and figure from the selectors', () => {
    const line = runPage(a2, { 'line-x': '1', 'line-figure': 'lpReturn.pLoss', 'line-fix-0': '2' }).byId(RISK_LINE_ID)!
    expect(line.data.labels).toEqual(['1.01', '1.05'])
    expect(line.data.datasets[2]!.data).toEqual([0, 0])
  })
})

describe('risk table and headline', () => {
  it('lists every grid point with each figure’s value, interval and n', () => {
    const page = aggregateHtml(a2)
    expect(page.includes('<p class="headline" id="risk-headline">Intervals rest on 2 seeds per grid point (95 % percentile bootstrap, 1000 resamples).</p>')).toBe(true)
    const table = /<table id="risk-table">([\s\S]*?)<\/table>/.exec(page)![1]!
    expect(table.match(/<tr>/g)).toHaveLength(1 + a2.points.length)
    const r = a2.points[5]!.risk['badDebt.var95']!
    expect(table.includes(`<td class="num">501.95 <span class="band">${formatInterval(r, 'usd')}</span> n=2</td>`)).toBe(true)
    // the embedded data carries the same texts
    const data = JSON.parse(/<script type="application\/json" id="aggregate-data">([\s\S]*?)<\/script>/.exec(page)![1]!) as { riskText: Record<string, [string, string]>[] }
    expect(data.riskText[5]!['badDebt.var95']).toEqual(['501.95', formatInterval(r, 'usd')])
    // chartjs-chart-matrix is inlined, nothing is fetched
    expect(page.includes('chartjs-chart-matrix v3.1.0')).toBe(true)
    expect(/<(script|img|link)\b[^>]*\b(src|href)=/.test(page)).toBe(false)
  })

  it('names a seed range when failures leave points with fewer runs', () => {
    const uneven = { ...a2, points: a2.points.map((p, i) => (i === 0 ? { ...p, runs: 1 } : p)) }
    expect(riskHeadline(uneven)).toMatch(/^Intervals rest on 1 to 2 seeds per grid point/)
    expect(riskHeadline({ ...a2, points: a2.points.map((p) => ({ ...p, runs: 0 })) })).toBe('No run finished: there are no risk figures.')
  })

  it('formats fractions as percentages and says when an interval is missing', () => {
    expect(formatRisk(0.037375, 'fraction')).toBe('3.7375 %')
    expect(formatRisk(null, 'usd')).toBe('–')
    expect(formatInterval({ value: 1, lo: null, hi: null, n: 1 }, 'usd')).toBe('no CI (n < 2)')
    expect(formatInterval({ value: 0.5, lo: 0.25, hi: 0.75, n: 4 }, 'fraction')).toBe('[25 %, 75 %]')
  })
})

describe('fewer swept parameters', () => {
  it('with one: no heatmap (the page says so), the line chart over it', () => {
    const a1 = aggregateOf(['keepers.count=1,2'])
    const { page, byId } = runPage(a1)
    expect(page.includes('One parameter is swept, so there is no heatmap (it needs two)')).toBe(true)
    expect(byId(RISK_HEATMAP_ID)).toBeUndefined()
    expect(byId(RISK_LINE_ID)!.data.datasets[2]!.data).toEqual([1.95, 101.95])
  })

  it('with none: only the tables', () => {
    const a0 = aggregateOf([])
    const { page, charts } = runPage(a0)
    expect(charts).toEqual([])
    expect(page.includes('<canvas')).toBe(false)
    expect(page.includes('Nothing is swept (seeds only): no heatmap or line chart, only the table.')).toBe(true)
    expect(page.includes('<td>base</td>')).toBe(true)
  })
})
