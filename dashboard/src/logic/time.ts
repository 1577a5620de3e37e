/**
 * Times for people, on one clock: the network's ledger close time (UTC), with the ledger beside
 * it when known. Durations (cooldowns, draw ages) are in seconds of ledger close time too;
 * ledgers become time at the network's ledger time (src/chain ledgerTime).
 */
import { secondsFor } from '../../../src/chain/ledgerSpan.js'

/**
 * Whole seconds as "45 s", "2 min 5 s", "3 h 0 min", "2 d 4 h" (two units at most).
 *
 * @example
 * formatDuration(125) // '2 min 5 s'
 */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds))
  if (s < 60) return `${s} s`
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`
  if (s < 86_400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`
  return `${Math.floor(s / 86_400)} d ${Math.floor((s % 86_400) / 3600)} h`
}

/**
 * When a block (ledger) of an auction comes, in words, at the network's ledger time `ledgerMs`:
 * from the current block `now` when known, else from the auction's start.
 *
 * @example
 * ledgersAheadText(180, 100, 2500) // 'in about 3 min 20 s at 2.5 s per ledger'
 */
export function ledgersAheadText(target: number, now: number | null, ledgerMs: number): string {
  const per = `at ${Number((ledgerMs / 1000).toFixed(3))} s per ledger`
  if (now === null) return `about ${formatDuration(secondsFor(target, ledgerMs))} after the start ${per}`
  if (target <= now) return 'reached'
  return `in about ${formatDuration(secondsFor(target - now, ledgerMs))} ${per}`
}

const two = (n: number): string => String(n).padStart(2, '0')

/**
 * A time in seconds since the epoch (to the nearest second) as "14:03:22 · ledger 555" (UTC), without the ledger part
 * when the ledger is unknown, "—" when the time is.
 *
 * @example
 * formatLedgerTime(1_700_000_602, 555) // '22:23:22 · ledger 555'
 */
export function formatLedgerTime(seconds: number | undefined, ledger?: number): string {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) return ledger === undefined ? '—' : `ledger ${ledger}`
  const d = new Date(Math.round(seconds) * 1000)
  const clock = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`
  return ledger === undefined ? clock : `${clock} · ledger ${ledger}`
}

/** A unix time (s) as `YYYY-MM-DD HH:MM:SS` in UTC (a chart's axis labels). */
export function utcDateTime(seconds: number): string {
  return new Date(Math.round(seconds) * 1000).toISOString().slice(0, 19).replace('T', ' ')
}

/**
 * A ledger close time with its date, for lists that span days (an account's history, a
 * transaction): the same clock as `formatLedgerTime`.
 *
 * @example
 * formatLedgerDateTime(1_700_000_602, 555) // '2023-11-14 22:23:22 UTC · ledger 555'
 */
export function formatLedgerDateTime(seconds: number | undefined, ledger?: number): string {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) return ledger === undefined ? '—' : `ledger ${ledger}`
  const text = `${utcDateTime(seconds)} UTC`
  return ledger === undefined ? text : `${text} · ledger ${ledger}`
}

/** The ledger clock as last read: the latest ledger and the browser's time when it was read. */
export interface ClockAnchor {
  sequence: number
  /** The ledger's close time (s since the epoch). */
  closeTime: number
  /** `Date.now()` when the read returned. */
  seenAtMs: number
}

/**
 * A wall-clock instant (ms since the epoch, e.g. a keeper's ISO time) moved onto the ledger clock
 * (s): the ledger clock runs apart from wall time on the sandbox, whose clock can be advanced.
 * An estimate, to within the read interval.
 */
export function onLedgerClock(wallMs: number, anchor: ClockAnchor): number {
  return anchor.closeTime + (wallMs - anchor.seenAtMs) / 1000
}

/**
 * A keeper's ISO time on the ledger clock, formatted like `formatLedgerTime`; undefined when
 * the ledger clock is not known yet or the time does not parse.
 */
export function keeperTimeOnLedgerClock(iso: string | null | undefined, anchor: ClockAnchor | undefined, ledger?: number): string | undefined {
  if (iso === null || iso === undefined || anchor === undefined || anchor.closeTime <= 0) return undefined
  const ms = Date.parse(iso)
  if (!Number.isFinite(ms)) return undefined
  return formatLedgerTime(onLedgerClock(ms, anchor), ledger)
}

/** An ISO time as the UTC clock it was written in ("14:03:22"), for when no ledger clock is known. */
export function utcClockOf(iso: string): string {
  const ms = Date.parse(iso)
  return Number.isFinite(ms) ? formatLedgerTime(ms / 1000) : '—'
}

/**
 * A keeper's ISO time for people: on the ledger clock when it is known, otherwise the keeper's
 * own UTC clock, marked "keeper clock". Never the raw ISO text.
 */
export function keeperTimeText(iso: string, anchor: ClockAnchor | undefined, ledger?: number): string {
  const onLedger = keeperTimeOnLedgerClock(iso, anchor, ledger)
  if (onLedger !== undefined) return onLedger
  const clock = `${utcClockOf(iso)} keeper clock`
  return ledger === undefined ? clock : `${clock} · ledger ${ledger}`
}
