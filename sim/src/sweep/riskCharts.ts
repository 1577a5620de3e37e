/**
 * The risk charts of a sweep's aggregate as Chart.js configurations, built from the aggregate
 * and its pre-formatted texts (riskFormat.ts `riskText`) alone:
 *
 *   - `heatmapChart`: a `matrix` chart (chartjs-chart-matrix) of one risk figure over two swept
 *     parameters, the others fixed; a cell's colour runs from green (good for the pool) to red
 *     (bad) over the cells shown, by the figure's `better` direction (blue shades when neither
 *     is better), and the cell is labelled with the value and its 95 % interval;
 *   - `riskLineChart`: one risk figure over one parameter, its interval a shaded band.
 *
 * No Node or DOM imports: aggregate.html inlines this module (bundled by riskBundle.ts) and its
 * page script draws what these functions return; the dashboard imports them.
 */
import type { SweepAggregate, AggregatePoint } from './aggregate.js'
import { formatValue } from './paramValue.js'
import type { RiskText } from './riskFormat.js'

/** What a chart shows: axes (parameter indices), figure, and each other parameter's fixed value text. */
export interface RiskChoice {
  x: number
  y: number
  figure: string
  /** The value text (`formatValue`) parameter `k` is fixed at when it is not on an axis. */
  fixed: (k: number) => string
}

/** A heatmap cell: axis value texts, the figure's value, interval and n, the point id, its texts. */
export interface HeatCell {
  x: string
  y: string
  v: number | null
  lo: number | null
  hi: number | null
  n: number
  id: string
  text: [string, string]
}

/** A chart to draw (its Chart.js configuration and the height its box needs), or why there is none. */
export type RiskChart = { config: RiskChartConfig; height: number } | { note: string }

/** A Chart.js configuration (typed loosely: callers hand it to Chart.js as is). */
export interface RiskChartConfig {
  type: 'matrix' | 'line'
  data: { labels?: string[]; datasets: Record<string, unknown>[] }
  options: Record<string, unknown>
  plugins?: Record<string, unknown>[]
}

/** The choice the page and the dashboard start from: parameters 0 and 1, the first figure, first values. */
export function defaultChoice(a: SweepAggregate): RiskChoice {
  return { x: 0, y: 1, figure: a.risk.figures[0]?.name ?? '', fixed: (k) => formatValue(a.params[k]?.values[0]) }
}

/** Points (with their index) whose parameters other than those in `free` equal their fixed values. */
export function riskSlice(a: SweepAggregate, fixed: (k: number) => string, free: readonly number[]): { pt: AggregatePoint; i: number }[] {
  const out: { pt: AggregatePoint; i: number }[] = []
  a.points.forEach((pt, i) => {
    for (let k = 0; k < a.params.length; k++) {
      if (free.includes(k)) continue
      if (formatValue(pt.values[k]) !== fixed(k)) return
    }
    out.push({ pt, i })
  })
  return out
}

/** Green (good) → yellow → red (bad) for t in 0..1 of badness; blue shades when no direction. */
export function heatColour(t: number, better: 'higher' | 'lower' | null | undefined): string {
  if (better === null || better === undefined) return `hsl(210, 70%, ${Math.round(92 - 50 * t)}%)`
  const bad = better === 'lower' ? t : 1 - t
  return `hsl(${Math.round(120 * (1 - bad))}, 70%, 62%)`
}

function texts(text: RiskText, i: number, figure: string): [string, string] {
  return text[i]?.[figure] ?? ['–', '']
}

/** The heatmap's cells in aggregate order (the slice of the grid the choice fixes). */
export function heatmapCells(a: SweepAggregate, text: RiskText, c: RiskChoice): HeatCell[] {
  return riskSlice(a, c.fixed, [c.x, c.y]).map(({ pt, i }) => {
    const r = pt.risk[c.figure] ?? { value: null, lo: null, hi: null, n: 0 }
    return { x: formatValue(pt.values[c.x]), y: formatValue(pt.values[c.y]), v: r.value, lo: r.lo, hi: r.hi, n: r.n, id: pt.id, text: texts(text, i, c.figure) }
  })
}

interface CellLabelChart {
  ctx: { save(): void; restore(): void; fillText(t: string, x: number, y: number): void; textAlign: string; textBaseline: string; fillStyle: string; font: string }
  getDatasetMeta(i: number): { data: { getCenterPoint(): { x: number; y: number } }[] }
  data: { datasets: { data: unknown[] }[] }
}

/** A plugin writing each cell's value and interval texts on it. */
const cellLabels = {
  id: 'riskCellLabels',
  afterDatasetsDraw(chart: CellLabelChart) {
    const ctx = chart.ctx
    const data = chart.data.datasets[0]!.data as HeatCell[]
    ctx.save()
    ctx.textAlign = 'center'
    ctx.textBaseline = 'middle'
    ctx.fillStyle = '#1b1f24'
    chart.getDatasetMeta(0).data.forEach((el, i) => {
      const p = el.getCenterPoint()
      ctx.font = 'bold 12px system-ui, sans-serif'
      ctx.fillText(data[i]!.text[0], p.x, p.y - 8)
      ctx.font = '11px system-ui, sans-serif'
      ctx.fillText(data[i]!.text[1], p.x, p.y + 8)
    })
    ctx.restore()
  },
}

interface Scriptable {
  raw?: HeatCell
  chart: { chartArea?: { width: number; height: number } }
}

/** The heatmap of `c.figure` over parameters `c.x` (columns) and `c.y` (rows). */
export function heatmapChart(a: SweepAggregate, text: RiskText, c: RiskChoice): RiskChart {
  if (a.params.length < 2) return { note: 'One parameter is swept, so there is no heatmap (it needs two).' }
  if (c.x === c.y) return { note: 'Choose two different parameters for X and Y.' }
  const xs = a.params[c.x]!.values.map(formatValue)
  const ys = a.params[c.y]!.values.map(formatValue)
  const cells = heatmapCells(a, text, c)
  const finite = cells.flatMap((cell) => (typeof cell.v === 'number' ? [cell.v] : []))
  const min = Math.min(...finite)
  const max = Math.max(...finite)
  const info = a.risk.figures.find((f) => f.name === c.figure)
  return {
    height: Math.max(260, 70 * ys.length + 110),
    config: {
      type: 'matrix',
      data: {
        datasets: [
          {
            label: info ? info.label : c.figure,
            data: cells,
            backgroundColor: (s: Scriptable) => {
              const cell = s.raw
              if (!cell || typeof cell.v !== 'number') return '#eaeef2'
              return heatColour(max > min ? (cell.v - min) / (max - min) : 0.5, info?.better)
            },
            borderColor: '#ffffff',
            borderWidth: 1,
            width: (s: Scriptable) => (s.chart.chartArea ? s.chart.chartArea.width / xs.length - 2 : 20),
            height: (s: Scriptable) => (s.chart.chartArea ? s.chart.chartArea.height / ys.length - 2 : 20),
          },
        ],
      },
      options: {
        animation: false,
        maintainAspectRatio: false,
        plugins: {
          legend: { display: false },
          tooltip: {
            callbacks: {
              title: (items: { raw: HeatCell }[]) => (items.length > 0 ? items[0]!.raw.id : ''),
              label: (item: { raw: HeatCell }) => `${item.raw.text[0]} ${item.raw.text[1]} n=${item.raw.n}`,
            },
          },
        },
        scales: {
          x: { type: 'category', labels: xs, offset: true, grid: { display: false }, title: { display: true, text: a.params[c.x]!.path } },
          y: { type: 'category', labels: ys, offset: true, grid: { display: false }, title: { display: true, text: a.params[c.y]!.path } },
        },
      },
      plugins: [cellLabels],
    },
  }
}

/** `c.figure` over parameter `c.x` (the others fixed), its 95 % interval as a band. */
export function riskLineChart(a: SweepAggregate, text: RiskText, c: Omit<RiskChoice, 'y'>): RiskChart {
  if (a.params.length < 1) return { note: 'Nothing is swept (seeds only): no line chart, only the table.' }
  const xs = a.params[c.x]!.values.map(formatValue)
  const byX = new Map<string, { pt: AggregatePoint; i: number }>()
  for (const s of riskSlice(a, c.fixed, [c.x])) byX.set(formatValue(s.pt.values[c.x]), s)
  const series = (key: 'value' | 'lo' | 'hi') =>
    xs.map((x) => {
      const r = byX.get(x)?.pt.risk[c.figure]
      return r && typeof r[key] === 'number' ? r[key] : null
    })
  const info = a.risk.figures.find((f) => f.name === c.figure)
  const label = info ? info.label : c.figure
  const band = 'rgba(31,119,180,0.18)'
  return {
    height: 280,
    config: {
      type: 'line',
      data: {
        labels: xs,
        datasets: [
          { label: '95 % CI high', data: series('hi'), band: true, borderWidth: 0, pointRadius: 0, backgroundColor: band, fill: '+1' },
          { label: '95 % CI low', data: series('lo'), band: true, borderWidth: 0, pointRadius: 0, backgroundColor: band, fill: false },
          { label, data: series('value'), borderColor: '#1f77b4', backgroundColor: '#1f77b4', fill: false, spanGaps: true },
        ],
      },
      options: {
        animation: false,
        maintainAspectRatio: false,
        interaction: { mode: 'index', intersect: false },
        plugins: {
          legend: { labels: { filter: (item: { datasetIndex: number }, data: { datasets: { band?: boolean }[] }) => !data.datasets[item.datasetIndex]?.band } },
          tooltip: {
            filter: (item: { dataset: { band?: boolean } }) => !item.dataset.band,
            callbacks: {
              label: (item: { dataIndex: number }) => {
                const s = byX.get(xs[item.dataIndex]!)
                const t = s === undefined ? (['–', ''] as [string, string]) : texts(text, s.i, c.figure)
                return `${t[0]} ${t[1]} n=${s?.pt.risk[c.figure]?.n ?? 0}`
              },
            },
          },
        },
        scales: {
          x: { title: { display: true, text: a.params[c.x]!.path } },
          y: { title: { display: true, text: label } },
        },
      },
    },
  }
}
