/**
 * The keepers table, derived from the registry's records and the ledger clock: win rate, the age
 * of an active draw, and whether anyone may slash the keeper now.
 */
import { formatPercent } from '../../../src/core/index.js'
import type { KeeperInfo } from '../../../src/chain/records/index.js'
import { shortAddress } from './address.js'
import { formatDuration } from './time.js'

export interface KeeperRowContext {
  /** Registry `slash_timeout` (s): a draw strictly older than this may be slashed. */
  slashTimeout: number
  /** Latest ledger close time (s); 0 when unknown (then nothing counts as slashable). */
  closeTime: number
  /** The connected wallet's address, to mark its own record. */
  me: string | undefined
}

export interface KeeperRow {
  operator: string
  operatorShort: string
  name: string
  stake: bigint
  executions: number
  fills: number
  /** fills / executions as a percentage, '—' before the first execution. */
  winRate: string
  avgResponseMs: number
  /** The outstanding draw, undefined when none. */
  draw: bigint | undefined
  /** Seconds since the draw was marked (ledger time), undefined when none or the clock is unknown. */
  drawAgeSeconds: number | undefined
  /** The draw age in words, '—' when there is none. */
  drawAge: string
  /** A draw older than slash_timeout on a keeper not yet slashed: `slash` would succeed. */
  slashable: boolean
  slashed: boolean
  /** The connected wallet's own record. */
  mine: boolean
}

/** One table row for `k`. */
export function keeperRow(k: KeeperInfo, ctx: KeeperRowContext): KeeperRow {
  const hasDraw = k.hasActiveDraw && k.drawAmount > 0n
  const drawAgeSeconds = hasDraw && ctx.closeTime > 0 ? Math.max(0, ctx.closeTime - k.drawTimestamp) : undefined
  return {
    operator: k.operator,
    operatorShort: shortAddress(k.operator),
    name: k.name,
    stake: k.stake,
    executions: k.totalExecutions,
    fills: k.successfulFills,
    winRate: formatPercent(k.totalExecutions > 0 ? k.successfulFills / k.totalExecutions : null),
    avgResponseMs: k.avgResponseTimeMs,
    draw: hasDraw ? k.drawAmount : undefined,
    drawAgeSeconds,
    drawAge: drawAgeSeconds === undefined ? '—' : formatDuration(drawAgeSeconds),
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
