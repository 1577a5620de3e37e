/**
 * My position: the connected account's earnings and return first, then its shares, their USDC
 * value, cost basis and wallet USDC; deposit and withdraw through the one write flow, with
 * previews from the core's share math that refuse what the wallet, the deposit cap or the shares
 * held cannot cover, and the withdraw cooldown on the ledger clock; the account's own history of
 * deposits and withdrawals with their transactions.
 */
import { Show, createSignal } from 'solid-js'
import { WriteAction } from '../components/WriteAction.js'
import { PositionEarnings } from '../components/PositionEarnings.js'
import { PositionHistory } from '../components/PositionHistory.js'
import { TestUsdc } from '../components/TestUsdc.js'
import { createAccountFigures } from '../stores/accountFigures.js'
import { vaultDeposit, vaultWithdraw } from '../clients/writes.js'
import { useConfig } from '../stores/config.js'
import { createLedgerClock } from '../stores/ledgerClock.js'
import { createPositionStore } from '../stores/position.js'
import { wallet } from '../stores/wallet.js'
import { AMOUNT_HINT, formatAmount, parseAmountOrThrow } from '../logic/amounts.js'
import { cooldownRemaining, cooldownText, depositCapLeft, depositPreview, withdrawPreview, withdrawRequestText } from '../logic/positionFigures.js'
import { returnedI128 } from '../logic/writeFlow.js'

const MISSING = '—'

export function PositionView() {
  const { config, reads } = useConfig()
  const account = () => wallet()?.address
  const position = createPositionStore(reads, account)
  const ledger = createLedgerClock(reads)
  const vault = position.vault
  const mine = () => (account() === undefined ? undefined : position.mine())
  const figures = createAccountFigures(reads, account, position)

  const [depositText, setDepositText] = createSignal('')
  const [withdrawText, setWithdrawText] = createSignal('')
  const depositQuote = () => {
    const v = vault()
    return depositPreview(depositText(), v, {
      walletUsdc: mine()?.walletUsdc,
      capLeft: v === undefined ? undefined : depositCapLeft(v.config, v.state),
    })
  }
  const refused = (q: ReturnType<typeof depositQuote>) => !q.ok && q.refused === true
  const withdrawQuote = () => withdrawPreview(withdrawText(), vault(), mine()?.depositor.shares)
  const request = () => {
    const m = mine()
    return m === undefined ? undefined : withdrawRequestText(m.depositor.withdrawRequest, vault())
  }

  const amount = (v: bigint | undefined) => (v === undefined ? MISSING : formatAmount(v))
  const capLeft = () => {
    const v = vault()
    return v === undefined ? MISSING : formatAmount(depositCapLeft(v.config, v.state))
  }
  const cooldown = () => {
    const m = mine()
    const v = vault()
    const l = ledger.latest
    if (m === undefined || v === undefined || l === undefined) return MISSING
    return cooldownText(cooldownRemaining(m.depositor.lastDepositTime, v.config.withdrawCooldown, l.closeTime))
  }
  const contracts = () => {
    const c = config()
    if (c === undefined) throw new Error('The dashboard is not configured.')
    return c.contracts
  }
  const me = () => {
    const a = account()
    if (a === undefined) throw new Error('Connect a wallet first.')
    return a
  }

  return (
    <>
      <section aria-labelledby="position-title">
        <h2 id="position-title">My position</h2>
        <Show when={account() === undefined}>
          <p class="notice">Connect a wallet to see your position and to deposit or withdraw.</p>
        </Show>
        <PositionEarnings earnings={figures.earnings()} ret={figures.ret()} connected={account() !== undefined} />
        <Show when={position.error()}>
          {(e) => (
            <p role="alert" class="error">
              Could not read the vault: {e()}
            </p>
          )}
        </Show>
        <dl class="figures">
          <div>
            <dt>Shares</dt>
            <dd>
              <span data-testid="position-shares">{amount(mine()?.depositor.shares)}</span>
            </dd>
          </div>
          <div>
            <dt>Value (USDC)</dt>
            <dd>
              <span data-testid="position-value">{amount(mine()?.value)}</span>
            </dd>
          </div>
          <div>
            <dt>Cost basis (USDC)</dt>
            <dd>
              <span data-testid="position-cost-basis">{amount(mine()?.depositor.costBasis)}</span>
            </dd>
          </div>
          <div>
            <dt>Wallet USDC</dt>
            <dd>
              <span data-testid="position-wallet-usdc">{amount(mine()?.walletUsdc)}</span>
            </dd>
          </div>
          <div>
            <dt>Withdraw cooldown</dt>
            <dd>
              <span data-testid="cooldown">{cooldown()}</span>
            </dd>
          </div>
          <div>
            <dt>Deposit cap left (USDC)</dt>
            <dd>
              <span data-testid="cap-left">{capLeft()}</span>
            </dd>
          </div>
          <Show when={request()}>
            {(text) => (
              <div>
                <dt>Withdrawal requested</dt>
                <dd>
                  <span data-testid="position-withdraw-request">{text()}</span>
                  <span class="unit">its USDC is held back from new keeper draws</span>
                </dd>
              </div>
            )}
          </Show>
        </dl>
      </section>

      <section aria-labelledby="deposit-title">
        <h2 id="deposit-title">Deposit</h2>
        <TestUsdc />
        <WriteAction
          name="deposit"
          label="Deposit"
          submitTestId="deposit-submit"
          build={() => vaultDeposit(contracts().vault, me(), parseAmountOrThrow(depositText()))}
          effect={(ret) => `mints ${formatAmount(returnedI128(ret))} shares`}
          disabled={refused(depositQuote())}
          onDone={() => setDepositText('')}
        >
          <label>
            Deposit amount (USDC)
            <input
              data-testid="deposit-amount"
              inputmode="decimal"
              autocomplete="off"
              placeholder="100"
              value={depositText()}
              onInput={(e) => setDepositText(e.currentTarget.value)}
              aria-describedby="deposit-hint deposit-preview"
            />
          </label>
          <span class="hint" id="deposit-hint" data-testid="deposit-hint">
            {AMOUNT_HINT}
          </span>
          <p id="deposit-preview" data-testid="deposit-preview" aria-live="polite" classList={{ error: !depositQuote().ok && depositText() !== '' }}>
            <Show when={depositText() !== ''} fallback="Enter an amount to see the shares it mints.">
              <Show when={refused(depositQuote())} fallback={depositQuote().text}>
                <span data-testid="deposit-refused">{depositQuote().text}</span>
              </Show>
            </Show>
          </p>
        </WriteAction>
      </section>

      <section aria-labelledby="withdraw-title">
        <h2 id="withdraw-title">Withdraw</h2>
        <WriteAction
          name="withdraw"
          label="Withdraw"
          submitTestId="withdraw-submit"
          build={() => vaultWithdraw(contracts().vault, me(), parseAmountOrThrow(withdrawText()))}
          effect={(ret) => `pays out ${formatAmount(returnedI128(ret))} USDC`}
          disabled={refused(withdrawQuote())}
          onDone={() => setWithdrawText('')}
        >
          <label>
            Withdraw shares
            <input
              data-testid="withdraw-shares"
              inputmode="decimal"
              autocomplete="off"
              value={withdrawText()}
              onInput={(e) => setWithdrawText(e.currentTarget.value)}
              aria-describedby="withdraw-hint withdraw-preview"
            />
          </label>
          <span class="hint" id="withdraw-hint">
            {AMOUNT_HINT}
          </span>
          <Show when={(mine()?.depositor.shares ?? 0n) > 0n}>
            <button
              type="button"
              onClick={(e) => {
                setWithdrawText(formatAmount(mine()?.depositor.shares ?? 0n, { group: false }))
                // A new amount makes a simulated withdrawal stale, as typing does.
                e.currentTarget.form?.dispatchEvent(new Event('input', { bubbles: true }))
              }}
            >
              All my shares
            </button>
          </Show>
          <p id="withdraw-preview" data-testid="withdraw-preview" aria-live="polite" classList={{ error: !withdrawQuote().ok && withdrawText() !== '' }}>
            <Show when={withdrawText() !== ''} fallback="Enter a number of shares to see the USDC they pay.">
              <Show when={refused(withdrawQuote())} fallback={withdrawQuote().text}>
                <span data-testid="withdraw-refused">{withdrawQuote().text}</span>
              </Show>
            </Show>
          </p>
        </WriteAction>
      </section>

      <section aria-labelledby="history-title">
        <h2 id="history-title">My deposits and withdrawals</h2>
        <Show when={account() !== undefined} fallback={<p class="notice">Connect a wallet to see your deposits and withdrawals.</p>}>
          <PositionHistory rows={figures.history()} networkPassphrase={config()?.network.networkPassphrase} error={figures.error()} />
        </Show>
      </section>
    </>
  )
}
