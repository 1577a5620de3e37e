/**
 * The ledger clock: the latest ledger's sequence and close time, read once per ledger of the
 * network while a view that shows cooldowns or draw ages is open. The vault and the registry
 * compare with the ledger timestamp, so these views do too, never with the browser's clock. The
 * network's ledger time comes from src/chain (readLedgerTime: its scp_timing setting, else its
 * recent closes), read once per connection; estimates in ledgers turn into time with it.
 */
import { createResource, createSignal, onCleanup, type Resource } from 'solid-js'
import { DEFAULT_LEDGER_MS } from '../../../src/chain/ledgerSpan.js'
import type { Reads } from '../clients/chain.js'
import { writes } from './wallet.js'

export interface LedgerTime {
  sequence: number
  closeTime: number
  /** The browser's `Date.now()` when the read returned: maps a keeper's wall-clock times onto this clock. */
  seenAtMs: number
  /** The network's ledger time (ms per ledger). */
  ledgerMs: number
}

/** The clock never reads more often than this, however short the network's ledgers. */
export const MIN_POLL_MS = 1_000

const ledgerTimes = new WeakMap<Reads, Promise<number>>()

/** The network's ledger time through `reads`, read once (DEFAULT_LEDGER_MS when it cannot say). */
function ledgerMsOf(reads: Reads): Promise<number> {
  let p = ledgerTimes.get(reads)
  if (p === undefined) {
    p = typeof reads.ledgerTime === 'function' ? reads.ledgerTime().then((t) => t.ms, () => DEFAULT_LEDGER_MS) : Promise.resolve(DEFAULT_LEDGER_MS)
    ledgerTimes.set(reads, p)
  }
  return p
}

/** `everyMs`: a fixed read period instead of one per network ledger (tests). */
export function createLedgerClock(reads: () => Reads | undefined, everyMs?: number): Resource<LedgerTime | undefined> {
  const [tick, setTick] = createSignal(0)
  let ledgerMs = DEFAULT_LEDGER_MS
  let timer: ReturnType<typeof setTimeout> | undefined
  const schedule = () => {
    timer = setTimeout(
      () => {
        setTick((n) => n + 1)
        schedule()
      },
      Math.max(MIN_POLL_MS, everyMs ?? ledgerMs),
    )
  }
  schedule()
  onCleanup(() => clearTimeout(timer))
  let last: LedgerTime | undefined
  const source = () => {
    const r = reads()
    return r === undefined ? undefined : { reads: r, tick: tick(), writes: writes() }
  }
  // A failed read keeps the last time: a missed tick says nothing about the ledger.
  const [ledger] = createResource(source, async ({ reads }) => {
    try {
      const [l, ms] = await Promise.all([reads.latestLedger(), ledgerMsOf(reads)])
      ledgerMs = ms
      return (last = { ...l, seenAtMs: Date.now(), ledgerMs: ms })
    } catch {
      return last
    }
  })
  return ledger
}
