import { EventEmitter } from 'node:events'

/** One line of the keeper's event log (scans, fills, draws, recoveries, errors). */
export interface KeeperEvent {
  id: number
  /** ISO-8601 time. */
  ts: string
  kind: string
  message: string
  data?: Record<string, unknown>
}

/**
 * In-memory event log: keeps the most recent `capacity` lines for /api/state and pushes each new
 * line to live subscribers (/api/events).
 */
export class EventLog {
  private readonly lines: KeeperEvent[] = []
  private readonly emitter = new EventEmitter()
  private nextId = 1

  constructor(private readonly capacity = 200) {
    this.emitter.setMaxListeners(0)
  }

  push(kind: string, message: string, data?: Record<string, unknown>): KeeperEvent {
    const ev: KeeperEvent = { id: this.nextId++, ts: new Date().toISOString(), kind, message, ...(data ? { data } : {}) }
    this.lines.push(ev)
    if (this.lines.length > this.capacity) this.lines.splice(0, this.lines.length - this.capacity)
    this.emitter.emit('event', ev)
    return ev
  }

  /** The last `n` lines, oldest first. */
  recent(n = 50): KeeperEvent[] {
    return this.lines.slice(-n)
  }

  subscribe(listener: (ev: KeeperEvent) => void): () => void {
    this.emitter.on('event', listener)
    return () => this.emitter.off('event', listener)
  }
}
