import { createHash, timingSafeEqual } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import type { KeeperEvent } from '../state/events.js'

/**
 * Strategy details (planned executions: target ledgers, capital, priorities, progress; the
 * `plan` and `progress` events that carry the same) tell a competitor when to fire a ledger
 * earlier. They are served only to a request with `Authorization: Bearer <API_TOKEN>`; without
 * a token configured, to nobody.
 */
export const STRATEGY_EVENT_KINDS: ReadonlySet<string> = new Set(['plan', 'progress'])

export function isStrategyEvent(ev: Pick<KeeperEvent, 'kind'>): boolean {
  return STRATEGY_EVENT_KINDS.has(ev.kind)
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest()

/**
 * True when `headers` carry `Authorization: Bearer <token>`. The comparison is constant-time on
 * equal-length SHA-256 digests, so neither the token's length nor its prefix leaks.
 */
export function hasToken(headers: IncomingHttpHeaders, token: string | undefined): boolean {
  if (token === undefined) return false
  const m = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')
  const given = m?.[1] ?? ''
  // Compared even when absent, so a missing header takes the same time as a wrong one.
  return timingSafeEqual(digest(given), digest(token)) && m !== null
}
