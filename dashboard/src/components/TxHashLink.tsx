/**
 * A transaction hash, shortened, as a link to the transaction: the network's explorer on testnet
 * and the public network (a new tab), the dashboard's own `#/tx/HASH` page elsewhere. The full hash
 * is in its title and accessible name.
 */
import { Show } from 'solid-js'
import { txLink, shortHash } from '../logic/explorer.js'

export interface TxHashLinkProps {
  hash: string
  networkPassphrase: string | undefined
  testId: string
}

export function TxHashLink(props: TxHashLinkProps) {
  const link = () => txLink(props.networkPassphrase, props.hash)
  return (
    <a
      href={link().href}
      data-testid={props.testId}
      title={props.hash}
      aria-label={`transaction ${props.hash}`}
      class="tx-hash"
      target={link().external ? '_blank' : undefined}
      rel={link().external ? 'noopener noreferrer' : undefined}
    >
      {shortHash(props.hash)}
    </a>
  )
}

/** A table's "Transaction" cell: the hash's link, or "—" when the row has none. */
export function TxHashCell(props: TxHashLinkProps) {
  return (
    <td data-label="Transaction">
      <Show when={props.hash !== ''} fallback="—">
        <TxHashLink hash={props.hash} networkPassphrase={props.networkPassphrase} testId={props.testId} />
      </Show>
    </td>
  )
}
