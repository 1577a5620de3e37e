/**
 * The public Stellar networks by passphrase and by network id. A network id is the SHA-256 of
 * the passphrase (stellar-core's `sha256(networkPassphrase)`); a LedgerSnapshot file records it
 * as 64 hex digits in `network_id` (soroban-ledger-snapshot), so the file names its network.
 * The sandbox node keeps the same table (sandbox/src/node/snapshot.rs).
 */
import { Networks, hash } from '@stellar/stellar-sdk'

export interface KnownNetwork {
  name: 'mainnet' | 'testnet' | 'futurenet' | 'standalone'
  passphrase: string
}

export const KNOWN_NETWORKS: readonly KnownNetwork[] = [
  { name: 'mainnet', passphrase: Networks.PUBLIC },
  { name: 'testnet', passphrase: Networks.TESTNET },
  { name: 'futurenet', passphrase: Networks.FUTURENET },
  { name: 'standalone', passphrase: Networks.STANDALONE },
]

/** The network id of a passphrase, as 64 lower-case hex digits. */
export function networkIdOf(passphrase: string): string {
  return Buffer.from(hash(Buffer.from(passphrase, 'utf8'))).toString('hex')
}

/** An id with no network in it: soroban-sdk's test snapshots leave network_id at 32 zero bytes. */
export function isUnsetNetworkId(id: string): boolean {
  return /^0{64}$/.test(id)
}

/** The public network whose id is `id` (hex, any case), or undefined. */
export function knownNetworkOfId(id: string): KnownNetwork | undefined {
  const want = id.toLowerCase()
  return KNOWN_NETWORKS.find((n) => networkIdOf(n.passphrase) === want)
}
