/** Borrowers by urgency and the open auctions, as the configured keepers see them. */
import { For, Show, createMemo, createSignal } from 'solid-js'
import { Chart } from '../components/Chart.js'
import { auctionChartConfig } from '../logic/auctionCurve.js'
import { auctionChartFor, createAuctionsStore } from '../stores/auctions.js'
import { useConfig } from '../stores/config.js'

export function AuctionsView() {
  const { config } = useConfig()
  const store = createAuctionsStore(() => config()?.keeperApis ?? [])
  const [selected, setSelected] = createSignal<string | undefined>()
  const current = createMemo(() => {
    const rows = store.auctions()
    return rows.find((r) => r.key === selected()) ?? rows[0]
  })
  const chartData = createMemo(() => auctionChartFor(current()))

  return (
    <>
      <section aria-labelledby="keeper-sources">
        <h2 id="keeper-sources">Keepers read</h2>
        <Show when={(config()?.keeperApis.length ?? 0) > 0} fallback={<p>No keeper API is configured (Settings → keeper API URLs).</p>}>
          <ul>
            <For each={store.results()}>
              {(r) => (
                <li>
                  {r.state?.keeperName ?? r.url} ({r.url}){r.state?.updatedAt ? `, updated ${r.state.updatedAt}` : ''}
                  <Show when={r.error}>{(e) => <span class="error"> — {e()}</span>}</Show>
                </li>
              )}
            </For>
          </ul>
        </Show>
      </section>

      <section aria-labelledby="borrowers-title">
        <h2 id="borrowers-title">Borrowers</h2>
        <Show when={store.borrowers().length > 0} fallback={<p>No borrower positions reported.</p>}>
          <table>
            <thead>
              <tr>
                <th scope="col">Borrower</th>
                <th scope="col">Protocol</th>
                <th scope="col">Health factor</th>
                <th scope="col">Priority</th>
                <th scope="col">Collateral (base)</th>
                <th scope="col">Liabilities (base)</th>
                <th scope="col">Seen by</th>
              </tr>
            </thead>
            <tbody>
              <For each={store.borrowers()}>
                {(b) => (
                  <tr data-testid={`borrower-row-${b.address}`}>
                    <td><code>{b.address}</code></td>
                    <td>{b.protocol}</td>
                    <td>{b.healthFactorText}</td>
                    <td>{b.priority}</td>
                    <td>{b.collateral}</td>
                    <td>{b.liabilities}</td>
                    <td>{b.seenBy.join(', ')}</td>
                  </tr>
                )}
              </For>
            </tbody>
          </table>
        </Show>
      </section>

      <section aria-labelledby="auctions-title">
        <h2 id="auctions-title">Open auctions</h2>
        <Show when={store.auctions().length > 0} fallback={<p>No open auction: no keeper has a planned or in-flight fill.</p>}>
          <table>
            <thead>
              <tr>
                <th scope="col">Auction</th>
                <th scope="col">Left</th>
                <th scope="col">Keeper executions (stage, target ledger, capital USDC, progress)</th>
                <th scope="col">Chart</th>
              </tr>
            </thead>
            <tbody>
              <For each={store.auctions()}>
                {(a) => (
                  <tr data-testid={`auction-row-${a.key}`} aria-selected={current()?.key === a.key}>
                    <td>
                      {a.adapter}: <code>{a.label}</code>
                    </td>
                    <td title="Against the auction as the keeper first saw it: Blend keeps only what part fills leave">{a.left ?? '—'}</td>
                    <td>
                      <ul>
                        <For each={a.executions}>
                          {(e) => (
                            <li>
                              {e.keeper}: {e.stage} ({e.path}), ledger {e.targetLedger}, {e.capital}
                              <Show when={e.progress}>{(p) => <>; {p()}</>}</Show>
                            </li>
                          )}
                        </For>
                      </ul>
                    </td>
                    <td>
                      <button type="button" onClick={() => setSelected(a.key)} aria-pressed={current()?.key === a.key}>
                        Show curve
                      </button>
                    </td>
                  </tr>
                )}
              </For>
            </tbody>
          </table>
          <h3>Dutch curve of {current()?.label}</h3>
          <Show
            when={chartData()}
            fallback={<p>The keepers' figures for this auction do not determine its curve yet (no progress reported, or past block 400).</p>}
          >
            {(data) => (
              <>
                <Chart
                  config={() => auctionChartConfig(data())}
                  label="Lot value and bid cost of a full fill over blocks 0 to 400, with the first profitable block marked"
                  testId="auction-chart"
                  height={300}
                />
                <p class="note">
                  Rebuilt from the keeper's capital and current lot/bid ratio on the core's curve; first profitable block{' '}
                  {data().firstProfitable ?? 'none within 400 blocks'}.
                </p>
              </>
            )}
          </Show>
        </Show>
      </section>
    </>
  )
}
