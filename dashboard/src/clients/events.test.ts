import { createRoot } from 'solid-js'
import { describe, expect, it } from 'vitest'
import { createLogStore } from '../stores/log.js'
import { openKeeperStream, type EventSourceLike, type StreamStatus } from './events.js'

/** A scripted EventSource: the test fires open, named messages and connection errors. */
class FakeSource implements EventSourceLike {
  listeners = new Map<string, ((e: Event) => void)[]>()
  closed = false
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (e: Event) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener])
  }
  close() {
    this.closed = true
  }
  fire(type: string, data?: unknown) {
    const e = data === undefined ? new Event(type) : new MessageEvent(type, { data: typeof data === 'string' ? data : JSON.stringify(data) })
    for (const l of this.listeners.get(type) ?? []) l(e)
  }
}

function harness() {
  const sources: FakeSource[] = []
  const timers: { f: () => void; ms: number }[] = []
  const options = {
    createEventSource: (url: string) => {
      const s = new FakeSource(url)
      sources.push(s)
      return s
    },
    setTimer: (f: () => void, ms: number) => timers.push({ f, ms }),
    clearTimer: () => undefined,
    now: () => 42,
  }
  return { sources, timers, options }
}

const event = (id: number, kind: string, message: string) => ({ id, ts: '2025-01-01T00:00:00.000Z', kind, message })

describe('openKeeperStream', () => {
  it('delivers named events, tells the keeper’s own "error" lines from a broken connection, and backs off exponentially', () => {
    const h = harness()
    const seen: string[] = []
    const statuses: StreamStatus[] = []
    const close = openKeeperStream('http://k:8080/', { onEvent: (e) => seen.push(`${e.kind}:${e.message}`), onStatus: (s) => statuses.push(s) }, h.options)
    expect(h.sources[0]!.url).toBe('http://k:8080/api/events?backlog=200')
    h.sources[0]!.fire('open')
    h.sources[0]!.fire('scan', event(1, 'scan', 'blend: 2 task(s)'))
    h.sources[0]!.fire('error', event(2, 'error', 'planning failed'))
    expect(seen).toEqual(['scan:blend: 2 task(s)', 'error:planning failed'])
    expect(h.sources[0]!.closed).toBe(false)

    // Three failures in a row: 1 s, 2 s, 4 s.
    for (let i = 0; i < 3; i++) {
      h.sources[i]!.fire('error')
      expect(h.sources[i]!.closed).toBe(true)
      h.timers[i]!.f()
    }
    expect(h.timers.map((t) => t.ms)).toEqual([1_000, 2_000, 4_000])
    // Opening resets the schedule.
    h.sources[3]!.fire('open')
    h.sources[3]!.fire('error')
    expect(h.timers.at(-1)!.ms).toBe(1_000)
    expect(statuses.filter((s) => s.state === 'open')).toHaveLength(2)

    close()
    expect(statuses.at(-1)).toEqual({ state: 'closed' })
  })

  it('reports heartbeats, ignores a closed source, and shows a non-JSON line as text', () => {
    const h = harness()
    const seen: string[] = []
    const beats: string[] = []
    openKeeperStream('http://k', { onEvent: (e) => seen.push(`${e.kind}:${e.message}`), onStatus: () => undefined, onHeartbeat: (ts) => beats.push(ts) }, h.options)
    h.sources[0]!.fire('heartbeat', { ts: '2025-01-01T00:00:15.000Z' })
    h.sources[0]!.fire('message', 'plain text')
    h.sources[0]!.fire('error')
    h.sources[0]!.fire('fill', event(3, 'fill', 'late')) // the old source is gone
    expect(beats).toEqual(['2025-01-01T00:00:15.000Z'])
    expect(seen).toEqual(['message:plain text'])
  })
})

describe('createLogStore', () => {
  it('opens one stream per keeper, merges their lines newest last, and closes them with its owner', () => {
    const h = harness()
    const { log, dispose } = createRoot((dispose) => ({ log: createLogStore(() => ['http://a:1', 'http://b:2'], h.options), dispose }))
    expect(h.sources.map((s) => s.url)).toEqual(['http://a:1/api/events?backlog=200', 'http://b:2/api/events?backlog=200'])
    h.sources[0]!.fire('open')
    h.sources[1]!.fire('scan', event(1, 'scan', 'from b'))
    h.sources[0]!.fire('fill', event(1, 'fill', 'from a'))
    expect(log.lines().map((l) => `${l.keeper} ${l.kind} ${l.summary}`)).toEqual(['b:2 scan from b', 'a:1 fill from a'])
    expect(log.streams().map((s) => s.status.state)).toEqual(['open', 'connecting'])
    dispose()
    expect(h.sources.every((s) => s.closed)).toBe(true)
  })
})
