/**
 * A sim report's auctions, one row each: when it was created and first filled, every fill (the
 * percent of what was left that it took, its ledger, filler and profit to the vault), what no
 * fill took, and the outcome. Expired auctions are flagged.
 */
import { For, Show } from 'solid-js'
import { TableRegion } from './TableRegion.js'
import { formatAmount, formatLedger, shortAddress } from '../../../sim/src/report/format.js'
import type { AuctionFillResult, AuctionResult } from '../../../sim/src/report/types.js'

/** `19 % @1204 alpha (+12.50 USDC)`: one fill as the table lists it. */
export function fillText(f: AuctionFillResult): string {
  const who = f.filledBy.length > 20 ? shortAddress(f.filledBy) : f.filledBy
  return `${f.percent} % @${formatLedger(f.ledger)} ${who} (+${formatAmount(f.profit)} USDC)`
}

export function ReportAuctions(props: { auctions: readonly AuctionResult[] }) {
  return (
    <Show when={props.auctions.length > 0} fallback={<p class="note">No auctions were created.</p>}>
      <TableRegion label="The run’s auctions">
      <table data-testid="report-auctions">
        <thead>
          <tr>
            <th scope="col">Auction</th>
            <th scope="col">Kind</th>
            <th scope="col">Created</th>
            <th scope="col">Fills (percent of what was left, ledger, filler, profit)</th>
            <th scope="col">Left</th>
            <th scope="col">Outcome</th>
          </tr>
        </thead>
        <tbody>
          <For each={props.auctions}>
            {(a) => (
              <tr classList={{ error: a.outcome === 'expired' }} data-testid={`report-auction-${a.id}`}>
                <td>
                  <code>{shortAddress(a.user)}</code>
                </td>
                <td>{a.kind}</td>
                <td>{formatLedger(a.createdLedger)}</td>
                <td>
                  <Show when={a.fills.length > 0} fallback="—">
                    <ol class="fills">
                      <For each={a.fills}>{(f) => <li>{fillText(f)}</li>}</For>
                    </ol>
                  </Show>
                </td>
                <td>{a.remainingPercent} %</td>
                <td>{a.outcome}</td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
      </TableRegion>
    </Show>
  )
}
