/**
 * aggregate.html: a sweep's results as one offline file. Chart.js and chartjs-chart-matrix are
 * inlined and the aggregate is embedded as JSON. First the risk figures (riskHtml.ts, drawn by
 * riskScript.ts from the chart configurations of riskCharts.ts, inlined by riskBundle.ts: a
 * heatmap over two parameters, a line with its confidence band over one, a table of every
 * point with intervals and n), then the summary figures (aggregateScript.ts: a
 * chart per figure, mean with its p5–p95 spread over the first swept parameter, a line per value
 * of the second) and their table. The same aggregate always gives the same bytes.
 */
import { chartJsMatrixSource, chartJsSource } from '../report/chartjs.js'
import { embedJson, htmlPage } from '../report/page.js'
import { escapeHtml } from '../report/htmlTables.js'
import type { SweepAggregate } from './aggregate.js'
import { AGGREGATE_SCRIPT, figureChartId } from './aggregateScript.js'
import { formatValue } from './grid.js'
import { formatStat, riskSection, riskText } from './riskHtml.js'
import { riskChartsSource } from './riskBundle.js'
import { RISK_SCRIPT } from './riskScript.js'
import { formatShard } from './shard.js'
import { FIGURES, type FigureStats } from './stats.js'

export { formatStat }

const STYLE = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1b1f24; margin: 0 auto; max-width: 1400px; padding: 1rem 1.5rem 3rem; }
h1 { margin: 0.2rem 0; font-size: 1.6rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #d0d7de; padding-bottom: 0.2rem; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 0.1rem 1rem; margin: 0.8rem 0; }
dl.meta dt { color: #57606a; } dl.meta dd { margin: 0; font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
.table-box { overflow-x: auto; }
table { border-collapse: collapse; margin: 0.6rem 0; font-size: 12px; }
th, td { border-bottom: 1px solid #e1e4e8; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; white-space: nowrap; }
th { background: #f6f8fa; position: sticky; top: 0; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
td .band { color: #57606a; } tr.alert td { background: #ffebe9; }
.note { color: #57606a; font-style: italic; }
.controls label { margin-right: 1.2rem; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(460px, 1fr)); gap: 1.2rem; }
figure { margin: 0; } .canvas-box { position: relative; height: 280px; }
figcaption { color: #57606a; font-size: 12px; margin-top: 0.3rem; }
.headline { font-size: 1.05rem; font-weight: 600; }
.heat-box { height: 360px; max-width: 1000px; }
details { margin: 0.8rem 0; } details dl.meta dd { font-family: inherit; }
`

/** The page as one string. */
export function aggregateHtml(a: SweepAggregate): string {
  const labels = Object.fromEntries(FIGURES.map((f) => [f.name, f.label]))
  const title = `${a.scenario.name} — sweep`
  return htmlPage(
    title,
    STYLE,
    `${header(a)}
${riskSection(a)}
${chartsSection(a, labels)}
<section id="points">
<h2>Summary figures at every grid point</h2>
<p class="note">mean, then [p5, p95] over the runs that gave a value; n is the number of such runs.</p>
${pointsTable(a, labels)}
</section>
<script type="application/json" id="aggregate-data">${embedJson({ aggregate: a, labels, riskText: riskText(a) })}</script>
<script>
${chartJsSource()}</script>
<script>
${chartJsMatrixSource()}</script>
<script>${AGGREGATE_SCRIPT}</script>
<script>${riskChartsSource()}</script>
<script>${RISK_SCRIPT}</script>`,
  )
}

function header(a: SweepAggregate): string {
  const runs = a.points.reduce((n, p) => n + p.runs, 0)
  const failed = a.points.reduce((n, p) => n + p.failed.length, 0)
  const missing = a.points.reduce((n, p) => n + p.missing.length, 0)
  const rows: [string, string][] = [
    ['Scenario file sha256', a.scenario.hash],
    ['Swept', a.params.length === 0 ? 'nothing (seeds only)' : a.params.map((p) => `${p.path} ∈ {${p.values.map(formatValue).join(', ')}}`).join('; ')],
    ['Seeds', `${a.seeds.count} per point, ${a.seeds.base} to ${a.seeds.base + a.seeds.count - 1}`],
    ['Runs', `${runs} finished, ${failed} failed${missing > 0 ? `, ${missing} missing` : ''}, over ${a.points.length} grid point${a.points.length === 1 ? '' : 's'}`],
    ['Jobs', a.shard === null ? 'the whole sweep' : `shard ${formatShard(a.shard)} only (merge the shards for the whole sweep)`],
  ]
  return `<header>
<h1>${escapeHtml(a.scenario.name)} — sweep</h1>
<dl class="meta">
${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('\n')}
</dl>
</header>`
}

/** The summary figures' charts (not drawn when nothing is swept: the table has every figure). */
function chartsSection(a: SweepAggregate, labels: Record<string, string>): string {
  if (a.params.length === 0) return ''
  return `<section id="charts">
<h2>Summary figures over the grid</h2>
<p class="note">Each line is the mean over seeds; the shaded band is the spread of the runs (not a confidence interval), from the 5th to the 95th percentile (${escapeHtml(a.percentiles)}).</p>
${controls(a)}
<div class="charts">
${a.figures.map((f, i) => figure(figureChartId(i), labels[f] ?? f, f)).join('\n')}
</div>
</section>`
}

/** A select per parameter beyond the second: which slice of the grid the charts show. */
function controls(a: SweepAggregate): string {
  if (a.params.length <= 2) return ''
  const selects = a.params.slice(2).map((p, k) => {
    const i = k + 2
    const options = p.values.map((v) => `<option value="${escapeHtml(formatValue(v))}">${escapeHtml(formatValue(v))}</option>`).join('')
    return `<label>${escapeHtml(p.path)} <select id="slice-${i}">${options}</select></label>`
  })
  return `<p class="controls">${selects.join('\n')}</p>`
}

function figure(id: string, label: string, name: string): string {
  return `<figure>
<div class="canvas-box"><canvas id="${escapeHtml(id)}"></canvas></div>
<figcaption>${escapeHtml(label)} <code>${escapeHtml(name)}</code></figcaption>
</figure>`
}


function cell(s: FigureStats | undefined): string {
  if (s === undefined || s.n === 0) return '<td class="num">–</td>'
  return `<td class="num">${formatStat(s.mean)} <span class="band">[${formatStat(s.p5)}, ${formatStat(s.p95)}]</span> n=${s.n}</td>`
}

function pointsTable(a: SweepAggregate, labels: Record<string, string>): string {
  const head = ['<th>point</th>', ...a.params.map((p) => `<th>${escapeHtml(p.path)}</th>`), '<th>runs</th>', '<th>failed seeds</th>', ...a.figures.map((f) => `<th title="${escapeHtml(labels[f] ?? f)}">${escapeHtml(f)}</th>`)]
  const rows = a.points.map((pt) => {
    const bad = pt.failed.length + pt.missing.length > 0
    const failed = [...pt.failed.map(String), ...pt.missing.map((s) => `${s} (missing)`)].join(', ')
    const cells = [
      `<td>${escapeHtml(pt.id)}</td>`,
      ...pt.values.map((v) => `<td class="num">${escapeHtml(formatValue(v))}</td>`),
      `<td class="num">${pt.runs}</td>`,
      `<td>${escapeHtml(failed)}</td>`,
      ...a.figures.map((f) => cell(pt.figures[f])),
    ]
    return `<tr${bad ? ' class="alert"' : ''}>${cells.join('')}</tr>`
  })
  return `<div class="table-box"><table>
<thead><tr>${head.join('')}</tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table></div>`
}
