/**
 * More test USDC for the sandbox wallet, whenever it is wanted: the dashboard server's faucet
 * (POST {account}, `faucetUrl` in config.json) pays the connected account, and every figure that
 * depends on the chain refreshes. Shown only for the sandbox wallet on a dashboard with a faucet.
 */
import { Show, createSignal } from 'solid-js'
import type { FaucetPaid } from '../clients/wallet/sandbox.js'
import { useConfig } from '../stores/config.js'
import { notifyWrite, wallet } from '../stores/wallet.js'
import { formatAmount } from '../logic/amounts.js'

/** What the faucet paid, in words. */
export function paidText(paid: FaucetPaid): string {
  const amount = paid.amount === undefined ? 'test USDC' : `${formatAmount(paid.amount)} test USDC`
  return paid.balance === undefined ? `Received ${amount}.` : `Received ${amount}; the wallet holds ${formatAmount(paid.balance)} USDC.`
}

export function TestUsdc() {
  const { config } = useConfig()
  const [busy, setBusy] = createSignal(false)
  const [said, setSaid] = createSignal<{ ok: boolean; text: string } | undefined>()
  const faucetUrl = () => (wallet()?.kind === 'sandbox' ? config()?.faucetUrl : undefined)

  const ask = async () => {
    const url = faucetUrl()
    const account = wallet()?.address
    if (url === undefined || account === undefined || busy()) return
    setBusy(true)
    setSaid({ ok: true, text: 'Asking the faucet… (one transaction, a few seconds)' })
    try {
      const { requestTestUsdc } = await import('../clients/wallet/sandbox.js')
      setSaid({ ok: true, text: paidText(await requestTestUsdc(url, account)) })
      notifyWrite()
    } catch (e) {
      setSaid({ ok: false, text: e instanceof Error ? e.message : String(e) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <Show when={faucetUrl()}>
      <div class="test-usdc">
        <button type="button" data-testid="test-usdc" disabled={busy()} onClick={() => void ask()}>
          Get test USDC
        </button>
        <span class="note"> Sandbox only: the dashboard's faucet pays this test wallet in test USDC, as often as you like.</span>
        <Show when={said()}>
          {(s) => (
            <p role={s().ok ? 'status' : 'alert'} classList={{ error: !s().ok, note: s().ok }} data-testid="test-usdc-status">
              {s().text}
            </p>
          )}
        </Show>
      </div>
    </Show>
  )
}
