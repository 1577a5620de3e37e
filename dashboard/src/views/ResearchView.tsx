/**
 * Research: open a sim run's report.json (a file, or a URL to fetch) and see its headline
 * figures, its auctions with every fill, and its charts, drawn with the dashboard's Chart
 * component. The report's schema, chart builders and headline figures load on first use (a
 * separate chunk).
 */
import { For, Show, createSignal } from 'solid-js'
import type { HeadlineFigure } from '../../../sim/src/report/headline.js'
import type { Report } from '../../../sim/src/report/types.js'
import { Chart } from '../components/Chart.js'
import { ReportAuctions } from '../components/ReportAuctions.js'
import type { ReportChart } from '../logic/reportCharts.js'

interface Opened {
  source: string
  report: Report
  figures: HeadlineFigure[]
  charts: ReportChart[]
}

/** Parses and derives everything the view shows; the modules are imported on first use. */
async function openReport(text: string, source: string): Promise<Opened | { problems: string[] }> {
  const [{ parseReportText }, { reportCharts }, { headlineFigures }] = await Promise.all([
    import('../logic/reportSchema.js'),
    import('../logic/reportCharts.js'),
    import('../../../sim/src/report/headline.js'),
  ])
  const parsed = parseReportText(text)
  if (!parsed.ok) return { problems: parsed.problems }
  return { source, report: parsed.report, figures: headlineFigures(parsed.report), charts: reportCharts(parsed.report) }
}

export function ResearchView() {
  const [opened, setOpened] = createSignal<Opened>()
  const [problems, setProblems] = createSignal<string[]>([])
  const [busy, setBusy] = createSignal(false)
  const [url, setUrl] = createSignal('')

  const show = async (load: () => Promise<{ text: string; source: string }>) => {
    setBusy(true)
    try {
      const { text, source } = await load()
      const result = await openReport(text, source)
      if ('problems' in result) {
        setProblems([`${source}:`, ...result.problems])
        setOpened(undefined)
      } else {
        setProblems([])
        setOpened(result)
      }
    } catch (err) {
      setProblems([err instanceof Error ? err.message : String(err)])
      setOpened(undefined)
    } finally {
      setBusy(false)
    }
  }

  const onFile = (e: Event & { currentTarget: HTMLInputElement }) => {
    const file = e.currentTarget.files?.[0]
    if (file !== undefined) void show(async () => ({ text: await file.text(), source: file.name }))
  }

  const onUrl = (e: SubmitEvent) => {
    e.preventDefault()
    const target = url().trim()
    if (target === '') {
      setProblems(['Enter the URL of a report.json.'])
      return
    }
    void show(async () => {
      let res: Response
      try {
        res = await fetch(target)
      } catch (err) {
        throw new Error(`Could not fetch ${target}: ${err instanceof Error ? err.message : String(err)}.`)
      }
      if (!res.ok) throw new Error(`Could not fetch ${target}: the server answered HTTP ${res.status}.`)
      return { text: await res.text(), source: target }
    })
  }

  return (
    <>
      <section aria-labelledby="research-title">
        <h2 id="research-title">Research: a sim run's report</h2>
        <label>
          Open a report.json file
          <input type="file" accept=".json,application/json" data-testid="research-file" onChange={onFile} disabled={busy()} />
        </label>
        <form onSubmit={onUrl} style={{ 'margin-top': '0.75rem' }}>
          <label>
            …or fetch one from a URL
            <input type="url" value={url()} onInput={(e) => setUrl(e.currentTarget.value)} placeholder="http://…/runs/crash-30/report.json" />
          </label>
          <button type="submit" disabled={busy()}>
            Fetch
          </button>
        </form>
        <Show when={busy()}>
          <p>Reading the report…</p>
        </Show>
        <Show when={problems().length > 0}>
          <div role="alert" class="error" data-testid="research-error">
            <For each={problems()}>{(p) => <p>{p}</p>}</For>
          </div>
        </Show>
      </section>

      <Show when={opened()}>
        {(o) => (
          <>
            <section aria-labelledby="report-title">
              <h2 id="report-title">
                {o().report.scenario.name} — seed {o().report.seed}
              </h2>
              <p>{o().report.scenario.description}</p>
              <p class="note">
                From {o().source}; ledgers {o().report.run.startLedger}–{o().report.run.endLedger} ({o().report.run.ledgers} simulated at{' '}
                {o().report.run.ledgerSeconds} s per ledger).
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
        )}
      </Show>
    </>
  )
}
