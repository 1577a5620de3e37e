/**
 * Where a sim run started when it is a found world's (report.json `source`): a snapshot file or a
 * fork of a live pool, the ledger, the pool, and the real pool's borrowers at that state — how
 * many there were, where the harness found them, and how many were liquidatable at the start.
 */
import type { ReportSource as Source } from '../../../sim/src/record/source.js'
import { formatCount } from '../../../sim/src/report/format.js'
import { borrowerSourcesText } from '../../../sim/src/report/sourceSection.js'
import { Address } from './Address.js'

/** `9 (snapshot 9)` or `10 (events 8, hints 2)`. */
export function borrowersText(source: Source): string {
  const n = formatCount(source.start.borrowers.length)
  return Object.keys(source.borrowerSources).length > 0 ? `${n} (${borrowerSourcesText(source.borrowerSources)})` : n
}

export function ReportSource(props: { source: Source }) {
  const s = () => props.source
  const fork = () => s().kind === 'fork'
  return (
    <section aria-labelledby="report-source" data-testid="report-source">
      <h3 id="report-source">Source</h3>
      <dl class="figures">
        <div>
          <dt>Started from</dt>
          <dd>{fork() ? 'Fork of a live pool' : 'Snapshot'}</dd>
        </div>
        <div>
          <dt>{fork() ? 'Upstream RPC' : 'Snapshot file'}</dt>
          <dd>
            <code>{(fork() ? s().url : s().file) ?? '—'}</code>
          </dd>
        </div>
        <div>
          <dt>Ledger</dt>
          <dd>{formatCount(s().ledger)}</dd>
        </div>
        <div>
          <dt>Pool</dt>
          <dd>
            <Address address={s().pool} label="Pool" />
          </dd>
        </div>
        <div>
          <dt>Borrowers</dt>
          <dd>{borrowersText(s())}</dd>
        </div>
        <div classList={{ error: s().start.liquidatable > 0 }}>
          <dt>Liquidatable at the start</dt>
          <dd>{formatCount(s().start.liquidatable)}</dd>
        </div>
      </dl>
    </section>
  )
}
