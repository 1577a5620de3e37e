/**
 * The connected account's deposits and withdrawals, newest first, each with its transaction. On a
 * phone each row stacks into a small card (`table.stack`), every cell under its label, so the
 * amount and the link are in sight without scrolling sideways.
 */
import { For, Show } from 'solid-js'
import { formatAmount } from '../logic/amounts.js'
import type { HistoryRow } from '../logic/accountHistory.js'
import { formatLedgerDateTime } from '../logic/time.js'
import { TableRegion } from './TableRegion.js'
import { TxHashCell } from './TxHashLink.js'

export function PositionHistory(props: { rows: readonly HistoryRow[]; networkPassphrase: string | undefined; error: string | undefined }) {
  return (
    <>
      <Show when={props.error}>
        {(e) => <p class="error">Could not read the vault’s events: {e()}</p>}
      </Show>
      <Show when={props.rows.length > 0} fallback={<p class="note" data-testid="history-empty">No deposits or withdrawals by this account in the history this node keeps.</p>}>
        <TableRegion label="My deposits and withdrawals">
        <table class="history stack">
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
                  <td class="wide" data-label="Ledger close time (UTC)">{formatLedgerDateTime(r.closeTime, r.ledger)}</td>
                  <td data-label="Kind">{r.kind === 'deposit' ? 'Deposit' : 'Withdrawal'}</td>
                  <td class="num" data-label={r.kind === 'deposit' ? 'USDC paid in' : 'USDC paid out'} data-testid="history-amount">
                    {formatAmount(r.amount)}
                  </td>
                  <td class="num" data-label={r.kind === 'deposit' ? 'Shares minted' : 'Shares burnt'}>
                    {formatAmount(r.shares)}
                  </td>
                  <TxHashCell hash={r.txHash} networkPassphrase={props.networkPassphrase} testId="history-hash" />
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
