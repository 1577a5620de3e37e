/**
 * The wallet bar in the header: connect (the sandbox wallet on the sandbox network, a browser
 * wallet through the wallets kit elsewhere), then the account, its USDC balance and disconnect.
 * On a phone the connected wallet's details fold behind a button with the short address.
 */
import { Show, createEffect, createResource, createSignal, on, onCleanup } from 'solid-js'
import { Address } from '../components/Address.js'
import { isSandbox } from '../config/network.js'
import { useConfig } from '../stores/config.js'
import { connectExtension, connectSandbox, connecting, connectingSince, disconnect, resumeWallet, wallet, walletError, writes } from '../stores/wallet.js'
import { formatAmount } from '../logic/amounts.js'
import { shortAddress } from '../logic/address.js'

export function WalletBar() {
  const { config, reads } = useConfig()

  // After a reload, a sandbox wallet that was connected comes back with the same key.
  createEffect(
    on(config, (c) => {
      if (c !== undefined) void resumeWallet(c)
    }),
  )

  const [usdc] = createResource(
    () => {
      const r = reads()
      const w = wallet()
      return r === undefined || w === undefined ? undefined : { reads: r, account: w.address, writes: writes() }
    },
    ({ reads, account }) => reads.usdcBalance(account).catch(() => undefined),
  )

  const [open, setOpen] = createSignal(false)

  // The seconds a connection has taken so far, ticking while it is under way (the sandbox
  // wallet's set-up sends up to three transactions).
  const [tick, setTick] = createSignal(Date.now())
  createEffect(() => {
    if (connecting() === undefined) return
    const timer = setInterval(() => setTick(Date.now()), 1000)
    onCleanup(() => clearInterval(timer))
  })
  const elapsed = () => {
    const since = connectingSince()
    return since === undefined ? 0 : Math.max(0, Math.floor((tick() - since) / 1000))
  }

  // Focus follows the person: the connect button they pressed is replaced by the connected
  // wallet's controls (and those by the connect button on disconnect), so focus moves to the
  // control now in its place instead of falling to the page.
  let bar!: HTMLDivElement
  let moveFocus = false
  const pressed = () => {
    moveFocus = true
  }
  createEffect(
    on(wallet, () => {
      if (!moveFocus) return
      moveFocus = false
      queueMicrotask(() => {
        const candidates = bar.querySelectorAll<HTMLElement>('[data-testid="wallet-disconnect"], .wallet-toggle, [data-testid^="wallet-connect"]')
        const visible = [...candidates].find((el) => el.getClientRects().length > 0)
        visible?.focus()
      })
    }, { defer: true }),
  )
  // A connection that failed leaves the pressed button in place, and focus on it.
  createEffect(
    on(walletError, (e) => {
      if (e !== undefined) moveFocus = false
    }),
  )

  return (
    <div ref={bar} class="wallet-bar" role="group" aria-label="Wallet" classList={{ connected: wallet() !== undefined, open: open() }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') setOpen(false)
      }}
    >
      <Show
        when={wallet()}
        fallback={
          <Show when={config()}>
            {(c) => (
              <>
                <Show
                  when={isSandbox(c())}
                  fallback={
                    <button type="button" data-testid="wallet-connect" disabled={connecting() !== undefined} onClick={() => {
                      pressed()
                      void connectExtension(c())
                    }}>
                      Connect wallet
                    </button>
                  }
                >
                  <button type="button" data-testid="wallet-connect-sandbox" disabled={connecting() !== undefined} onClick={() => {
                    pressed()
                    void connectSandbox(c())
                  }}>
                    Use sandbox wallet
                  </button>
                </Show>
                <Show when={connecting()}>
                  {(step) => (
                    <span class="wallet-progress" data-testid="wallet-progress" role="status">
                      {step()} <span class="wallet-elapsed">{elapsed()} s</span>
                    </span>
                  )}
                </Show>
              </>
            )}
          </Show>
        }
      >
        {(w) => (
          <>
            <button
              type="button"
              class="wallet-toggle"
              aria-expanded={open()}
              aria-controls="wallet-details"
              aria-label={`Wallet ${shortAddress(w().address)}`}
              onClick={() => setOpen(!open())}
            >
              <code>{shortAddress(w().address)}</code>
              <span aria-hidden="true">{open() ? '▴' : '▾'}</span>
            </button>
            <div class="wallet-details" id="wallet-details">
              <Show when={w().kind === 'sandbox'} fallback={<span class="wallet-label">{w().label}</span>}>
                <span class="sandbox-label" title="A key generated in this browser and kept in its storage, for the local sandbox only">
                  <span class="label-long">{w().label}</span>
                  <span class="label-short">Sandbox wallet</span>
                </span>
              </Show>
              <span data-testid="wallet-address" data-address={w().address}>
                <Address address={w().address} label="Connected account" />
              </span>
              <span data-testid="wallet-usdc">
                {usdc.latest === undefined ? '—' : formatAmount(usdc.latest)} USDC
              </span>
              <button
                type="button"
                data-testid="wallet-disconnect"
                onClick={() => {
                  setOpen(false)
                  pressed()
                  disconnect()
                }}
              >
                Disconnect
              </button>
            </div>
          </>
        )}
      </Show>
      <Show when={walletError()}>
        {(message) => (
          <span role="alert" class="error" data-testid="wallet-error">
            {message()}
          </span>
        )}
      </Show>
    </div>
  )
}
