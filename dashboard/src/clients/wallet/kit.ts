/**
 * Browser wallets (Freighter, xBull, Albedo, Lobstr, …) through @creit.tech/stellar-wallets-kit.
 * The kit and its wallet modules are loaded by dynamic import() on the first "Connect wallet",
 * so they stay out of the first-load bundle. Offered only off the sandbox network.
 */
import type { DashboardConfig } from '../../config/schema.js'
import type { ConnectedWallet } from './types.js'

type Kit = typeof import('@creit.tech/stellar-wallets-kit/sdk').StellarWalletsKit

let loaded: Promise<Kit> | undefined

/** The kit, initialised once for `passphrase` with the wallet modules that need no set-up. */
function loadKit(passphrase: string): Promise<Kit> {
  loaded ??= (async () => {
    const [{ StellarWalletsKit }, { defaultModules }] = await Promise.all([
      import('@creit.tech/stellar-wallets-kit/sdk'),
      import('@creit.tech/stellar-wallets-kit/modules/utils'),
    ])
    // The kit's Networks enum is the set of passphrases; any other network is passed through as is.
    const network = passphrase as Parameters<Kit['setNetwork']>[0]
    StellarWalletsKit.init({ modules: defaultModules(), network })
    return StellarWalletsKit
  })()
  loaded.catch(() => (loaded = undefined))
  return loaded
}

/** Opens the kit's wallet picker and returns the chosen wallet's account, signing through it. */
export async function connectKitWallet(config: DashboardConfig): Promise<ConnectedWallet> {
  const kit = await loadKit(config.network.networkPassphrase)
  const { address } = await kit.authModal()
  let label = 'Browser wallet'
  try {
    label = kit.selectedModule.productName
  } catch {
    // No module name to show: keep the generic label.
  }
  return {
    address,
    kind: 'extension',
    label,
    sign: async (envelopeXdr, networkPassphrase) => {
      const { signedTxXdr } = await kit.signTransaction(envelopeXdr, { networkPassphrase, address })
      return signedTxXdr
    },
  }
}

/** Tells the kit the wallet was disconnected (it forgets the selected module). */
export async function disconnectKitWallet(): Promise<void> {
  if (loaded === undefined) return
  const kit = await loaded
  await kit.disconnect()
}
