/**
 * A keeper's live event stream, GET /api/events (src/keeper/routes/events.ts): Server-Sent Events
 * with `id`, `event: <kind>` and `data: <KeeperEvent JSON>`, plus `event: heartbeat` every 15 s.
 * It is opened with `?backlog=BACKLOG`, so it starts with the recent events the keeper keeps (a
 * keeper too old for the parameter ignores it and sends only new ones); every reconnection sends
 * them again, and the log store drops the lines it already has.
 *
 * Named events reach only listeners for their name (not `onmessage`), so the stream listens for
 * every kind the keeper emits (KEEPER_EVENT_KINDS). One kind is called `error`, the name
 * EventSource also uses for a broken connection: a `MessageEvent` with data is the keeper's log
 * line, a bare `Event` is the connection failing. On failure the EventSource is closed (so the
 * browser's own fixed-delay retry does not run too) and reopened after logic/backoff.ts's
 * exponential, capped delay; the attempt count resets once a stream opens.
 */
import { DEFAULT_BACKOFF, backoffDelay, type BackoffPolicy } from '../logic/backoff.js'
import { apiUrl, keeperEventSchema, type KeeperEvent } from './keeperApi.js'

/** How many recent events a stream asks the keeper for first (the keeper keeps its last 200). */
export const BACKLOG = 200

/** Every `kind` the keeper's event log uses (src/keeper: loop, engine, adapters, runtime). */
export const KEEPER_EVENT_KINDS = [
  'scan',
  'plan',
  'progress',
  'auction',
  'draw',
  'fill',
  'fill_lost',
  'miss',
  'swap_failed',
  'rebalance',
  'recovery',
  'register',
  'lifecycle',
  'event',
  'message',
] as const

export type StreamStatus =
  | { state: 'connecting'; attempt: number }
  | { state: 'open'; since: number }
  | { state: 'retrying'; attempt: number; inMs: number }
  | { state: 'closed' }

/** The part of EventSource the stream uses (a test passes a fake). */
export interface EventSourceLike {
  addEventListener(type: string, listener: (e: Event) => void): void
  close(): void
}

export interface StreamHandlers {
  onEvent: (event: KeeperEvent) => void
  onStatus: (status: StreamStatus) => void
  /** The time the keeper put in its last heartbeat. */
  onHeartbeat?: (ts: string) => void
}

export interface StreamOptions {
  backoff?: BackoffPolicy
  createEventSource?: (url: string) => EventSourceLike
  setTimer?: (f: () => void, ms: number) => unknown
  clearTimer?: (handle: unknown) => void
  now?: () => number
}

function isMessage(e: Event): e is MessageEvent<string> {
  return typeof (e as Partial<MessageEvent>).data === 'string'
}

/** A line from an SSE message: the keeper's JSON, or the raw text under the event's name when it is not. */
export function toKeeperEvent(e: MessageEvent<string>, fallbackId: number): KeeperEvent {
  try {
    const parsed = keeperEventSchema.safeParse(JSON.parse(e.data))
    if (parsed.success) return parsed.data
  } catch {
    // not JSON: shown as text below
  }
  return { id: fallbackId, ts: new Date().toISOString(), kind: e.type, message: e.data }
}

/** Opens `<base>/api/events` and keeps it open until the returned function is called. */
export function openKeeperStream(base: string, handlers: StreamHandlers, options: StreamOptions = {}): () => void {
  const create = options.createEventSource ?? ((url: string) => new EventSource(url))
  const setTimer = options.setTimer ?? ((f, ms) => setTimeout(f, ms))
  const clearTimer = options.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>))
  const now = options.now ?? Date.now
  const policy = options.backoff ?? DEFAULT_BACKOFF
  let attempt = 0
  let source: EventSourceLike | undefined
  let timer: unknown
  let closed = false
  let unparsed = 0

  const deliver = (e: Event) => {
    if (isMessage(e)) handlers.onEvent(toKeeperEvent(e, --unparsed))
  }

  const fail = () => {
    if (closed || source === undefined) return
    source.close()
    source = undefined
    const inMs = backoffDelay(attempt, policy)
    attempt++
    handlers.onStatus({ state: 'retrying', attempt, inMs })
    timer = setTimer(connect, inMs)
  }

  function connect() {
    timer = undefined
    if (closed) return
    handlers.onStatus({ state: 'connecting', attempt })
    let es: EventSourceLike
    try {
      es = create(apiUrl(base, `/api/events?backlog=${BACKLOG}`))
    } catch {
      // A malformed URL throws synchronously: retry like any other failure.
      source = { addEventListener: () => undefined, close: () => undefined }
      fail()
      return
    }
    source = es
    es.addEventListener('open', () => {
      if (source !== es) return
      attempt = 0
      handlers.onStatus({ state: 'open', since: now() })
    })
    for (const kind of KEEPER_EVENT_KINDS) es.addEventListener(kind, (e) => source === es && deliver(e))
    es.addEventListener('heartbeat', (e) => {
      if (source !== es || !isMessage(e)) return
      try {
        const ts = (JSON.parse(e.data) as { ts?: unknown }).ts
        handlers.onHeartbeat?.(typeof ts === 'string' ? ts : new Date(now()).toISOString())
      } catch {
        handlers.onHeartbeat?.(new Date(now()).toISOString())
      }
    })
    es.addEventListener('error', (e) => {
      if (source !== es) return
      if (isMessage(e)) deliver(e)
      else fail()
    })
  }

  connect()
  return () => {
    closed = true
    if (timer !== undefined) clearTimer(timer)
    source?.close()
    source = undefined
    handlers.onStatus({ state: 'closed' })
  }
}
