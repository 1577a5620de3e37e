/**
 * An opened sim run report: its headline figures, where it started when it started from a
 * snapshot or a fork (ReportSource), its auctions with every fill and what is left,
 * and its charts, drawn with the dashboard's Chart component.
 */
import { For, Show } from 'solid-js'
import type { OpenedReport } from '../logic/researchLoad.js'
import { Chart } from './Chart.js'
import { ReportAuctions } from './ReportAuctions.js'
import { ReportSource } from './ReportSource.js'

export function ReportPanel(props: { opened: OpenedReport }) {
  const o = () => props.opened
  return (
    <>
      <section aria-labelledby="report-title">
        <h2 id="report-title">
          {o().report.scenario.name} — seed {o().report.seed}
        </h2>
        <p>{o().report.scenario.description}</p>
        <p class="note">
          From {o().source}; ledgers {o().report.run.startLedger}–{o().report.run.endLedger} ({o().report.run.ledgers} simulated at {o().report.run.ledgerSeconds} s per
          ledger).
        </p>
        <h3>Headline figures</h3>
        <dl class="figures">
          <For each={o().figures}>
            {(f) => (
              <div classList={{ error: f.alert === true }}>
                <dt>{f.label}</dt>
                <dd>{f.value}</dd>
              </div>
            )}
          </For>
        </dl>
        <Show when={o().report.source}>{(source) => <ReportSource source={source()} />}</Show>
      </section>
      <section aria-labelledby="report-auctions">
        <h2 id="report-auctions">Auctions</h2>
        <ReportAuctions auctions={o().report.auctions} />
      </section>
      <section aria-labelledby="report-charts">
        <h2 id="report-charts">Charts</h2>
        <For each={o().charts}>
          {(c) => (
            <figure style={{ margin: '0 0 1.5rem' }}>
              <h3>{c.title}</h3>
              <Show when={'config' in c ? c.config : undefined} fallback={<p class="note">{'note' in c ? c.note : ''}</p>}>
                {(config) => <Chart config={config} label={`${c.title}: ${c.caption}`} testId="research-chart" height={280} />}
              </Show>
              <Show when={c.caption !== ''}>
                <figcaption class="note">{c.caption}</figcaption>
              </Show>
            </figure>
          )}
        </For>
      </section>
    </>
  )
}
