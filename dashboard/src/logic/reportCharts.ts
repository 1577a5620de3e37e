/**
 * The charts of a sim run's report.json as chart.js configurations for the dashboard's one Chart
 * component: the same figures report.html draws (share price, return over the run, prices per
 * asset with fills, fill delay, keepers, utilisation, bad debt), on the ledger axis.
 *
 * report.html's charts are built by a plain-JavaScript page script embedded as a string
 * (sim/src/report/pageScript.ts), and sim/src/report/chartjs.ts only reads Chart.js's UMD file
 * from disk (node-only), so there is no config builder to import: the configurations are derived
 * here from the same report fields, with one deliberate difference. The return-over-the-run chart
 * follows the core's apyDisplay at each point (cumulative under 7 days, annualised from 7 days
 * on), the rule of the dashboard's Vault view and of the report's headline APY, where report.html
 * annualises from one hour after the start.
 */
import type { ChartConfiguration } from 'chart.js'
import { apyDisplay } from '../../../src/core/index.js'
import type { Report } from '../../../sim/src/report/types.js'

export type ReportChart =
  | { id: string; title: string; caption: string; config: ChartConfiguration }
  | { id: string; title: string; caption: string; note: string }

const COLORS = { market: '#1f77b4', oracle: '#ff7f0e', dex: '#2ca02c', fill: '#d62728', main: '#1f77b4', second: '#9467bd' }

type Line = ChartConfiguration<'line'>['data']['datasets'][number]

function line(label: string, data: (number | null)[], color: string, extra: Partial<Line> = {}): Line {
  return { label, data, borderColor: color, backgroundColor: color, borderWidth: 1.5, pointRadius: 0, spanGaps: false, ...extra } as Line
}

/** A series column as numbers, `null` where missing or not finite. */
function column(s: Report['series'], values: readonly (number | null)[] | undefined): (number | null)[] {
  return s.ledger.map((_, i) => {
    const v = values?.[i]
    return typeof v === 'number' && Number.isFinite(v) ? v : null
  })
}

function options(xText: string, yText: string, percent = false): NonNullable<ChartConfiguration['options']> {
  return {
    interaction: { mode: 'index', intersect: false },
    plugins: { legend: { position: 'bottom' } },
    scales: {
      x: { title: { display: true, text: xText } },
      y: { title: { display: true, text: yText }, ...(percent ? { ticks: { callback: (v: string | number) => `${Number(Number(v).toFixed(6))}%` } } : {}) },
    },
  }
}

function seriesChart(r: Report, id: string, title: string, caption: string, yText: string, datasets: Line[], percent = false): ReportChart {
  if (r.series.ledger.length === 0) return { id, title, caption, note: 'No series points were recorded.' }
  return { id, title, caption, config: { type: 'line', data: { labels: r.series.ledger.map(String), datasets }, options: options('ledger', yText, percent) } as ChartConfiguration }
}

/** The return since the start at each point, by the core's rule (percent; null before any time passed). */
export function returnSinceStart(r: Report): (number | null)[] {
  const s = r.series
  const p0 = s.sharePrice[0]
  const t0 = s.time[0]
  if (p0 === undefined || t0 === undefined) return []
  const fixed = (p: number) => BigInt(Math.round(p * 1e7))
  return s.ledger.map((_, i) => {
    const p = s.sharePrice[i]
    const t = s.time[i]
    if (p === undefined || t === undefined || !Number.isFinite(p) || !Number.isFinite(t)) return null
    const apy = apyDisplay([
      { timestamp: t0, price: fixed(p0) },
      { timestamp: t, price: fixed(p) },
    ])
    return apy.value === null ? null : Number((apy.value * 100).toFixed(6))
  })
}

/** Index of the first series point at or after `ledger`, or -1. */
function pointAt(s: Report['series'], ledger: number): number {
  return s.ledger.findIndex((l) => l >= ledger)
}

function priceCharts(r: Report): ReportChart[] {
  const s = r.series
  return s.assets.map((code, a) => {
    const oracle = column(s, s.oracle[code])
    const fills: (number | null)[] = s.ledger.map(() => null)
    for (const au of r.auctions) {
      if (au.filledLedger === null) continue
      const at = pointAt(s, au.filledLedger)
      if (at >= 0 && oracle[at] !== null) fills[at] = oracle[at]!
    }
    return seriesChart(r, `chart-price-${a}`, `${code} price`, `${code}: market, oracle and DEX prices; triangles mark liquidation fills at the oracle price of the fill's point.`, `${code} price (USD)`, [
      line('market', column(s, s.market[code]), COLORS.market),
      line('oracle', oracle, COLORS.oracle, { stepped: true }),
      line('DEX', column(s, s.dex[code]), COLORS.dex),
      line('liquidation fill', fills, COLORS.fill, { showLine: false, pointRadius: 5, pointStyle: 'triangle' }),
    ])
  })
}

function fillDelayChart(r: Report): ReportChart {
  const id = 'chart-fill-delay'
  const title = 'Fill delay'
  const caption = 'Fill delay per filled auction: fill ledger − first profitable ledger (at the population’s lowest MIN_PROFIT).'
  const filled = r.auctions.filter((au) => au.filledLedger !== null && au.fillDelay !== null)
  if (filled.length === 0) return { id, title, caption, note: 'No auction was filled after a first profitable ledger.' }
  const short = (auctionId: string) => {
    const [user = '', ...rest] = auctionId.split(':')
    return `${user.length > 12 ? `${user.slice(0, 4)}…${user.slice(-4)}` : user}:${rest.join(':')}`
  }
  return {
    id,
    title,
    caption,
    config: {
      type: 'bar',
      data: { labels: filled.map((au) => short(au.id)), datasets: [{ label: 'fill delay (ledgers)', data: filled.map((au) => au.fillDelay), backgroundColor: COLORS.main }] },
      options: options('auction (user:kind:start ledger)', 'ledgers after the first profitable ledger'),
    } as ChartConfiguration,
  }
}

function keepersChart(r: Report): ReportChart {
  const id = 'chart-keepers'
  const title = 'Keepers'
  const caption = 'Keeper profit over the run (USDC, stake changes included) and win rate (share of all fills).'
  if (r.keepers.length === 0) return { id, title, caption, note: 'No keepers.' }
  const o = options('keeper', 'profit (USDC)')
  o.scales = {
    ...o.scales,
    y1: { position: 'right', min: 0, max: 100, grid: { drawOnChartArea: false }, title: { display: true, text: 'win rate' }, ticks: { callback: (v) => `${v}%` } },
  }
  return {
    id,
    title,
    caption,
    config: {
      type: 'bar',
      data: {
        labels: r.keepers.map((k) => k.name),
        datasets: [
          { label: 'profit (USDC)', data: r.keepers.map((k) => k.profit), backgroundColor: COLORS.main, yAxisID: 'y' },
          { label: 'win rate (% of fills)', data: r.keepers.map((k) => Number((k.winRate * 100).toFixed(4))), backgroundColor: COLORS.second, yAxisID: 'y1' },
        ],
      },
      options: o,
    } as ChartConfiguration,
  }
}

/** Capital utilisation per point: active_liq / total_usdc in percent (null when the vault is empty). */
export function utilisation(r: Report): (number | null)[] {
  const total = column(r.series, r.series.totalUsdc)
  const active = column(r.series, r.series.activeLiq)
  return total.map((t, i) => (t !== null && t > 0 && active[i] !== null ? Number(((active[i]! / t) * 100).toFixed(6)) : null))
}

/** Every chart of the report, in report.html's order. */
export function reportCharts(r: Report): ReportChart[] {
  const s = r.series
  const ret = returnSinceStart(r)
  const charts: ReportChart[] = [
    seriesChart(r, 'chart-share-price', 'Share price', 'Vault share price (USDC per share) at each recorded point.', 'share price (USDC per share)', [
      line('share price', column(s, s.sharePrice), COLORS.main, { stepped: true }),
    ]),
    ret.some((v) => v !== null)
      ? seriesChart(
          r,
          'chart-apy',
          'Return over the run',
          'Return from the start to each point by the core’s rule: cumulative while under 7 days, annualised from 7 days on.',
          'return since the start',
          [line('return since the start', ret, COLORS.second)],
          true,
        )
      : { id: 'chart-apy', title: 'Return over the run', caption: '', note: 'No point lies after the start: no return to show.' },
    ...priceCharts(r),
    fillDelayChart(r),
    keepersChart(r),
    seriesChart(r, 'chart-utilisation', 'Utilisation', 'Capital utilisation: USDC out in active liquidations / total USDC of the vault.', 'active_liq / total_usdc', [line('utilisation', utilisation(r), COLORS.main)], true),
    seriesChart(r, 'chart-bad-debt', 'Bad debt', 'Bad debt: liabilities the backstop holds (USD at oracle prices).', 'bad debt (USD)', [
      line('bad debt', column(s, s.badDebt), COLORS.fill, { stepped: true }),
    ]),
  ]
  return charts
}
