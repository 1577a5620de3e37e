/** The pool's borrower events: their getEvents filter and the user each one names. */
import { Address, xdr, type rpc } from '@stellar/stellar-sdk'

export type EventsReader = Pick<rpc.Server, 'getEvents' | 'getHealth'>

/** Event names whose third topic is a user that now holds liabilities (Blend v2 pool/src/events.rs). */
export const BORROWER_EVENTS = ['borrow', 'flash_loan'] as const

function topicFilter(name: string): string[] {
  return [xdr.ScVal.scvSymbol(name).toXdr('base64'), '*', '*']
}

/** The getEvents filter for the pool's borrower events. */
export function borrowerEventFilters(pool: string): rpc.Api.EventFilter[] {
  return [{ type: 'contract', contractIds: [pool], topics: BORROWER_EVENTS.map(topicFilter) }]
}

/** The user of a borrower event, or undefined for anything else. */
export function borrowerOf(event: Pick<rpc.Api.EventResponse, 'topic'>): string | undefined {
  const [name, , user] = event.topic
  if (name === undefined || user === undefined) return undefined
  if (name.type !== 'scvSymbol') return undefined
  if (!(BORROWER_EVENTS as readonly string[]).includes(name.sym.toString())) return undefined
  if (user.type !== 'scvAddress') return undefined
  return Address.fromScAddress(user.address).toString()
}
