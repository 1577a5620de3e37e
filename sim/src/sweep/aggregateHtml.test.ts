/**
 * aggregate.html: its markup, and its scripts run in a VM (the inlined Chart.js and
 * chartjs-chart-matrix, and the page scripts) against a stand-in document whose canvases accept
 * any 2D-context call, to check the charts are built from the embedded aggregate as described:
 * summary figures with x = first parameter, a mean line and a p5–p95 band per value of the
 * second, a select per further parameter; the risk heatmap, line with its interval band, and
 * table (aggregateRiskHtml.test.ts).
 */
import { describe, expect, it } from 'vitest'
import { aggregateOf, runPage } from '../../../test/sim/aggregatePage.js'
import { aggregateHtml, formatStat } from './aggregateHtml.js'

describe('aggregate.html', () => {
  it('embeds the aggregate, escapes text and inlines Chart.js', () => {
    const a = aggregateOf(['keepers.count=1,2'])
    const page = aggregateHtml(a)
    expect(page === aggregateHtml(a)).toBe(true)
    // nothing loaded from another file or URL
    expect(/<(script|img|link)\b[^>]*\b(src|href)=/.test(page)).toBe(false)
    expect(page.includes('Chart.js v4')).toBe(true)
    expect(page.includes('<h1>sweep &#60;/script&#62; &#60;b&#62; — sweep</h1>')).toBe(true)
    const data = /<script type="application\/json" id="aggregate-data">([\s\S]*?)<\/script>/.exec(page)![1]!
    expect(JSON.parse(data).aggregate).toEqual(a)
    expect(page.includes('<td>keepers.count=2</td>')).toBe(true)
  })

  it('draws a chart per figure: mean and p5–p95 band per value of the second parameter', () => {
    const a = aggregateOf(['keepers.count=1,2,4', 'keepers.minProfit=1.01,1.05'])
    const { charts, chart } = runPage(a)
    expect(charts.filter((c) => c.canvas.id.startsWith('chart-figure-'))).toHaveLength(a.figures.length)
    const lp = chart(a.figures.indexOf('lpReturn'))
    expect(lp.data.labels).toEqual(['1', '2', '4'])
    expect(lp.data.datasets.map((d) => d.label)).toEqual([
      'keepers.minProfit = 1.01 p95',
      'keepers.minProfit = 1.01 p5',
      'keepers.minProfit = 1.01',
      'keepers.minProfit = 1.05 p95',
      'keepers.minProfit = 1.05 p5',
      'keepers.minProfit = 1.05',
    ])
    // points in grid order: (1, 1.01)=0, (1, 1.05)=1, (2, 1.01)=2, ...
    expect(lp.data.datasets[2]!.data).toEqual([0.15, 2.15, 4.15])
    expect(lp.data.datasets[5]!.data).toEqual([1.15, 3.15, 5.15])
    expect(lp.data.datasets[0]!.data).toEqual([0.195, 2.195, 4.195])
    expect(lp.data.datasets[0]!.fill).toBe('+1')
  })

  it('draws one line over one parameter, and a select per parameter beyond the second', () => {
    const one = runPage(aggregateOf(['keepers.count=1,2']))
    expect(one.chart(0).data.datasets.map((d) => d.label)).toEqual(['mean p95', 'mean p5', 'mean'])
    const a = aggregateOf(['keepers.count=1,2', 'keepers.minProfit=1.01', 'keepers.path=atomic,two-step'])
    const { page, chart } = runPage(a, { 'slice-2': 'two-step' })
    expect(page.includes('<select id="slice-2"><option value="atomic">atomic</option><option value="two-step">two-step</option></select>')).toBe(true)
    // the two-step slice: points 1 and 3
    expect(chart(a.figures.indexOf('lpReturn')).data.datasets[2]!.data).toEqual([1.15, 3.15])
  })

  it('formats table figures compactly', () => {
    expect([formatStat(null), formatStat(0), formatStat(1.23456789), formatStat(-0.00012345678), formatStat(1e-7), formatStat(12345678901)]).toEqual([
      '–',
      '0',
      '1.23457',
      '-0.000123457',
      '1.000e-7',
      '1.235e+10',
    ])
  })
})
