/**
 * The risk sections of aggregate.html, drawn from the aggregate alone: the headline (how many
 * seeds the intervals rest on), the heatmap and line-chart controls and canvases (drawn by
 * riskScript.ts), and a static table of every grid point with every risk figure, its 95 %
 * interval and n (the value and interval texts come from riskFormat.ts, so the charts and the
 * table print the same digits).
 *
 * With two or more swept parameters the page has the heatmap and the line chart; with one,
 * only the line chart (a note says why there is no heatmap); with none, only the table.
 */
import { escapeHtml } from '../report/htmlTables.js'
import type { SweepAggregate } from './aggregate.js'
import { formatValue } from './grid.js'
import { formatInterval, formatRisk, formatStat, riskHeadline, riskTableRows, riskText, type RiskTableCell } from './riskFormat.js'
import { RISK_HEATMAP_ID, RISK_LINE_ID } from './riskScript.js'

export { formatInterval, formatRisk, formatStat, riskHeadline, riskText }

function options(items: readonly { value: string; text: string }[], selected: string): string {
  return items.map((o) => `<option value="${escapeHtml(o.value)}"${o.value === selected ? ' selected' : ''}>${escapeHtml(o.text)}</option>`).join('')
}

function paramSelect(a: SweepAggregate, id: string, selected: number): string {
  return `<select id="${id}">${options(
    a.params.map((p, i) => ({ value: String(i), text: p.path })),
    String(selected),
  )}</select>`
}

function figureSelect(a: SweepAggregate, id: string): string {
  return `<select id="${id}">${options(
    a.risk.figures.map((f) => ({ value: f.name, text: f.label })),
    a.risk.figures[0]?.name ?? '',
  )}</select>`
}

/** A select per parameter fixing its value; the script disables those on the chart's axes. */
function fixSelects(a: SweepAggregate, prefix: string): string {
  return a.params
    .map((p, i) => {
      const values = p.values.map(formatValue)
      return `<label>${escapeHtml(p.path)} <select id="${prefix}${i}">${options(
        values.map((v) => ({ value: v, text: v })),
        values[0]!,
      )}</select></label>`
    })
    .join('\n')
}

function heatmapSection(a: SweepAggregate): string {
  if (a.params.length < 2) {
    const why = a.params.length === 1 ? 'One parameter is swept, so there is no heatmap (it needs two); the line chart below shows the figures over it.' : 'Nothing is swept (seeds only): no heatmap or line chart, only the table.'
    return `<p class="note" id="heat-note">${escapeHtml(why)}</p>`
  }
  return `<h3>Heatmap over two parameters</h3>
<p class="controls"><label>X ${paramSelect(a, 'heat-x', 0)}</label>
<label>Y ${paramSelect(a, 'heat-y', 1)}</label>
<label>figure ${figureSelect(a, 'heat-figure')}</label></p>
${a.params.length > 2 ? `<p class="controls">other parameters fixed at: ${fixSelects(a, 'heat-fix-')}</p>` : ''}
<p class="note" id="heat-note"></p>
<figure>
<div class="canvas-box heat-box"><canvas id="${RISK_HEATMAP_ID}"></canvas></div>
<figcaption>Cell: the figure’s value, below it its 95 % interval; green is better for the pool, red worse (blue shades: neither), scaled over the cells shown.</figcaption>
</figure>`
}

function lineSection(a: SweepAggregate): string {
  if (a.params.length < 1) return ''
  return `<h3>One parameter at a time</h3>
<p class="controls"><label>X ${paramSelect(a, 'line-x', 0)}</label>
<label>figure ${figureSelect(a, 'line-figure')}</label></p>
${a.params.length > 1 ? `<p class="controls">other parameters fixed at: ${fixSelects(a, 'line-fix-')}</p>` : ''}
<p class="note" id="line-note"></p>
<figure>
<div class="canvas-box"><canvas id="${RISK_LINE_ID}"></canvas></div>
<figcaption>The line is the figure’s value, the band its 95 % bootstrap interval.</figcaption>
</figure>`
}

function riskCell(c: RiskTableCell): string {
  if (c.n === 0) return '<td class="num">–</td>'
  return `<td class="num">${escapeHtml(c.value)} <span class="band">${escapeHtml(c.interval)}</span> n=${c.n}</td>`
}

function riskTable(a: SweepAggregate): string {
  const head = [
    '<th>point</th>',
    ...a.params.map((p) => `<th>${escapeHtml(p.path)}</th>`),
    '<th>runs</th>',
    ...a.risk.figures.map((f) => `<th title="${escapeHtml(f.definition)}">${escapeHtml(f.label)}</th>`),
  ]
  const rows = riskTableRows(a).map((row) => {
    const cells = [`<td>${escapeHtml(row.id)}</td>`, ...row.values.map((v) => `<td class="num">${escapeHtml(v)}</td>`), `<td class="num">${row.runs}</td>`, ...row.cells.map(riskCell)]
    return `<tr>${cells.join('')}</tr>`
  })
  return `<div class="table-box"><table id="risk-table">
<thead><tr>${head.join('')}</tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table></div>`
}

/** The definitions list under the table: each figure's formula. */
function definitions(a: SweepAggregate): string {
  const fixed = a.risk.figures.filter((f) => !f.name.startsWith('keeper.') || f.name.startsWith('keeper.0.'))
  return `<details><summary>How each figure is computed</summary>
<dl class="meta">
${fixed.map((f) => `<dt>${escapeHtml(f.name.replace(/^keeper\.0\./, 'keeper.<i>.'))}</dt><dd>${escapeHtml(f.definition.replace(/index = 0/, 'index = i'))}</dd>`).join('\n')}
<dt>interval</dt><dd>${escapeHtml(a.risk.bootstrap.method)}; B = ${a.risk.bootstrap.resamples}; stream ${escapeHtml(a.risk.bootstrap.stream)}</dd>
<dt>percentiles</dt><dd>${escapeHtml(a.percentiles)}</dd>
</dl>
</details>`
}

/** The risk section of the page. */
export function riskSection(a: SweepAggregate): string {
  return `<section id="risk">
<h2>Risk figures</h2>
<p class="headline" id="risk-headline">${escapeHtml(riskHeadline(a))}</p>
${heatmapSection(a)}
${lineSection(a)}
<h3>Every grid point</h3>
<p class="note">value, then its 95 % interval [lo, hi]; n is the number of seeds the interval rests on (runs that gave a value). Fractions are shown as percentages.</p>
${riskTable(a)}
${definitions(a)}
</section>`
}
