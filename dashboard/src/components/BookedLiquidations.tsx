/**
 * The liquidations the vault has booked (logic/bookedLiquidations.ts), newest first: when, what
 * kind, which keeper, the capital, the profit booked for depositors, the keeper's fee and the
 * transaction. Read from the vault's events on the chain, so it lists every keeper's fills, not
 * only the configured keepers'. On a phone each row stacks into a labelled card.
 */
import { For, Show, createMemo } from 'solid-js'
import { Address } from './Address.js'
import { TableRegion } from './TableRegion.js'
import { TxHashCell } from './TxHashLink.js'
import { formatAmount } from '../logic/amounts.js'
import { bookedKindText, bookedLiquidations, bookedTotals } from '../logic/bookedLiquidations.js'
import { formatLedgerDateTime } from '../logic/time.js'
import type { VaultLoad } from '../stores/vault.js'

export function BookedLiquidations(props: { load: VaultLoad | undefined; networkPassphrase: string | undefined }) {
  const rows = createMemo(() => bookedLiquidations(props.load?.read?.events ?? []))
  const totals = createMemo(() => bookedTotals(rows()))
  const read = () => props.load?.read

  return (
    <section aria-labelledby="booked-title">
      <h2 id="booked-title">Liquidations booked</h2>
      <Show when={props.load?.error}>{(e) => <p class="error">Could not read the vault’s events: {e()}</p>}</Show>
      <Show when={read()} fallback={<Show when={props.load?.error === undefined}><p class="note">Reading the vault’s events…</p></Show>}>
        {(r) => (
          <>
            <p class="note" data-testid="booked-summary">
              {totals().fills} fill(s) booked: {formatAmount(totals().profit)} USDC of profit for depositors, {formatAmount(totals().fees)} USDC of
              keeper fees
              {r().complete ? ' since the vault was set up' : `, in the ledgers this node keeps (from ${r().fromLedger})`}.
            </p>
            <Show when={rows().length > 0} fallback={<p data-testid="booked-empty">No liquidation booked yet: a fill shows here once its transaction returns the capital with its profit.</p>}>
              <TableRegion label="Liquidations booked table">
                <table class="history stack">
                  <thead>
                    <tr>
                      <th scope="col">Ledger close time (UTC)</th>
                      <th scope="col">Kind</th>
                      <th scope="col">Keeper</th>
                      <th scope="col">Capital drawn / repaid (USDC)</th>
                      <th scope="col">Profit for depositors (USDC)</th>
                      <th scope="col">Keeper fee (USDC)</th>
                      <th scope="col">Transaction</th>
                    </tr>
                  </thead>
                  <tbody>
                    <For each={rows()}>
                      {(b) => (
                        <tr data-testid="booked-row" data-kind={b.kind}>
                          <td class="wide" data-label="Ledger close time (UTC)">{formatLedgerDateTime(b.closeTime, b.ledger)}</td>
                          <td class="wide" data-label="Kind">{bookedKindText(b.kind)}</td>
                          <td class="wide" data-label="Keeper">
                            <Address address={b.keeper} label="Keeper" />
                          </td>
                          <td class="num" data-label={b.kind === 'write_off' ? 'Written down (USDC)' : 'Capital (USDC)'}>
                            {formatAmount(b.capital)}
                            <Show when={b.kind === 'write_off'}>
                              <span class="unit">{formatAmount(b.recovered)} recovered from the slashed stake</span>
                            </Show>
                          </td>
                          <td class="num" data-label="Profit for depositors (USDC)" data-testid="booked-profit">
                            {formatAmount(b.profit)}
                          </td>
                          <td class="num" data-label="Keeper fee (USDC)">{formatAmount(b.fee)}</td>
                          <TxHashCell hash={b.txHash} networkPassphrase={props.networkPassphrase} testId="booked-hash" />
                        </tr>
                      )}
                    </For>
                  </tbody>
                </table>
              </TableRegion>
            </Show>
          </>
        )}
      </Show>
    </section>
  )
}
