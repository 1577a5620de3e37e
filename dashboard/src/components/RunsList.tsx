/**
 * The sim runs and sweeps the dashboard server lists (`GET /api/runs`): kind, scenario, seed(s),
 * when, a few figures and an Open button per row, newest first; in words when there are none.
 */
import { For, Show } from 'solid-js'
import { TableRegion } from './TableRegion.js'
import type { RunEntry, RunsListing } from '../logic/runsApi.js'

/** "No runs found under <dir>: …" (the folder may not exist yet). */
export function noRunsText(listing: RunsListing): string {
  const missing = listing.exists ? '' : ' (the folder does not exist yet)'
  return `No runs found under ${listing.dir}${missing}: run \`npm run sim -- run <scenario>\`.`
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
    <Show when={props.listing.entries.length > 0} fallback={<p data-testid="research-runs">{noRunsText(props.listing)}</p>}>
      <TableRegion label="Sim runs and sweeps">
      <table data-testid="research-runs">
        <caption class="note">Under {props.listing.dir}, newest first</caption>
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
