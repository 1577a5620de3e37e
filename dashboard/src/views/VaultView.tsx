/** The vault: its books, share price and APY, and the share-price history from its events. */
import { Show } from 'solid-js'
import { Chart } from '../components/Chart.js'
import { useConfig } from '../stores/config.js'
import { createVaultStore, type VaultFigures } from '../stores/vault.js'

/** The figures block; its own component so a test can render it from plain figures. */
export function VaultFiguresList(props: { figures: VaultFigures }) {
  return (
    <dl class="figures">
      <div>
        <dt>TVL (total USDC)</dt>
        <dd data-testid="vault-tvl">{props.figures.tvl}</dd>
      </div>
      <div>
        <dt>Idle (in the vault)</dt>
        <dd data-testid="vault-idle">{props.figures.idle}</dd>
      </div>
      <div>
        <dt>Deployed (drawn by keepers)</dt>
        <dd data-testid="vault-deployed">{props.figures.deployed}</dd>
      </div>
      <div>
        <dt>Total profit</dt>
        <dd data-testid="vault-profit">{props.figures.profit}</dd>
      </div>
      <div>
        <dt>Share price (USDC per share)</dt>
        <dd data-testid="vault-share-price" title="on free assets: total USDC less the profit still locked">
          {props.figures.sharePrice}
        </dd>
      </div>
      <div>
        <dt>Locked profit</dt>
        <dd>
          <span data-testid="vault-locked-profit">{props.figures.lockedProfit}</span>
          <span class="unit" data-testid="vault-locked-until">
            {props.figures.lockedUntil}
          </span>
        </dd>
      </div>
      <div>
        <dt>Keeper fee (of each fill's gross profit)</dt>
        <dd data-testid="vault-keeper-fee">{props.figures.keeperFee}</dd>
      </div>
      <div>
        <dt>Withdrawals requested</dt>
        <dd data-testid="vault-pending-shares">{props.figures.pendingShares}</dd>
      </div>
      <div>
        <dt>{props.figures.apy.kind === 'annualized' ? 'APY' : 'Return'}</dt>
        <dd data-testid="vault-apy" title={apyNote(props.figures)}>
          {props.figures.apy.text}
        </dd>
      </div>
    </dl>
  )
}

function apyNote(f: VaultFigures): string {
  if (f.apy.kind === 'annualized') return 'annualized over the share-price history (7 days or more)'
  if (f.apy.kind === 'cumulative') return 'cumulative: the history spans less than 7 days, too short to annualize'
  return 'no share-price history yet'
}

export function VaultView() {
  const { reads } = useConfig()
  const vault = createVaultStore(reads)
  const read = () => vault.load()?.read

  return (
    <section aria-labelledby="vault-title">
      <h2 id="vault-title">Vault</h2>
      <p class="intro">
        Depositors put USDC into the vault and receive shares. Registered keepers draw idle USDC to fill liquidation auctions on the lending
        pool and return it with the profit; the keeper keeps its fee and the rest is booked for the depositors, locked at first and
        unlocking into the share price over the vault's unlock period, so a deposit made just before a fill does not share in it. There are
        no reward tokens. The share price is the free assets (total USDC less the profit still locked) per share. The figures below are read
        from the vault contract and refresh every few seconds.
      </p>
      <Show when={vault.load()?.error}>
        {(error) => (
          <p role="alert" class="error">
            Could not read the vault: {error()}
          </p>
        )}
      </Show>
      <VaultFiguresList figures={vault.figures()} />
      <h3>Share price history</h3>
      <Chart config={vault.chart} label="The vault's share price over time on free assets, one point per deposit, withdrawal, return, flash draw or write-off and where booked profit finished unlocking" testId="share-price-chart" ready={() => vault.history().length > 0} />
      <Show when={read()}>
        {(r) => (
          <p class="note">
            <Show when={vault.history().length === 0}>No deposit, withdrawal, return or write-off yet. </Show>
            {r().events.length} vault event(s) read from ledger {r().fromLedger} through {r().ledger}
            {r().complete
              ? ', the whole history.'
              : ': the node keeps no older events; the totals before them come from replaying the events backward from the current books, and the events before the last profit booking it keeps give no point (the profit lock they ran under is older than that).'}
          </p>
        )}
      </Show>
    </section>
  )
}
