/**
 * Research: the sim runs and sweeps the dashboard server lists (`--runs DIR`, config.json's
 * `runsUrl`), or a report.json opened from a file or a URL. A run opens as its report (headline
 * figures, auctions with every fill, charts); a sweep as its risk heatmap and interval table (the
 * sweep panel and chartjs-chart-matrix load on first use). `#/research?run=<id>` and
 * `#/research?sweep=<id>` open one directly.
 */
import { For, Match, Show, Switch, createEffect, createResource, createSignal, lazy, useContext } from 'solid-js'
import { ReportPanel } from '../components/ReportPanel.js'
import { RunsList } from '../components/RunsList.js'
import { fetchText, openAggregate, openReport, type Opened } from '../logic/researchLoad.js'
import { entryFileUrl, researchHash, researchTarget, type RunEntry, type RunsListing } from '../logic/runsApi.js'
import { ConfigContext } from '../stores/config.js'

const SweepPanel = lazy(() => import('../components/SweepPanel.js'))

async function fetchListing(url: string): Promise<RunsListing> {
  return JSON.parse(await fetchText(url)) as RunsListing
}

export function ResearchView() {
  const store = useContext(ConfigContext)
  const runsUrl = () => store?.loaded()?.patch.runsUrl
  const [listing, { refetch }] = createResource(runsUrl, fetchListing)
  const [opened, setOpened] = createSignal<Opened>()
  const [problems, setProblems] = createSignal<string[]>([])
  const [busy, setBusy] = createSignal(false)
  const [url, setUrl] = createSignal('')
  const openedRun = () => {
    const o = opened()
    return o?.kind === 'run' ? o : undefined
  }
  const openedSweep = () => {
    const o = opened()
    return o?.kind === 'sweep' ? o : undefined
  }

  const show = async (kind: RunEntry['kind'], load: () => Promise<{ text: string; source: string }>) => {
    setBusy(true)
    try {
      const { text, source } = await load()
      const result = kind === 'run' ? await openReport(text, source) : await openAggregate(text, source)
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

  const openEntry = (kind: RunEntry['kind'], id: string) => {
    const base = runsUrl()
    if (base === undefined) return
    const target = entryFileUrl(base, kind, id)
    // replaceState: no hashchange, so the shell stays on this view while the link names the run.
    history.replaceState(null, '', researchHash({ kind, id }))
    void show(kind, async () => ({ text: await fetchText(target), source: id }))
  }

  // A deep link opens its run or sweep once the runs URL is known (config.json loads first).
  let pending = researchTarget(location.hash)
  createEffect(() => {
    const target = pending
    if (runsUrl() === undefined || target === undefined) return
    pending = undefined
    openEntry(target.kind, target.id)
  })

  const onFile = (e: Event & { currentTarget: HTMLInputElement }) => {
    const file = e.currentTarget.files?.[0]
    if (file !== undefined) void show('run', async () => ({ text: await file.text(), source: file.name }))
  }

  const onUrl = (e: SubmitEvent) => {
    e.preventDefault()
    const target = url().trim()
    if (target === '') {
      setProblems(['Enter the URL of a report.json.'])
      return
    }
    void show('run', async () => ({ text: await fetchText(target), source: target }))
  }

  return (
    <>
      <Show when={runsUrl()}>
        <section aria-labelledby="research-runs-title">
          <h2 id="research-runs-title">Research: sim runs and sweeps</h2>
          <Show when={listing.error}>
            <p role="alert" class="error">
              {listing.error instanceof Error ? listing.error.message : String(listing.error)}
            </p>
          </Show>
          <Show when={listing()} fallback={<Show when={!listing.error}><p>Listing the runs…</p></Show>}>
            {(l) => <RunsList listing={l()} busy={busy()} onOpen={(e) => openEntry(e.kind, e.id)} />}
          </Show>
          <button type="button" onClick={() => void refetch()} disabled={listing.loading}>
            List again
          </button>
        </section>
      </Show>

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
        <Show when={runsUrl() === undefined}>
          <p class="note">To list sim runs and sweeps here, start the dashboard with `npm run dashboard -- --runs runs`.</p>
        </Show>
        <Show when={busy()}>
          <p>Reading the report…</p>
        </Show>
        <Show when={problems().length > 0}>
          <div role="alert" class="error" data-testid="research-error">
            <For each={problems()}>{(p) => <p>{p}</p>}</For>
          </div>
        </Show>
      </section>

      <Switch>
        <Match when={openedRun()}>{(o) => <ReportPanel opened={o()} />}</Match>
        <Match when={openedSweep()}>{(o) => <SweepPanel opened={o()} />}</Match>
      </Switch>
    </>
  )
}
