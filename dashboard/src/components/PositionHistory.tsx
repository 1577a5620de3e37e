/** The connected account's deposits and withdrawals, newest first, each with its transaction. */
import { For, Show } from 'solid-js'
import { formatAmount } from '../logic/amounts.js'
import type { HistoryRow } from '../logic/accountHistory.js'
import { formatLedgerDateTime } from '../logic/time.js'
import { TableRegion } from './TableRegion.js'
import { TxHashLink } from './TxHashLink.js'

export function PositionHistory(props: { rows: readonly HistoryRow[]; networkPassphrase: string | undefined; error: string | undefined }) {
  return (
    <>
      <Show when={props.error}>
        {(e) => <p class="error">Could not read the vault’s events: {e()}</p>}
      </Show>
      <Show when={props.rows.length > 0} fallback={<p class="note" data-testid="history-empty">No deposits or withdrawals by this account in the history this node keeps.</p>}>
        <TableRegion label="My deposits and withdrawals">
        <table class="history">
          <thead>
            <tr>
              <th scope="col">Ledger close time (UTC)</th>
              <th scope="col">Kind</th>
              <th scope="col">USDC (paid in / out)</th>
              <th scope="col">Shares (minted / burnt)</th>
              <th scope="col">Transaction</th>
            </tr>
          </thead>
          <tbody>
            <For each={props.rows}>
              {(r) => (
                <tr data-testid="history-row" data-kind={r.kind}>
                  <td>{formatLedgerDateTime(r.closeTime, r.ledger)}</td>
                  <td>{r.kind === 'deposit' ? 'Deposit' : 'Withdrawal'}</td>
                  <td class="num">{formatAmount(r.amount)}</td>
                  <td class="num">{formatAmount(r.shares)}</td>
                  <td>
                    <Show when={r.txHash !== ''} fallback="—">
                      <TxHashLink hash={r.txHash} networkPassphrase={props.networkPassphrase} testId="history-hash" />
                    </Show>
                  </td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
        </TableRegion>
      </Show>
    </>
  )
}
