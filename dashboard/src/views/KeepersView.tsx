/**
 * Keepers: the registry's keepers (operator and executor) with their counters and any outstanding
 * draw, slashing a keeper whose draw is older than the slash timeout (anyone may), and registering
 * or deregistering the connected wallet as a keeper.
 */
import { For, Show, createMemo, createSignal } from 'solid-js'
import { Address } from '../components/Address.js'
import { TableRegion } from '../components/TableRegion.js'
import { WriteAction } from '../components/WriteAction.js'
import { registryDeregister, registryRegister, registrySlash } from '../clients/writes.js'
import { useConfig } from '../stores/config.js'
import { createKeepersStore } from '../stores/keepers.js'
import { createLedgerClock } from '../stores/ledgerClock.js'
import { activeWrite, wallet } from '../stores/wallet.js'
import { formatAmount } from '../logic/amounts.js'
import { keeperRows, ownKeeper, type KeeperRow } from '../logic/keeperRows.js'
import type { KeeperInfo } from '../clients/chain.js'
import { keeperFeeText } from '../logic/profitLock.js'
import { formatDuration, formatLedgerTime } from '../logic/time.js'
import { returnedI128 } from '../logic/writeFlow.js'

export function KeepersView() {
  const { config, reads } = useConfig()
  const store = createKeepersStore(reads)
  const ledger = createLedgerClock(reads)
  const me = () => wallet()?.address
  const registryId = () => {
    const c = config()
    if (c === undefined) throw new Error('The dashboard is not configured.')
    return c.contracts.registry
  }
  const operator = () => {
    const a = me()
    if (a === undefined) throw new Error('Connect a wallet first.')
    return a
  }
  const rows = () => {
    const r = store.registry()
    if (r === undefined) return []
    return keeperRows(r.keepers, { slashTimeout: r.config.slashTimeout, closeTime: ledger.latest?.closeTime ?? 0, me: me(), owners: r.owners })
  }
  const own = () => ownKeeper(store.registry()?.keepers ?? [], me())
  // The deregister form outlives the record it removed while it is the active write, so its
  // outcome ("included in ledger N") stays on the page.
  const deregistering = createMemo<KeeperInfo | undefined>((prev) => own() ?? (activeWrite() === 'deregister' ? prev : undefined))
  const [keeperName, setKeeperName] = createSignal('')
  // Rows are keyed by the registered address, so a row (and a slash in progress in it) survives each refresh.
  const keys = () => rows().map((r) => r.registered)
  const rowOf = (key: string) => rows().find((r) => r.registered === key)
  const minStake = () => {
    const r = store.registry()
    return r === undefined ? '—' : formatAmount(r.config.minStake)
  }

  return (
    <>
      <section aria-labelledby="keepers-title">
        <h2 id="keepers-title">Keepers</h2>
        <Show when={store.error()}>
          {(e) => (
            <p role="alert" class="error">
              Could not read the registry: {e()}
            </p>
          )}
        </Show>
        <Show when={store.registry()}>
          {(r) => (
            <>
              <p>
                Stake to register: {formatAmount(r().config.minStake)} USDC. A keeper's bond (its stake) backs its two-step draws: it may
                hold at most its draw limit, the stake less the {r().config.slashRateBps / 100}% penalty. A draw held longer than{' '}
                {formatDuration(r().config.slashTimeout)} may be slashed by anyone: the penalty and the outstanding draw go from the bond to the
                vault. Flash draws, taken and repaid within one transaction by an executor the registry deployed, need no bond.
              </p>
              <p data-testid="keepers-fee">
                Keeper fee: {keeperFeeText(r().keeperFeeBps)} of each fill's gross profit goes to the keeper; the rest is booked for the
                depositors.
              </p>
            </>
          )}
        </Show>
        <p class="note" data-testid="keepers-clock">
          Ledger clock (UTC): {ledger.latest === undefined ? '—' : formatLedgerTime(ledger.latest.closeTime, ledger.latest.sequence)}. Draw ages count
          on it.
        </p>
        <TableRegion label="Keepers table">
          <table aria-describedby="keepers-columns">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Operator</th>
                <th scope="col">Executor</th>
                <th scope="col">
                  Bond (USDC) <span class="unit">stake</span>
                </th>
                <th scope="col">
                  Draw limit (USDC) <span class="unit">two-step draws</span>
                </th>
                <th scope="col">Executions</th>
                <th scope="col">Fills</th>
                <th scope="col">Win rate</th>
                <th scope="col">
                  Avg fill delay <span class="unit">after the planned ledger</span>
                </th>
                <th scope="col">Active draw (USDC)</th>
                <th scope="col">Draw age</th>
                <th scope="col">Slashed</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              <For each={keys()} fallback={<EmptyRow loaded={store.registry() !== undefined} />}>
                {(key) => <Show when={rowOf(key)}>{(row) => <KeeperTableRow row={row()} registry={registryId} />}</Show>}
              </For>
            </tbody>
          </table>
        </TableRegion>
        <ul class="note" id="keepers-columns" data-testid="keepers-columns">
          <li>
            Operator: the account that runs the keeper. Executor: the contract it registered through (a C… address); the registry
            records the executor, and its owner is the operator. “none”: the operator registered its own account.
          </li>
          <li>
            Bond: the keeper's stake in the registry. Draw limit: the most it may hold in a two-step draw, floor(stake × (100% − slash
            rate)), recomputed whenever the stake changes; what a slash can still take from the bond after the penalty, so a draw within
            it costs the depositors nothing if the keeper never returns it.
          </li>
          <li>
            Avg fill delay: the registry's running mean of the delay each keeper reports with its returns, the ledger close time of
            the fill's ledger minus that of the ledger it planned the fill for. “0 s (on time)”: every fill landed in its planned
            ledger; “—”: no execution yet.
          </li>
        </ul>
      </section>

      <section aria-labelledby="my-keeper-title">
        <h2 id="my-keeper-title">My keeper registration</h2>
        <Show when={me() !== undefined} fallback={<p class="notice">Connect a wallet to register it as a keeper.</p>}>
          {/* The register form stays until another write starts, so its outcome stays readable. */}
          <Show when={own() === undefined || activeWrite() === 'register'}>
            <WriteAction
              name="register"
              label="Register as a keeper"
              submitTestId="register-submit"
              disabled={own() !== undefined}
              build={() => registryRegister(registryId(), operator(), keeperName())}
              effect={() => `registers “${keeperName()}” and takes a stake of ${minStake()} USDC from your wallet`}
            >
              <RegisterFields minStake={minStake()} name={keeperName()} setName={setKeeperName} />
            </WriteAction>
          </Show>
          <Show when={deregistering()}>
            {(k) => (
              <WriteAction
                name="deregister"
                label="Deregister and take the stake back"
                submitTestId="deregister-submit"
                disabled={own() === undefined}
                build={() => registryDeregister(registryId(), operator())}
                effect={() => `removes “${k().name}” and refunds its stake of ${formatAmount(k().stake)} USDC`}
              >
                <p>
                  Registered as “{k().name}” with a stake of {formatAmount(k().stake)} USDC. Deregistering refunds the stake; it is refused
                  while the keeper holds a draw.
                </p>
              </WriteAction>
            )}
          </Show>
        </Show>
      </section>
    </>
  )
}

function RegisterFields(props: { minStake: string; name: string; setName: (name: string) => void }) {
  return (
    <>
      <label>
        Keeper name
        <input
          data-testid="register-name"
          autocomplete="off"
          maxLength={64}
          value={props.name}
          onInput={(e) => props.setName(e.currentTarget.value)}
          aria-describedby="register-help"
        />
      </label>
      <p id="register-help">
        Registering takes the registry’s minimum stake, {props.minStake} USDC, from this wallet. You get it back when you deregister,
        unless the keeper is slashed first.
      </p>
    </>
  )
}

function EmptyRow(props: { loaded: boolean }) {
  return (
    <tr>
      <td colSpan={13}>{props.loaded ? 'No keeper is registered.' : 'Reading the registry…'}</td>
    </tr>
  )
}

function KeeperTableRow(props: { row: KeeperRow; registry: () => string }) {
  const row = () => props.row
  return (
    <tr data-testid={`keeper-row-${row().registered}`} classList={{ mine: row().mine }}>
      <td>{row().name}</td>
      <td>
        <Show when={row().operator} fallback={<span title="The executor's owner() did not answer">not read</span>}>
          {(op) => <Address address={op()} label="Operator" />}
        </Show>
      </td>
      <td>
        <Show when={row().executor} fallback={'none'}>
          {(ex) => <Address address={ex()} label="Executor" />}
        </Show>
      </td>
      <td>{formatAmount(row().stake)}</td>
      <td>{formatAmount(row().drawLimit)}</td>
      <td>{row().executions}</td>
      <td>{row().fills}</td>
      <td>{row().winRate}</td>
      <td>{row().avgDelay}</td>
      <td>{row().draw === undefined ? '—' : formatAmount(row().draw!)}</td>
      <td>
        <Show when={row().drawSince} fallback={row().drawAge}>
          {(since) => (row().drawAgeSeconds === undefined ? `since ${since()}` : `${row().drawAge} (since ${since()})`)}
        </Show>
      </td>
      <td>{row().slashed ? 'yes' : 'no'}</td>
      <td>
        <Show when={row().slashable || activeWrite() === `slash-${row().registered}`}>
          <WriteAction
            name={`slash-${row().registered}`}
            label="Slash"
            disabled={!row().slashable}
            submitTestId={`slash-${row().registered}`}
            build={() => registrySlash(props.registry(), row().registered)}
            effect={(ret) => `sends ${formatAmount(returnedI128(ret))} USDC of ${row().name}’s bond to the vault (its draw and the penalty)`}
          />
        </Show>
      </td>
    </tr>
  )
}
