/**
 * The wallet bar in the header: connect (the sandbox wallet on the sandbox network, a browser
 * wallet through the wallets kit elsewhere), then the account, its USDC balance and disconnect.
 */
import { Show, createEffect, createResource, on } from 'solid-js'
import { isSandbox } from '../config/network.js'
import { useConfig } from '../stores/config.js'
import { connectExtension, connectSandbox, connecting, disconnect, resumeWallet, wallet, walletError, writes } from '../stores/wallet.js'
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

  return (
    <div class="wallet-bar" aria-label="Wallet" style={{ display: 'flex', gap: '0.75rem', 'align-items': 'center', 'flex-wrap': 'wrap' }}>
      <Show
        when={wallet()}
        fallback={
          <Show when={config()}>
            {(c) => (
              <>
                <Show
                  when={isSandbox(c())}
                  fallback={
                    <button type="button" data-testid="wallet-connect" disabled={connecting() !== undefined} onClick={() => void connectExtension(c())}>
                      Connect wallet
                    </button>
                  }
                >
                  <button type="button" data-testid="wallet-connect-sandbox" disabled={connecting() !== undefined} onClick={() => void connectSandbox(c())}>
                    Use sandbox wallet
                  </button>
                </Show>
                <Show when={connecting()}>
                  {(step) => (
                    <span class="wallet-progress" data-testid="wallet-progress" aria-live="polite">
                      {step()}
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
            <Show when={w().kind === 'sandbox'} fallback={<span class="wallet-label">{w().label}</span>}>
              <span class="sandbox-label" title="A key generated in this browser and kept in its storage, for the local sandbox only">
                {w().label}
              </span>
            </Show>
            <span data-testid="wallet-address" data-address={w().address} title={w().address}>
              {shortAddress(w().address)}
            </span>
            <span data-testid="wallet-usdc">
              {usdc.latest === undefined ? '—' : formatAmount(usdc.latest)} USDC
            </span>
            <button type="button" data-testid="wallet-disconnect" onClick={disconnect}>
              Disconnect
            </button>
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
