/**
 * report.html's scripts executed in Node: the inlined Chart.js and the page script run in a VM
 * against a stand-in document whose canvases record the 2D-context calls Chart.js makes. This
 * checks, without a browser, that the page script runs on full and empty reports, feeds
 * Chart.js configurations it accepts, and that every chart it creates draws.
 */
import vm from 'node:vm'
import { describe, expect, it } from 'vitest'
import { emptyReportFixture, reportFixture } from '../../../test/sim/reportFixture.js'
import { reportHtml } from './html.js'
import type { Report } from './types.js'

interface StandInCanvas {
  id: string
  width: number
  height: number
  /** 2D-context calls made on this canvas. */
  calls: number
}

interface ChartInstance {
  canvas: StandInCanvas
  data: { labels: string[]; datasets: { label: string; data: (number | null)[] }[] }
  options: { scales: { x: { title: { text: string } } } }
  config: { options: { plugins: { tooltip: { callbacks: { title: (items: { dataIndex: number }[]) => string } } } } }
}

/** A 2D context that accepts everything and counts the calls. */
function recordingContext(canvas: StandInCanvas): unknown {
  const state: Record<string | symbol, unknown> = { canvas }
  const metrics = (text: unknown) => ({ width: String(text).length * 6, actualBoundingBoxAscent: 8, actualBoundingBoxDescent: 2 })
  return new Proxy(state, {
    get(target, key) {
      if (key in target) return target[key]
      if (key === 'measureText') return metrics
      if (key === 'getLineDash') return () => []
      if (key === 'isPointInPath') return () => false
      if (key === 'createLinearGradient' || key === 'createRadialGradient' || key === 'createPattern') return () => ({ addColorStop() {} })
      return () => {
        canvas.calls++
      }
    },
    set(target, key, value) {
      target[key] = value
      return true
    },
  })
}

/** Runs the page's scripts; returns the charts drawn, the notes left instead, and the x-axis select. */
function runPage(report: Report) {
  const page = reportHtml(report)
  const bodies = [...page.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!)
  const ids = [...page.matchAll(/<canvas id="([^"]+)"/g)].map((m) => m[1]!)
  const elements = new Map<string, unknown>()
  const notes: { replaced: string; text: string }[] = []
  for (const id of ids) {
    const canvas: StandInCanvas & Record<string, unknown> = {
      id,
      width: 600,
      height: 300,
      calls: 0,
      style: {},
      getAttribute: () => null,
      setAttribute: () => undefined,
      removeAttribute: () => undefined,
      parentNode: { parentNode: { replaceChild: (p: { textContent: string }) => notes.push({ replaced: id, text: p.textContent }) } },
    }
    canvas['getContext'] = () => recordingContext(canvas)
    elements.set(id, canvas)
  }
  elements.set('report-data', { textContent: bodies[0] })
  const listeners: Record<string, () => void> = {}
  const select = { value: 'ledger', addEventListener: (type: string, fn: () => void) => (listeners[type] = fn) }
  elements.set('x-axis', select)
  const document = {
    getElementById: (id: string) => elements.get(id) ?? null,
    createElement: () => ({ className: '', textContent: '' }),
  }
  const context = vm.createContext({ document })
  vm.runInContext(bodies[1]!, context)
  vm.runInContext(bodies[2]!, context)
  const Chart = (context as { Chart: { instances: Record<string, ChartInstance> } }).Chart
  const charts = Object.values(Chart.instances)
  const chart = (id: string) => charts.find((c) => c.canvas.id === id)!
  const change = (value: string) => {
    select.value = value
    listeners['change']!()
  }
  return { ids, charts, chart, notes, change }
}

describe('the page script with Chart.js', () => {
  it('draws every chart of a full run', () => {
    const { ids, charts, chart, notes } = runPage(reportFixture())
    expect(notes).toEqual([])
    expect(charts.map((c) => c.canvas.id)).toEqual(ids)
    for (const c of charts) expect(c.canvas.calls, c.canvas.id).toBeGreaterThan(50)
  })

  it('plots the series on a category axis of ledgers', () => {
    const { chart } = runPage(reportFixture())
    expect(chart('chart-share-price').data.labels).toEqual(['1000', '1100', '1104', '1200', '1205', '1720'])
    expect(chart('chart-share-price').data.datasets[0]!.data).toEqual([1, 1, 1.0005, 1.0005, 1.0012345, 1.0012345])
    expect(chart('chart-bad-debt').data.datasets[0]!.data).toEqual([0, 0, 0, 0, 17.25, 17.25])
    expect(chart('chart-locked-profit').data.datasets.map((d: { data: unknown }) => d.data)).toEqual([
      [0, 0, 50, 50, 123.45, 123.45],
      [0, 0, 45, 40, 100, 40.5],
    ])
    // active_liq / total_usdc in percent; no value where the vault holds nothing
    expect(chart('chart-utilisation').data.datasets[0]!.data).toEqual([0, 60, 0, 49.975012, 0, null])
  })

  it('titles a point’s tooltip with its ledger and hours', () => {
    const { chart } = runPage(reportFixture())
    const title = chart('chart-utilisation').config.options.plugins.tooltip.callbacks.title
    expect(title([{ dataIndex: 2 }])).toBe('ledger 1104 · 0.14 h')
    expect(title([])).toBe('')
  })

  it('marks fills on the price charts at the oracle price of their point', () => {
    const { chart } = runPage(reportFixture())
    const xlm = chart('chart-price-0').data.datasets
    expect(xlm.map((d) => d.label)).toEqual(['market', 'oracle', 'DEX', 'liquidation fill'])
    // fills at ledgers 1104 and 1205
    expect(xlm[3]!.data).toEqual([null, null, 0.076, null, 0.07, null])
    expect(chart('chart-price-1').data.datasets[3]!.data).toEqual([null, null, 2850, null, 2450, null])
    // the missing DEX quote stays a gap
    expect(chart('chart-price-1').data.datasets[2]!.data[1]).toBeNull()
  })

  it('annualises the return from the start, leaving out the first hour', () => {
    const { chart } = runPage(reportFixture())
    const apy = chart('chart-apy').data.datasets[0]!.data
    expect(apy.slice(0, 5)).toEqual([null, null, null, null, null])
    // the last point is exactly one hour in
    expect(apy[5]! / ((Math.pow(1.0012345, 365 * 24) - 1) * 100)).toBeCloseTo(1, 9)
  })

  it('plots the fill delay per filled auction and the keepers', () => {
    const { chart } = runPage(reportFixture())
    expect(chart('chart-fill-delay').data.labels).toEqual(['GUSER1:liquidation:1100', 'GUSER2:liquidation:1200'])
    expect(chart('chart-fill-delay').data.datasets[0]!.data).toEqual([2, 4])
    expect(chart('chart-keepers').data.labels).toEqual(['alpha', 'beta', 'gamma'])
    expect(chart('chart-keepers').data.datasets.map((d) => d.data)).toEqual([
      [40.25, 18.25, 0],
      [50, 50, 0],
    ])
  })

  it('switches the series charts to hours since the start and redraws them', () => {
    const { chart, change } = runPage(reportFixture())
    const before = { badDebt: chart('chart-bad-debt').canvas.calls, keepers: chart('chart-keepers').canvas.calls }
    change('hours')
    expect(chart('chart-bad-debt').data.labels).toEqual(['0.00', '0.14', '0.14', '0.28', '0.28', '1.00'])
    expect(chart('chart-bad-debt').options.scales.x.title.text).toBe('hours since the start')
    expect(chart('chart-bad-debt').canvas.calls).toBeGreaterThan(before.badDebt)
    expect(chart('chart-keepers').canvas.calls).toBe(before.keepers)
  })

  it('runs on a run with no points, auctions or fills, leaving notes instead of empty charts', () => {
    const { charts, notes } = runPage(emptyReportFixture())
    expect(charts.map((c) => c.canvas.id)).toEqual(['chart-keepers'])
    expect(charts[0]!.canvas.calls).toBeGreaterThan(0)
    expect(notes.map((n) => n.replaced)).toEqual([
      'chart-share-price',
      'chart-apy',
      'chart-price-0',
      'chart-fill-delay',
      'chart-utilisation',
      'chart-locked-profit',
      'chart-bad-debt',
    ])
  })

  it('runs on a run with points but no auctions and no keepers', () => {
    const r = reportFixture()
    r.auctions = []
    r.keepers = []
    const { chart, notes } = runPage(r)
    expect(notes.map((n) => n.replaced)).toEqual(['chart-fill-delay', 'chart-keepers'])
    expect(chart('chart-price-0').data.datasets[3]!.data.every((v) => v === null)).toBe(true)
  })

  it('says why the APY chart is empty when no point is an hour in', () => {
    const r = reportFixture()
    r.series.time = r.series.time.map((t) => t / 10)
    const { notes } = runPage(r)
    expect(notes).toEqual([{ replaced: 'chart-apy', text: 'No point lies an hour or more after the start: nothing to annualise.' }])
  })
})
