/**
 * The network a LedgerSnapshot file was taken on, so the sandbox, our contracts and the keepers
 * run on that network's passphrase. The file's `network_id` is the SHA-256 of the passphrase
 * (soroban-ledger-snapshot's LedgerSnapshot; src/chain/networks.ts): a public network's id gives
 * its passphrase; any other needs `world.from.networkPassphrase`, which must hash to the id.
 */
import { KNOWN_NETWORKS, isUnsetNetworkId, knownNetworkOfId, networkIdOf } from '../../src/chain/networks.js'

/** Loosely typed parsed JSON of a snapshot file. */
type Json = any

/** The `network_id` of a parsed snapshot (either layout the format has had), or undefined. */
function networkIdIn(doc: Json): unknown {
  const root = doc?.ledger_entries === undefined && doc?.ledger !== undefined ? doc.ledger : doc
  return root?.network_id
}

/**
 * The passphrase a node must run to load snapshot `doc` (read from `file`): the one `given`
 * (world.from.networkPassphrase) when it matches the file's network_id, else the public network
 * the id names. A file without a network id (32 zero bytes) loads on any network: `given`, or
 * the sandbox's own standalone network.
 * @throws Error in one line naming the file, the id and what to give
 */
export function snapshotPassphrase(file: string, doc: Json, given: string | undefined): string {
  const id = networkIdIn(doc)
  if (id === undefined || (typeof id === 'string' && isUnsetNetworkId(id))) return given ?? KNOWN_NETWORKS.find((n) => n.name === 'standalone')!.passphrase
  if (typeof id !== 'string' || !/^[0-9a-fA-F]{64}$/.test(id)) {
    throw new Error(`world.from.snapshot ${file}: network_id ${JSON.stringify(id)} is not 64 hex digits (the SHA-256 of a network passphrase)`)
  }
  const known = knownNetworkOfId(id)
  if (given !== undefined) {
    if (networkIdOf(given) === id.toLowerCase()) return given
    const whose = known === undefined ? 'nor of any public network\'s' : `but ${known.name}'s ("${known.passphrase}")`
    throw new Error(`world.from.networkPassphrase "${given}" is not the network of ${file}: its network_id ${id} is not the SHA-256 of that passphrase, ${whose}`)
  }
  if (known !== undefined) return known.passphrase
  const names = KNOWN_NETWORKS.map((n) => n.name).join(', ')
  throw new Error(`world.from.snapshot ${file}: network_id ${id} is none of the public networks' (${names}): give that network's passphrase as world.from.networkPassphrase`)
}
