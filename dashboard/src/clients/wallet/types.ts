/** A wallet the dashboard writes through: an address and something that signs envelopes for it. */
import type { EnvelopeSigner } from '../../../../src/chain/signed.js'

export type { EnvelopeSigner }

export interface ConnectedWallet {
  /** The account (G…) that is the source of every write and authorizes its own calls. */
  address: string
  /** 'sandbox': a test key generated in this browser; 'extension': a wallet through the wallets kit. */
  kind: 'sandbox' | 'extension'
  /** What the wallet bar shows, e.g. "Sandbox wallet (local test key)" or "Freighter". */
  label: string
  sign: EnvelopeSigner
}
