/**
 * One transaction, `#/tx/HASH`: what the configured RPC node's getTransaction says about it
 * (status, ledger, close time, fee charged, source, the contract call, the events it emitted).
 * Amounts read with their 7 decimals and units; each value's raw form is its title. The history
 * and the write status link here on networks without a public explorer (the sandbox).
 */
import { For, Match, Show, Switch, createResource } from 'solid-js'
import { readTransaction, type TxSummary, type TxValue } from '../clients/transaction.js'
import { useConfig } from '../stores/config.js'
import { settle } from '../stores/position.js'
import { formatAmount } from '../logic/amounts.js'
import { isTxHash } from '../logic/explorer.js'
import { formatLedgerDateTime } from '../logic/time.js'
import { TableRegion } from '../components/TableRegion.js'


export function TxView(props: { hash: string }) {
  const { reads } = useConfig()
  const [tx] = createResource(
    () => {
      const r = reads()
      return r === undefined || !isTxHash(props.hash) ? undefined : { reads: r, hash: props.hash.toLowerCase() }
    },
    ({ reads, hash }) => settle(readTransaction(reads.chain.server, reads.chain.networkPassphrase, hash, reads.contracts ?? {})),
  )
  const found = () => {
    const d = tx.latest?.data
    return d?.found === true ? (d as Extract<TxSummary, { found: true }>) : undefined
  }
  const missing = () => {
    const d = tx.latest?.data
    return d?.found === false ? d : undefined
  }

  return (
    <section aria-labelledby="tx-title">
      <h2 id="tx-title">Transaction</h2>
      <p class="tx-hash-full" data-testid="tx-hash">
        {props.hash}
      </p>
      <Switch fallback={<p class="note">Reading the transaction…</p>}>
        <Match when={!isTxHash(props.hash)}>
          <p role="alert" class="error">
            “{props.hash}” is not a transaction hash (64 hexadecimal digits).
          </p>
        </Match>
        <Match when={tx.latest?.error}>
          {(e) => (
            <p role="alert" class="error">
              Could not ask the node: {e()}
            </p>
          )}
        </Match>
        <Match when={missing()}>
          {(m) => (
            <p class="notice" data-testid="tx-not-found">
              Not found on this node: it keeps only recent transactions (ledgers {m().oldestLedger} to {m().latestLedger} now).
            </p>
          )}
        </Match>
        <Match when={found()}>
          {(t) => (
            <>
              <dl class="figures">
                <div>
                  <dt>Status</dt>
                  <dd data-testid="tx-status">{t().status === 'SUCCESS' ? 'Succeeded' : 'Failed'}</dd>
                </div>
                <div>
                  <dt>Ledger</dt>
                  <dd data-testid="tx-ledger">{t().ledger}</dd>
                </div>
                <div>
                  <dt>Closed</dt>
                  <dd data-testid="tx-closed">{formatLedgerDateTime(t().closeTime)}</dd>
                </div>
                <div>
                  <dt>Fee charged</dt>
                  <dd data-testid="tx-fee">{formatAmount(t().feeCharged)} XLM</dd>
                </div>
                <div>
                  <dt>Source account</dt>
                  <dd data-testid="tx-source">{t().source}</dd>
                </div>
              </dl>
              <h3>Operations</h3>
              <ol>
                <For each={t().operations}>
                  {(op) => (
                    <li data-testid="tx-operation">
                      <Show when={op.fn} fallback={op.type}>
                        {(fn) => (
                          <>
                            {fn()}(
                            <For each={op.args ?? []}>
                              {(a, i) => (
                                <>
                                  {i() > 0 ? ', ' : ''}
                                  <Value value={a} />
                                </>
                              )}
                            </For>
                            ) on contract <code>{op.contract}</code>
                          </>
                        )}
                      </Show>
                    </li>
                  )}
                </For>
              </ol>
              <h3>Contract events</h3>
              <Show when={t().events.length > 0} fallback={<p class="note">None.</p>}>
                <TableRegion label="Contract events">
                <table class="history">
                  <thead>
                    <tr>
                      <th scope="col">Contract</th>
                      <th scope="col">Topics</th>
                      <th scope="col">Data</th>
                    </tr>
                  </thead>
                  <tbody>
                    <For each={t().events}>
                      {(ev) => (
                        <tr data-testid="tx-event">
                          <td>
                            <code>{ev.contract}</code>
                          </td>
                          <td>{ev.topics.join(', ')}</td>
                          <td>
                            <code>
                              <Value value={ev.data} />
                            </code>
                          </td>
                        </tr>
                      )}
                    </For>
                  </tbody>
                </table>
                </TableRegion>
              </Show>
            </>
          )}
        </Match>
      </Switch>
    </section>
  )
}

/** A value for people, its raw form (base units) in its title when they differ. */
function Value(props: { value: TxValue }) {
  return (
    <span class="tx-value" data-raw={props.value.raw} title={props.value.raw === props.value.text ? undefined : `raw: ${props.value.raw}`}>
      {props.value.text}
    </span>
  )
}
