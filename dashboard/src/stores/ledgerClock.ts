/**
 * The ledger clock: the latest ledger's sequence and close time, read every few seconds while a
 * view that shows cooldowns or draw ages is open. The vault and the registry compare with the
 * ledger timestamp, so these views do too, never with the browser's clock.
 */
import { createResource, createSignal, onCleanup, type Resource } from 'solid-js'
import type { Reads } from '../clients/chain.js'
import { writes } from './wallet.js'

export interface LedgerTime {
  sequence: number
  closeTime: number
  /** The browser's `Date.now()` when the read returned: maps a keeper's wall-clock times onto this clock. */
  seenAtMs: number
}

export function createLedgerClock(reads: () => Reads | undefined, everyMs = 5_000): Resource<LedgerTime | undefined> {
  const [tick, setTick] = createSignal(0)
  const timer = setInterval(() => setTick((n) => n + 1), everyMs)
  onCleanup(() => clearInterval(timer))
  let last: LedgerTime | undefined
  const source = () => {
    const r = reads()
    return r === undefined ? undefined : { reads: r, tick: tick(), writes: writes() }
  }
  // A failed read keeps the last time: a missed tick says nothing about the ledger.
  const [ledger] = createResource(source, ({ reads }) =>
    reads.latestLedger().then(
      (l) => (last = { ...l, seenAtMs: Date.now() }),
      () => last,
    ),
  )
  return ledger
}
