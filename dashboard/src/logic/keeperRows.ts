/**
 * The keepers table, derived from the registry's records and the ledger clock: who runs each
 * keeper (operator) and through which contract (executor), win rate, how late its fills land, the
 * age of an active draw, and whether anyone may slash the keeper now.
 *
 * The registry keys a keeper by the address that registered and holds the stake (its record's
 * `operator` field). A keeper that registered through an executor contract is keyed by that
 * contract (a C… address); the account running it is the executor's `owner()`.
 */
import { formatPercent } from '../../../src/core/index.js'
import type { KeeperInfo } from '../../../src/chain/records/index.js'
import { shortAddress } from './address.js'
import { formatDuration, formatLedgerTime } from './time.js'

export interface KeeperRowContext {
  /** Registry `slash_timeout` (s): a draw strictly older than this may be slashed. */
  slashTimeout: number
  /** Latest ledger close time (s); 0 when unknown (then nothing counts as slashable). */
  closeTime: number
  /** The connected wallet's address, to mark its own record. */
  me: string | undefined
  /** Executor contract → its owner, for the executors whose `owner()` was read. */
  owners?: Readonly<Record<string, string>>
}

export interface KeeperRow {
  /** The registry record's `operator` field: the address that registered (the row's key). */
  registered: string
  /** The account that runs the keeper: the registered account, or the executor's owner; undefined when not read. */
  operator: string | undefined
  /** The executor contract the keeper registered through, undefined when it registered its own account. */
  executor: string | undefined
  operatorShort: string
  name: string
  /** The keeper's bond: its stake in the registry. */
  stake: bigint
  /** The largest two-step draw the bond backs (`draw_limit`, what a slash can still recover after the penalty). */
  drawLimit: bigint
  executions: number
  fills: number
  /** fills / executions as a percentage, '—' before the first execution. */
  winRate: string
  /** The registry's running mean of the reported fill delays (ms), undefined before the first execution. */
  avgDelayMs: number | undefined
  /** `avgDelayMs` in words: '—', '0 s (on time)', '850 ms', '12.5 s', '2 min 5 s'. */
  avgDelay: string
  /** The outstanding draw, undefined when none. */
  draw: bigint | undefined
  /** Seconds since the draw was marked (ledger time), undefined when none or the clock is unknown. */
  drawAgeSeconds: number | undefined
  /** The draw age in words, '—' when there is none. */
  drawAge: string
  /** When the draw was marked, on the ledger clock; undefined when there is none. */
  drawSince: string | undefined
  /** A draw older than slash_timeout on a keeper not yet slashed: `slash` would succeed. */
  slashable: boolean
  slashed: boolean
  /** The connected wallet's own record. */
  mine: boolean
}

/** A contract (C…) rather than an account (G…). */
export const isContractAddress = (address: string): boolean => address.startsWith('C')

/**
 * A fill delay in words. The registry's `avg_response_time_ms` is the running mean of what each
 * keeper reports with its returns: the close time of the fill's ledger minus that of the ledger
 * it planned the fill for, 0 when the fill landed on time.
 */
export function formatDelay(ms: number | undefined): string {
  if (ms === undefined) return '—'
  if (ms <= 0) return '0 s (on time)'
  if (ms < 1000) return `${Math.round(ms)} ms`
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`
  return formatDuration(ms / 1000)
}

/** One table row for `k`. */
export function keeperRow(k: KeeperInfo, ctx: KeeperRowContext): KeeperRow {
  const hasDraw = k.hasActiveDraw && k.drawAmount > 0n
  const drawAgeSeconds = hasDraw && ctx.closeTime > 0 ? Math.max(0, ctx.closeTime - k.drawTimestamp) : undefined
  const executor = isContractAddress(k.operator) ? k.operator : undefined
  const operator = executor === undefined ? k.operator : ctx.owners?.[executor]
  const avgDelayMs = k.totalExecutions > 0 ? k.avgResponseTimeMs : undefined
  return {
    registered: k.operator,
    operator,
    executor,
    operatorShort: operator === undefined ? '—' : shortAddress(operator),
    name: k.name,
    stake: k.stake,
    drawLimit: k.drawLimit,
    executions: k.totalExecutions,
    fills: k.successfulFills,
    winRate: formatPercent(k.totalExecutions > 0 ? k.successfulFills / k.totalExecutions : null),
    avgDelayMs,
    avgDelay: formatDelay(avgDelayMs),
    draw: hasDraw ? k.drawAmount : undefined,
    drawAgeSeconds,
    drawAge: drawAgeSeconds === undefined ? '—' : formatDuration(drawAgeSeconds),
    drawSince: hasDraw && k.drawTimestamp > 0 ? formatLedgerTime(k.drawTimestamp) : undefined,
    // The registry slashes when now - draw_timestamp > slash_timeout (strictly more).
    slashable: k.hasActiveDraw && !k.slashed && drawAgeSeconds !== undefined && drawAgeSeconds > ctx.slashTimeout,
    slashed: k.slashed,
    mine: ctx.me !== undefined && k.operator === ctx.me,
  }
}

/** Every keeper's row, in the registry's order (registration order). */
export function keeperRows(keepers: readonly KeeperInfo[], ctx: KeeperRowContext): KeeperRow[] {
  return keepers.map((k) => keeperRow(k, ctx))
}

/** The connected wallet's own record, if it is a registered keeper. */
export function ownKeeper(keepers: readonly KeeperInfo[], me: string | undefined): KeeperInfo | undefined {
  return me === undefined ? undefined : keepers.find((k) => k.operator === me)
}
