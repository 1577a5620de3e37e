/**
 * The wallet store: the connected wallet (one for the whole page), its connection progress and
 * error, and a counter every successful write bumps so every figure that depends on the chain
 * refetches after a write.
 */
import { createSignal } from 'solid-js'
import { isSandbox } from '../config/network.js'
import type { DashboardConfig } from '../config/schema.js'
import type { ConnectedWallet } from '../clients/wallet/types.js'
import { connectKitWallet, disconnectKitWallet } from '../clients/wallet/kit.js'

// The sandbox wallet and the error words need @stellar/stellar-sdk: fetched on first use, so the
// header paints without it.
const sandboxWallet = () => import('../clients/wallet/sandbox.js')
const inWords = async (e: unknown) => (await import('../logic/writeFlow.js')).errorInWords(e)

const REMEMBER_KEY = 'pooled-liquidations.wallet-kind'

const [wallet, setWallet] = createSignal<ConnectedWallet | undefined>()
const [connecting, setConnecting] = createSignal<string | undefined>()
/** When the connection now under way started (`Date.now()`), for the seconds it has taken. */
const [connectingSince, setConnectingSince] = createSignal<number | undefined>()
const [walletError, setWalletError] = createSignal<string | undefined>()
const [writes, setWrites] = createSignal(0)
const [activeWrite, setActiveWrite] = createSignal<string | undefined>()

export { wallet, connecting, connectingSince, walletError, writes, activeWrite }

/**
 * Marks `name` as the write the person is working on: the page shows one write's quote, status
 * and error at a time, the last one started, so "the write status" is never ambiguous.
 */
export function startWrite(name: string): void {
  setActiveWrite(name)
}

/** Sets the connected wallet directly (tests; a wallet opened elsewhere). */
export function setConnectedWallet(w: ConnectedWallet | undefined): void {
  setWallet(w)
}

/** Every figure keyed by `writes()` refetches: call after a write was included. */
export function notifyWrite(): void {
  setWrites((n) => n + 1)
}

async function connectWith(open: () => Promise<ConnectedWallet>, kind: ConnectedWallet['kind']): Promise<void> {
  if (connecting() !== undefined) return
  setWalletError(undefined)
  setConnecting('Connecting…')
  setConnectingSince(Date.now())
  try {
    setWallet(await open())
    localStorage.setItem(REMEMBER_KEY, kind)
  } catch (e) {
    setWalletError(await inWords(e))
  } finally {
    setConnecting(undefined)
    setConnectingSince(undefined)
  }
}

/** Opens the sandbox wallet (creating and funding its account on first use). Sandbox only. */
export async function connectSandbox(config: DashboardConfig): Promise<void> {
  if (!isSandbox(config)) {
    setWalletError('The sandbox wallet exists on the local sandbox network only.')
    return
  }
  return connectWith(async () => (await sandboxWallet()).openSandboxWallet(config, (step) => setConnecting(step)), 'sandbox')
}

/** Opens the wallets kit's picker (Freighter, xBull, …). Off the sandbox only. */
export function connectExtension(config: DashboardConfig): Promise<void> {
  return connectWith(() => connectKitWallet(config), 'extension')
}

/** Reconnects the sandbox wallet after a reload, when it was connected before and its key is kept. */
export async function resumeWallet(config: DashboardConfig): Promise<void> {
  if (wallet() !== undefined || localStorage.getItem(REMEMBER_KEY) !== 'sandbox') return
  if (!isSandbox(config) || !(await sandboxWallet()).hasSandboxKey()) return
  return connectSandbox(config)
}

/** Forgets the connection (the sandbox key itself stays, so reconnecting gives the same account). */
export function disconnect(): void {
  const w = wallet()
  setWallet(undefined)
  setWalletError(undefined)
  localStorage.removeItem(REMEMBER_KEY)
  if (w?.kind === 'extension') void disconnectKitWallet().catch(() => {})
}
