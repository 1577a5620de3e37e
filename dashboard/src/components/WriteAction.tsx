/**
 * The one write flow of the dashboard, as a form: its fields (children) and a submit button;
 * submitting simulates the write and shows the most it can cost and the expected effect; Confirm
 * has the wallet sign and sends it; the status says in which ledger it was included, links the
 * transaction (the network's explorer, or the dashboard's own page) and gives the fee charged. Errors are shown in words in
 * an alert. While the write is sent and after it ends, focus rests on the status or the error (the
 * buttons it was on are gone). The steps themselves are logic/writeFlow.ts.
 */
import { Show, createEffect, createSignal, on, useContext, type JSX } from 'solid-js'
import type { xdr } from '@stellar/stellar-sdk'
import { ConfigContext } from '../stores/config.js'
import { activeWrite, notifyWrite, startWrite, wallet } from '../stores/wallet.js'
import { FEE_CEILING_NOTE, confirmStep, prepareStep, statusText, walletWriteDeps, type SubmitResult, type WriteDeps, type WritePhase } from '../logic/writeFlow.js'
import { TxHashLink } from './TxHashLink.js'

export interface WriteActionProps {
  /**
   * Names this write on the page (`data-write`), unique among the writes shown at once: only the
   * last write started shows its quote, status and error.
   */
  name: string
  /** The submit button's text, e.g. "Deposit". */
  label: string
  /** The submit button's data-testid, e.g. "deposit-submit". */
  submitTestId: string
  /** The operation to send; throw (e.g. AmountInputError) to refuse bad input with its message. */
  build: () => xdr.Operation
  /** The expected effect in words from the simulated return value, e.g. "mints 99.9999000 shares". */
  effect: (returnValue: xdr.ScVal | undefined) => string
  /** After inclusion (every store keyed by the write counter refetches anyway). */
  onDone?: (result: SubmitResult) => void
  disabled?: boolean
  /** Source, simulator and sender; by default the connected wallet on the configured chain. */
  deps?: WriteDeps
  children?: JSX.Element
}

export function WriteAction(props: WriteActionProps) {
  const store = useContext(ConfigContext)
  const deps = (): WriteDeps | undefined => {
    if (props.deps !== undefined) return props.deps
    const chain = store?.reads()?.chain
    const w = wallet()
    return chain === undefined || w === undefined ? undefined : walletWriteDeps(chain, w)
  }
  const [phase, setPhase] = createSignal<WritePhase>({ kind: 'idle' })
  const busy = () => phase().kind === 'preparing' || phase().kind === 'sending'
  const active = () => activeWrite() === props.name
  let confirmButton: HTMLButtonElement | undefined
  let statusLine: HTMLParagraphElement | undefined
  let errorLine: HTMLParagraphElement | undefined
  const focusSoon = (el: () => HTMLElement | undefined) => queueMicrotask(() => el()?.focus())
  // Bumped by every edit of the fields and every submit: a simulation of older field values, or
  // one a newer submit overtook, is dropped.
  let edits = 0
  let runs = 0

  // Another write started: an unconfirmed quote or an old outcome here is no longer relevant.
  createEffect(
    on(activeWrite, (name) => {
      if (name !== props.name && !busy()) setPhase({ kind: 'idle' })
    }),
  )

  const submit = async (e: SubmitEvent) => {
    e.preventDefault()
    const d = deps()
    if (d === undefined || busy() || props.disabled === true) return
    startWrite(props.name)
    setPhase({ kind: 'preparing' })
    const at = edits
    const run = ++runs
    const next = await prepareStep(d, () => props.build(), (ret) => props.effect(ret))
    if (run !== runs) return
    setPhase(at === edits ? next : { kind: 'idle' })
    if (at === edits && next.kind === 'ready') focusSoon(() => confirmButton)
    if (at === edits && next.kind === 'error') focusSoon(() => errorLine)
  }

  const confirm = async () => {
    const p = phase()
    const d = deps()
    if (p.kind !== 'ready' || d === undefined) return
    setPhase({ kind: 'sending', fee: p.fee, effect: p.effect })
    focusSoon(() => statusLine)
    const { phase: next, result } = await confirmStep(d, p.prepared)
    setPhase(next)
    focusSoon(() => (next.kind === 'error' ? errorLine : statusLine))
    if (result !== undefined) {
      notifyWrite()
      props.onDone?.(result)
    }
  }

  // A change to the fields makes a simulated write stale: it must be simulated again.
  const onInput = () => {
    edits++
    if (phase().kind !== 'sending') setPhase({ kind: 'idle' })
  }

  const quote = () => {
    const p = phase()
    return active() && (p.kind === 'ready' || p.kind === 'sending') ? p : undefined
  }
  const status = () => (active() ? statusText(phase()) : '')
  const doneHash = () => {
    const p = phase()
    return active() && p.kind === 'done' && p.hash !== '' ? p.hash : undefined
  }
  const feeCharged = () => {
    const p = phase()
    return active() && p.kind === 'done' ? p.feeCharged : undefined
  }
  const error = () => {
    const p = phase()
    return active() && p.kind === 'error' ? p.message : undefined
  }

  return (
    <form class="write" data-write={props.name} onSubmit={submit} onInput={onInput} aria-busy={busy()}>
      {props.children}
      <button type="submit" data-testid={props.submitTestId} disabled={props.disabled === true || busy() || deps() === undefined}>
        {props.label}
      </button>
      <Show when={deps() === undefined}>
        <p class="hint">Connect a wallet first.</p>
      </Show>
      <Show when={quote()}>
        {(q) => (
          <dl class="write-quote">
            <dt>Network fee (maximum)</dt>
            <dd>
              <span data-testid="write-fee">{q().fee}</span>
              <span class="unit" data-testid="write-fee-note">
                {FEE_CEILING_NOTE}
              </span>
            </dd>
            <dt>Expected effect</dt>
            <dd data-testid="write-effect">{q().effect}</dd>
          </dl>
        )}
      </Show>
      <Show when={active() && phase().kind === 'ready'}>
        <div class="write-buttons">
          <button type="button" data-testid="write-confirm" ref={confirmButton} onClick={() => void confirm()}>
            Confirm and sign
          </button>
          <button type="button" onClick={() => setPhase({ kind: 'idle' })}>
            Cancel
          </button>
        </div>
      </Show>
      <div role="status">
        <Show when={status()}>
          {(text) => (
            <p data-testid="write-status" tabindex="-1" ref={statusLine}>
              {text()}
              <Show when={doneHash()}>
                {(hash) => (
                  <>
                    {' · transaction '}
                    <TxHashLink hash={hash()} networkPassphrase={store?.config()?.network.networkPassphrase} testId="write-hash" />
                  </>
                )}
              </Show>
            </p>
          )}
        </Show>
        <Show when={feeCharged()}>
          {(fee) => (
            <p class="note" data-testid="write-fee-charged">
              Fee charged: {fee()}
            </p>
          )}
        </Show>
      </div>
      <Show when={error()}>
        {(message) => (
          <p role="alert" class="error" data-testid="write-error" tabindex="-1" ref={errorLine}>
            {message()}
          </p>
        )}
      </Show>
    </form>
  )
}
