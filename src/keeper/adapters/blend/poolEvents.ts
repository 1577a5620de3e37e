/**
 * Every event of the pool, and the addresses each one names: what the incremental pool state
 * (poolState.ts) learns its changes from.
 *
 * Blend v2 (pool/src/events.rs) names the user whose positions a call changed in its topics:
 * supply, withdraw, supply_collateral, withdraw_collateral, borrow, repay and flash_loan
 * `(name, asset, from[, contract])`, bad_debt `(name, user, asset)`, new_auction, fill_auction and
 * delete_auction `(name, type, user)`; fill_auction's value names the filler, whose positions take
 * the lot and the bid. Rather than a list of events and places, every address anywhere in an
 * event's topics and value counts as named: an event added by a later pool version still marks
 * its users as changed.
 */
import type { rpc, xdr } from '@stellar/stellar-sdk'
import { scAddress } from './storage.js'

/** The getEvents filter for every event the pool emits. */
export function poolEventFilters(pool: string): rpc.Api.EventFilter[] {
  return [{ type: 'contract', contractIds: [pool] }]
}

function collect(v: xdr.ScVal | undefined, out: Set<string>): void {
  if (v === undefined) return
  switch (v.type) {
    case 'scvAddress':
      out.add(scAddress(v, 'event address'))
      return
    case 'scvVec':
      for (const e of v.vec ?? []) collect(e, out)
      return
    case 'scvMap':
      for (const e of v.map ?? []) {
        collect(e.key, out)
        collect(e.val, out)
      }
      return
    default:
      return
  }
}

/** Adds every address an event's topics and value name to `out`. */
export function addressesOf(event: Pick<rpc.Api.EventResponse, 'topic'> & { value?: xdr.ScVal }, out: Set<string>): void {
  for (const t of event.topic) collect(t, out)
  collect(event.value, out)
}
