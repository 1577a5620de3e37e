/**
 * The sim runs and sweeps the dashboard server lists (`GET /api/runs`): kind, scenario, seed(s),
 * when, a few figures and an Open button per row, newest first. When there are none, how to make
 * one: the commands, never the server's folder (a path on another machine says nothing to a
 * reader, and is not theirs to see).
 */
import { For, Show } from 'solid-js'
import { TableRegion } from './TableRegion.js'
import type { RunEntry, RunsListing } from '../logic/runsApi.js'

/** The commands the empty state offers: a run, and a sweep. */
export const RUN_COMMAND = 'npm run sim -- run crash-30 --seed 7'
export const SWEEP_COMMAND = 'npm run sim -- sweep competition --set keepers.count=1,2,4 --seeds 5'

function NoRuns() {
  return (
    <div data-testid="research-runs" class="empty-state">
      <p>
        <strong>No sim runs or sweeps yet.</strong> Make one from the repository, then press “List again”:
      </p>
      <pre>
        <code data-testid="research-run-command">{RUN_COMMAND}</code>
      </pre>
      <p class="note">
        It writes <code>runs/crash-30-seed7/</code> (two simulated hours in about half a minute); a sweep over several settings and seeds:
      </p>
      <pre>
        <code>{SWEEP_COMMAND}</code>
      </pre>
      <p class="note">
        The list shows the runs folder the dashboard was started with (<code>npm run dashboard -- --runs runs</code>; <code>npm run demo</code> uses
        the repository's <code>runs/</code>). <code>npm run sim -- list</code> names every scenario.
      </p>
    </div>
  )
}

/** A run's seed, or a sweep's seeds as a range. */
export function seedsText(e: RunEntry): string {
  if (e.seed !== null) return String(e.seed)
  if (e.seeds === null) return '–'
  return e.seeds.count === 1 ? String(e.seeds.base) : `${e.seeds.base}–${e.seeds.base + e.seeds.count - 1}`
}

/** The moment in the reader's locale, to the minute. */
function whenText(iso: string): string {
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
}

export function RunsList(props: { listing: RunsListing; onOpen: (e: RunEntry) => void; busy: boolean }) {
  return (
    <Show when={props.listing.entries.length > 0} fallback={<NoRuns />}>
      <TableRegion label="Sim runs and sweeps">
      <table data-testid="research-runs">
        <caption class="note">Newest first</caption>
        <thead>
          <tr>
            <th scope="col">kind</th>
            <th scope="col">scenario</th>
            <th scope="col">seed(s)</th>
            <th scope="col">when</th>
            <th scope="col">figures</th>
            <th scope="col">open</th>
          </tr>
        </thead>
        <tbody>
          <For each={props.listing.entries}>
            {(e) => (
              <tr data-testid="research-run-row" data-kind={e.kind}>
                <td>{e.kind}</td>
                <td>
                  {e.name} <span class="note">{e.id}</span>
                </td>
                <td>{seedsText(e)}</td>
                <td>{whenText(e.when)}</td>
                <td>{e.figures}</td>
                <td>
                  <button type="button" data-testid="research-open" disabled={props.busy} onClick={() => props.onOpen(e)}>
                    Open {e.kind === 'run' ? 'report' : 'sweep'}
                  </button>
                </td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
      </TableRegion>
    </Show>
  )
}
