/**
 * An opened sweep: the risk heatmap over two swept parameters (the others fixed) and the table of
 * every grid point with each risk figure, its 95 % interval and n: the charts and table of the
 * sweep's aggregate.html, from the same aggregate.json and the same sim functions
 * (sim/src/sweep/riskCharts.ts for the chart, riskFormat.ts for the texts and rows). Loaded on
 * demand with chartjs-chart-matrix.
 */
import { Chart as ChartJs, type ChartConfiguration } from 'chart.js'
import { TableRegion } from './TableRegion.js'
import { MatrixController, MatrixElement } from 'chartjs-chart-matrix'
import { For, Index, Show, createMemo, createSignal } from 'solid-js'
import { formatValue } from '../../../sim/src/sweep/paramValue.js'
import { defaultChoice, heatmapChart } from '../../../sim/src/sweep/riskCharts.js'
import { riskHeadline, riskTableRows, riskText } from '../../../sim/src/sweep/riskFormat.js'
import type { OpenedSweep } from '../logic/researchLoad.js'
import { Chart } from './Chart.js'

ChartJs.register(MatrixController, MatrixElement)

export default function SweepPanel(props: { opened: OpenedSweep }) {
  const a = () => props.opened.aggregate
  const texts = createMemo(() => riskText(a()))
  const rows = createMemo(() => riskTableRows(a()))
  const start = defaultChoice(props.opened.aggregate)
  const [x, setX] = createSignal(start.x)
  const [y, setY] = createSignal(start.y)
  const [figure, setFigure] = createSignal(start.figure)
  const [fixed, setFixed] = createSignal<Record<number, string>>({})
  const fixedAt = (k: number) => fixed()[k] ?? start.fixed(k)
  const heat = createMemo(() => heatmapChart(a(), texts(), { x: x(), y: y(), figure: figure(), fixed: fixedAt }))
  const heatConfig = () => {
    const h = heat()
    return 'config' in h ? h : undefined
  }
  const heatNote = () => {
    const h = heat()
    return 'note' in h ? h.note : ''
  }
  const swept = () => (a().params.length === 0 ? 'nothing (seeds only)' : a().params.map((p) => `${p.path} ∈ {${p.values.map(formatValue).join(', ')}}`).join('; '))

  return (
    <>
      <section aria-labelledby="sweep-title">
        <h2 id="sweep-title">{a().scenario.name} — sweep</h2>
        <p class="note">
          From {props.opened.source}; swept {swept()}; seeds {a().seeds.base} to {a().seeds.base + a().seeds.count - 1} at each of {a().points.length} grid point
          {a().points.length === 1 ? '' : 's'}.
        </p>
        <p>
          <strong>{riskHeadline(a())}</strong>
        </p>
      </section>

      <section aria-labelledby="sweep-heat-title">
        <h2 id="sweep-heat-title">Heatmap over two parameters</h2>
        <Show when={a().params.length >= 2}>
          <p>
            <label>
              X{' '}
              <select value={x()} onChange={(e) => setX(Number(e.currentTarget.value))}>
                <For each={a().params}>{(p, i) => <option value={i()}>{p.path}</option>}</For>
              </select>
            </label>{' '}
            <label>
              Y{' '}
              <select value={y()} onChange={(e) => setY(Number(e.currentTarget.value))}>
                <For each={a().params}>{(p, i) => <option value={i()}>{p.path}</option>}</For>
              </select>
            </label>{' '}
            <label>
              figure{' '}
              <select value={figure()} onChange={(e) => setFigure(e.currentTarget.value)}>
                <For each={a().risk.figures}>{(f) => <option value={f.name}>{f.label}</option>}</For>
              </select>
            </label>
          </p>
          <Show when={a().params.length > 2}>
            <p>
              other parameters fixed at:{' '}
              <Index each={a().params}>
                {(p, k) => (
                  <Show when={k !== x() && k !== y()}>
                    <label>
                      {p().path}{' '}
                      <select value={fixedAt(k)} onChange={(e) => setFixed({ ...fixed(), [k]: e.currentTarget.value })}>
                        <For each={p().values.map(formatValue)}>{(v) => <option value={v}>{v}</option>}</For>
                      </select>
                    </label>{' '}
                  </Show>
                )}
              </Index>
            </p>
          </Show>
        </Show>
        <Show when={heatConfig()} fallback={<p class="note">{heatNote()}</p>}>
          {(h) => (
            <figure style={{ margin: '0 0 1.5rem' }}>
              <Chart
                config={() => h().config as unknown as ChartConfiguration}
                label={`Heatmap of ${figure()} over ${a().params[x()]?.path} and ${a().params[y()]?.path}`}
                testId="sweep-heatmap"
                height={h().height}
              />
              <figcaption class="note">
                Cell: the figure’s value, below it its 95 % interval; green is better for the pool, red worse (blue shades: neither), scaled over the cells shown.
              </figcaption>
            </figure>
          )}
        </Show>
      </section>

      <section aria-labelledby="sweep-table-title">
        <h2 id="sweep-table-title">Every grid point</h2>
        <p class="note">
          value, then its 95 % interval [lo, hi]; n is the number of seeds the interval rests on (runs that gave a value). Fractions are shown as percentages.
        </p>
        <div style={{ 'overflow-x': 'auto' }}>
          <TableRegion label="Every grid point">
          <table data-testid="sweep-ci-table">
            <thead>
              <tr>
                <th scope="col">point</th>
                <For each={a().params}>{(p) => <th scope="col">{p.path}</th>}</For>
                <th scope="col">runs</th>
                <For each={a().risk.figures}>
                  {(f) => (
                    <th scope="col" title={f.definition}>
                      {f.label}
                    </th>
                  )}
                </For>
              </tr>
            </thead>
            <tbody>
              <For each={rows()}>
                {(r) => (
                  <tr>
                    <td>{r.id}</td>
                    <For each={r.values}>{(v) => <td class="num">{v}</td>}</For>
                    <td class="num">{r.runs}</td>
                    <For each={r.cells}>
                      {(c) => <td class="num">{c.n === 0 ? '–' : `${c.value} ${c.interval} n=${c.n}`}</td>}
                    </For>
                  </tr>
                )}
              </For>
            </tbody>
          </table>
          </TableRegion>
        </div>
      </section>
    </>
  )
}
