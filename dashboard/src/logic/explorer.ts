/**
 * Where a transaction can be looked at: stellar.expert on the public network and on testnet (told
 * apart by the network passphrase), otherwise (the sandbox, any private network) the dashboard's
 * own transaction page, `#/tx/HASH`, which asks the configured RPC node.
 */
import { Networks } from '@stellar/stellar-sdk'

export interface TxLink {
  href: string
  /** True for an explorer on another site (open it in a new tab). */
  external: boolean
}

const EXPLORER: Readonly<Record<string, string>> = {
  [Networks.PUBLIC]: 'https://stellar.expert/explorer/public/tx/',
  [Networks.TESTNET]: 'https://stellar.expert/explorer/testnet/tx/',
}

/**
 * The page of transaction `hash` on the network with `networkPassphrase`.
 *
 * @example
 * txLink(Networks.TESTNET, 'ab…').href // 'https://stellar.expert/explorer/testnet/tx/ab…'
 * txLink('Standalone Network ; February 2017', 'ab…').href // '#/tx/ab…'
 */
export function txLink(networkPassphrase: string | undefined, hash: string): TxLink {
  const base = networkPassphrase === undefined ? undefined : EXPLORER[networkPassphrase]
  return base === undefined ? { href: `#/tx/${hash}`, external: false } : { href: `${base}${hash}`, external: true }
}

/** The first and last 6 hex digits of a transaction hash: '3f2a9c…81d0e7'. */
export function shortHash(hash: string): string {
  return hash.length <= 14 ? hash : `${hash.slice(0, 6)}…${hash.slice(-6)}`
}

/** A 64-hex-digit transaction hash (what `#/tx/HASH` accepts). */
export function isTxHash(text: string): boolean {
  return /^[0-9a-f]{64}$/i.test(text)
}
