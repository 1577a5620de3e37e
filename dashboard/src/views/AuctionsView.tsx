/**
 * Positions & auctions: borrowers by urgency and the open auctions, as the configured keepers see
 * them, then the liquidations the vault has already booked (its own events on the chain). Times
 * are on the ledger clock; addresses are short, with a copy button.
 */
import { For, Show, createMemo, createSignal } from 'solid-js'
import { Address } from '../components/Address.js'
import { BookedLiquidations } from '../components/BookedLiquidations.js'
import { Chart } from '../components/Chart.js'
import { KeeperTime } from '../components/KeeperTime.js'
import { TableRegion } from '../components/TableRegion.js'
import { isStellarAddress, shortAddress } from '../logic/address.js'
import { formatLedgerTime, ledgersAheadText } from '../logic/time.js'
import { createLedgerClock } from '../stores/ledgerClock.js'
import { auctionChartConfig } from '../logic/auctionCurve.js'
import { auctionChartFor, createAuctionsStore } from '../stores/auctions.js'
import { poolRows, severalPools } from '../stores/pools.js'
import { useConfig } from '../stores/config.js'
import { createVaultStore } from '../stores/vault.js'

export function AuctionsView() {
  const { config, reads } = useConfig()
  const store = createAuctionsStore(() => config()?.keeperApis ?? [], 3000, () => config()?.keeperToken)
  const ledger = createLedgerClock(reads)
  const vault = createVaultStore(reads)
  const [selected, setSelected] = createSignal<string | undefined>()
  const current = createMemo(() => {
    const rows = store.auctions()
    return rows.find((r) => r.key === selected()) ?? rows[0]
  })
  const chartData = createMemo(() => auctionChartFor(current()))
  const pools = createMemo(() => poolRows(store.results()))
  const poolColumn = createMemo(() => severalPools(store.borrowers()))

  return (
    <>
      <section aria-labelledby="auctions-view-title">
        <h2 id="auctions-view-title">Positions & auctions</h2>
        <p class="intro">
          The borrowers the keepers watch and the auctions they plan to fill, as each keeper reports them; below, the liquidations the vault
          has booked, from its own events on the chain.
        </p>
        <h3 id="keeper-sources">Keepers read</h3>
        <p class="note" data-testid="auctions-clock">
          Times are the network's ledger close times (UTC); now{' '}
          {ledger.latest === undefined ? '— (not read yet)' : formatLedgerTime(ledger.latest.closeTime, ledger.latest.sequence)}.
        </p>
        <Show when={(config()?.keeperApis.length ?? 0) > 0} fallback={<p>No keeper API is configured (Settings → keeper API URLs).</p>}>
          <ul>
            <For each={store.results()}>
              {(r) => (
                <li>
                  {r.state?.keeperName ?? r.url} ({r.url})
                  <Show when={r.state?.updatedAt}>
                    {(at) => (
                      <>
                        , updated <KeeperTime iso={at()} anchor={ledger.latest} />
                      </>
                    )}
                  </Show>
                  <Show when={r.error}>{(e) => <span class="error"> — {e()}</span>}</Show>
                  <Show when={r.state?.strategyDetails === false}>
                    <span class="note" data-testid="keeper-plans-hidden">
                      {' '}
                      — planned executions hidden: set the keeper API token in Settings
                    </span>
                  </Show>
                </li>
              )}
            </For>
          </ul>
        </Show>
      </section>

      <Show when={pools().length > 0}>
        <section aria-labelledby="pools-title">
          <h2 id="pools-title">Lending pools</h2>
          <p class="note">
            Each keeper's pools with its last scan's borrowers, and what that keeper filled there since it started, all from the one vault.
          </p>
          <TableRegion label="Lending pools table">
            <table>
              <thead>
                <tr>
                  <th scope="col">Pool</th>
                  <th scope="col">Keeper</th>
                  <th scope="col">Borrowers</th>
                  <th scope="col">Below HF 1</th>
                  <th scope="col">Lowest HF</th>
                  <th scope="col">Fills</th>
                  <th scope="col">Drawn (USDC)</th>
                  <th scope="col">Gross profit (USDC)</th>
                  <th scope="col">Planned or in flight</th>
                </tr>
              </thead>
              <tbody>
                <For each={pools()}>
                  {(p) => (
                    <tr data-testid={`pool-row-${p.pool}`}>
                      <td>
                        <Address address={p.pool} label="Pool" />
                      </td>
                      <td>{p.keeper}</td>
                      <td>{p.borrowers}</td>
                      <td>{p.liquidatable}</td>
                      <td>{p.lowestHealthFactor}</td>
                      <td>{p.fills}</td>
                      <td>{p.drew}</td>
                      <td>{p.profit}</td>
                      <td>{p.active ?? 'hidden (API token)'}</td>
                    </tr>
                  )}
                </For>
              </tbody>
            </table>
          </TableRegion>
        </section>
      </Show>

      <section aria-labelledby="borrowers-title">
        <h2 id="borrowers-title">Borrowers</h2>
        <Show when={store.borrowers().length > 0} fallback={<p>No borrower positions reported.</p>}>
          <TableRegion label="Borrowers table">
            <table>
              <thead>
                <tr>
                  <th scope="col">Borrower</th>
                  <Show when={poolColumn()}>
                    <th scope="col">Pool</th>
                  </Show>
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
                    <tr data-testid={b.pool === null || !poolColumn() ? `borrower-row-${b.address}` : `borrower-row-${b.pool}-${b.address}`}>
                      <td>
                        <AddressOrText text={b.address} label="Borrower" />
                      </td>
                      <Show when={poolColumn()}>
                        <td>{b.pool === null ? '—' : <Address address={b.pool} label="Pool" />}</td>
                      </Show>
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
          </TableRegion>
        </Show>
      </section>

      <section aria-labelledby="auctions-title">
        <h2 id="auctions-title">Open auctions</h2>
        <Show when={store.auctions().length > 0} fallback={<p>No open auction: no keeper has a planned or in-flight fill.</p>}>
          <TableRegion label="Open auctions table">
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
                        {a.adapter}: <AddressOrText text={a.label} label="Auction of" />
                      </td>
                      <td class="nowrap" title="Against the auction as the keeper first saw it: Blend keeps only what part fills leave">{a.left ?? '—'}</td>
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
          </TableRegion>
          <h3>Dutch curve of {labelText(current()?.label)}</h3>
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
                  Rebuilt from the keeper's capital and current lot/bid ratio on the core's curve
                  <Show when={current()?.latest?.progress}>{(p) => <> as of ledger {p().ledger}</>}</Show>; first profitable block{' '}
                  {data().firstProfitable ?? 'none within 400 blocks'}
                  <Show when={data().firstProfitable !== null && ledger.latest}>
                    {(l) => <> ({ledgersAheadText(data().firstProfitable!, blockNow(data().now, current()?.latest?.progress?.ledger, l().sequence), l().ledgerMs)})</>}
                  </Show>
                  . The axis counts blocks (ledgers) since the auction started.
                </p>
              </>
            )}
          </Show>
        </Show>
      </section>

      <BookedLiquidations load={vault.load()} networkPassphrase={config()?.network.networkPassphrase} />
    </>
  )
}

/** The auction's block now: the keeper's reported offset moved on by the ledgers closed since its report. */
function blockNow(offset: number | null, reportedAt: number | undefined, latest: number): number | null {
  if (offset === null) return null
  return reportedAt === undefined ? offset : offset + Math.max(0, latest - reportedAt)
}

/** An address as `Address` (short, copyable), any other label as code text. */
function AddressOrText(props: { text: string; label: string }) {
  return (
    <Show when={isStellarAddress(props.text)} fallback={<code>{props.text}</code>}>
      <Address address={props.text} label={props.label} />
    </Show>
  )
}

const labelText = (label: string | undefined): string => (label === undefined ? '' : isStellarAddress(label) ? shortAddress(label) : label)
