import type { ChartConfiguration } from 'chart.js'
import { describe, expect, it } from 'vitest'
import { emptyReportFixture, reportFixture } from '../../../test/sim/reportFixture.js'
import { reportCharts, returnSinceStart, utilisation, type ReportChart } from './reportCharts.js'

const configOf = (c: ReportChart | undefined): ChartConfiguration => {
  if (c === undefined || !('config' in c)) throw new Error(`no chart config for ${c?.id}`)
  return c.config
}

describe('reportCharts', () => {
  it('derives report.html’s charts in its order, one price chart per asset', () => {
    const charts = reportCharts(reportFixture())
    expect(charts.map((c) => c.id)).toEqual([
      'chart-share-price',
      'chart-apy',
      'chart-price-0',
      'chart-price-1',
      'chart-fill-delay',
      'chart-keepers',
      'chart-utilisation',
      'chart-bad-debt',
    ])
    expect(charts.every((c) => 'config' in c)).toBe(true)
    const share = configOf(charts[0])
    expect(share.data.labels).toEqual(['1000', '1100', '1104', '1200', '1205', '1720'])
    expect(share.data.datasets[0]!.data).toEqual([1, 1, 1.0005, 1.0005, 1.0012345, 1.0012345])
  })

  it('marks fills on the price charts at the oracle price of the fill’s point, and keeps a missing DEX quote a gap', () => {
    const weth = configOf(reportCharts(reportFixture())[3])
    const [, , dex, fills] = weth.data.datasets
    expect(dex!.data).toEqual([3001, null, 2801, 2501, 2401, 2951])
    // Fills at ledgers 1104 and 1205: points 2 and 4.
    expect(fills!.data).toEqual([null, null, 2850, null, 2450, null])
  })

  it('charts fill delays, keepers’ profit and win rate, and utilisation', () => {
    const charts = reportCharts(reportFixture())
    const delay = configOf(charts[4])
    expect(delay.data.datasets[0]!.data).toEqual([2, 4])
    const keepers = configOf(charts[5])
    expect(keepers.data.datasets.map((d) => d.data)).toEqual([
      [40.25, 18.25, 0],
      [50, 50, 0],
    ])
    expect(utilisation(reportFixture())).toEqual([0, 60, 0, 49.975012, 0, null])
  })

  it('follows the core’s APY rule for the return over the run (cumulative under 7 days)', () => {
    const r = returnSinceStart(reportFixture())
    expect(r[0]).toBeNull() // no time has passed
    expect(r[5]).toBeCloseTo(0.12345, 6)
  })

  it('replaces a chart by a note when nothing was recorded for it', () => {
    const charts = reportCharts(emptyReportFixture())
    // The keepers still ran (and are drawn); no series point, fill or auction was recorded.
    expect(charts.filter((c) => 'config' in c).map((c) => c.id)).toEqual(['chart-keepers'])
    expect(charts.find((c) => c.id === 'chart-fill-delay')).toMatchObject({ note: 'No auction was filled after a first profitable ledger.' })
  })
})
