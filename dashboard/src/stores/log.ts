/**
 * The live log store: one event stream per configured keeper API (clients/events.ts), their lines
 * merged in arrival order (newest last, at most LOG_CAP kept), and each stream's connection
 * status. Each stream opens with the keeper's recent events, so the log starts with history; a
 * line already shown (a reconnection sends the recent events again) is not added twice. Streams
 * open when the keeper list is known and close with the owner or when it changes.
 */
import { createEffect, createSignal, on, onCleanup } from 'solid-js'
import { openKeeperStream, type StreamOptions, type StreamStatus } from '../clients/events.js'
import type { KeeperEvent } from '../clients/keeperApi.js'

/** Lines kept; older ones drop off the top. */
export const LOG_CAP = 500

export interface LogLine {
  /** Unique within the log: keeper index, event id and time (a restarted keeper counts ids from 1 again). */
  key: string
  /** The keeper's ISO time of the event. */
  time: string
  keeper: string
  kind: string
  summary: string
  /** The ledger the event names (`data.ledger`, e.g. a progress line), when it names one. */
  ledger?: number
}

export interface StreamView {
  url: string
  keeper: string
  status: StreamStatus
  /** The keeper's time in its last heartbeat. */
  heartbeat: string | undefined
}

/** A keeper's short name in the log: its API's host and port. */
export function keeperLabel(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}

/** `lines` with those of `added` it does not have yet at the end, keeping the last `cap`. */
export function appendLines(lines: readonly LogLine[], added: readonly LogLine[], cap = LOG_CAP): LogLine[] {
  const have = new Set(lines.map((l) => l.key))
  const fresh = added.filter((l) => !have.has(l.key) && have.add(l.key))
  if (fresh.length === 0) return lines as LogLine[]
  const all = [...lines, ...fresh]
  return all.length > cap ? all.slice(all.length - cap) : all
}

/** A routine line: a scan, which says only how many tasks a poll found. Hidden from the log by default. */
export function isRoutine(line: Pick<LogLine, 'kind'>): boolean {
  return line.kind === 'scan'
}

export function toLogLine(index: number, keeper: string, e: KeeperEvent): LogLine {
  const ledger = e.data?.ledger
  return {
    key: `${index}:${e.id}:${e.ts}`,
    time: e.ts,
    keeper,
    kind: e.kind,
    summary: e.message,
    ...(typeof ledger === 'number' && Number.isSafeInteger(ledger) ? { ledger } : {}),
  }
}

/** The status in words: `connected`, `connecting…`, `retrying in 4 s (attempt 3)`, `closed`. */
export function statusText(s: StreamStatus): string {
  switch (s.state) {
    case 'open':
      return 'connected'
    case 'connecting':
      return s.attempt === 0 ? 'connecting…' : `reconnecting… (attempt ${s.attempt + 1})`
    case 'retrying':
      return `disconnected, retrying in ${Math.ceil(s.inMs / 1000)} s (attempt ${s.attempt})`
    case 'closed':
      return 'closed'
  }
}

export interface LogStore {
  lines: () => LogLine[]
  streams: () => StreamView[]
  clear: () => void
}

export function createLogStore(urls: () => readonly string[], options: StreamOptions = {}): LogStore {
  const [lines, setLines] = createSignal<LogLine[]>([])
  const [streams, setStreams] = createSignal<StreamView[]>([])
  const key = () => urls().join('\n')

  createEffect(
    on(key, (joined) => {
      const list = joined === '' ? [] : joined.split('\n')
      setStreams(list.map((url) => ({ url, keeper: keeperLabel(url), status: { state: 'connecting', attempt: 0 }, heartbeat: undefined })))
      const update = (i: number, patch: Partial<StreamView>) => setStreams((all) => all.map((s, j) => (j === i ? { ...s, ...patch } : s)))
      const closers = list.map((url, i) =>
        openKeeperStream(
          url,
          {
            onEvent: (e) => setLines((all) => appendLines(all, [toLogLine(i, keeperLabel(url), e)])),
            onStatus: (status) => update(i, { status }),
            onHeartbeat: (heartbeat) => update(i, { heartbeat }),
          },
          options,
        ),
      )
      onCleanup(() => {
        for (const close of closers) close()
      })
    }),
  )

  return { lines, streams, clear: () => setLines([]) }
}
