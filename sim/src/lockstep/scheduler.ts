/**
 * The agents' I/O, delivered in an order that is a function of the run.
 *
 * Every chain call an agent makes goes out at once (calls of one ledger run concurrently on the
 * node, whose state only changes at a close), but its answer is held here. `settle` hands the
 * held answers back in rounds: it waits until no call is on the wire, then releases everything
 * held, in an order drawn from the seed and the call's ticket (its place in the sequence of
 * calls, itself a product of earlier releases), and lets the continuations run until each is
 * waiting on its next call. A ledger is done when a round leaves nothing on the wire and nothing
 * held. Between releases no agent code runs, so which answer came back first over the socket
 * never matters, however busy the machine is.
 *
 * Waits that only a close can end (a transaction's result, a timer due after the ledger) are
 * parked: their wake-up is held like an answer and released by the next round after the close.
 * Timers run on simulated time: within a ledger, time advances only to the next due timer once
 * nothing else can move. Sends are serialized in ticket order, so the node sees one account's
 * transactions in the order they were made.
 *
 * What this relies on: agents wait on nothing but this scheduler (chain calls through SimRpc,
 * sleeps through the chain clock, ledger clock waits that the loop ends synchronously). Everything
 * else they do between two waits is computation, which the microtask queue runs to completion
 * before the macrotask `settle` waits on.
 */
import type { ChainClock } from '../../../src/chain/index.js'
import { keyedUniform } from './keyed.js'
import { SharedReads } from './sharedReads.js'

interface Held {
  ticket: number
  rank: number
  release: () => void
}

interface Timer {
  ticket: number
  /** Milliseconds after the current ledger opened. */
  due: number
  release: () => void
}

const turn = () => new Promise<void>((r) => setImmediate(r))

export class Scheduler {
  /** Before the lockstep starts (set up on a node that closes a ledger per transaction), answers pass straight through. */
  direct = true
  private tickets = 0
  private onWire = 0
  private held: Held[] = []
  private timers: Timer[] = []
  private wireEmpty: (() => void) | undefined
  private sends: Promise<unknown> = Promise.resolve()
  /** Simulated milliseconds since the current ledger opened. */
  private elapsed = 0
  /** Identical reads of the ledger being built, made once (sharedReads.ts). */
  readonly reads = new SharedReads()

  constructor(
    private readonly seed: number,
    private readonly ledgerMs: number,
  ) {}

  /** Simulated milliseconds since the ledger being built opened. */
  get sinceOpen(): number {
    return this.elapsed
  }

  /**
   * Starts `request` now and hands its outcome back when `settle` releases it. `serial` requests
   * reach the node one at a time, in the order they were made.
   */
  call<T>(request: () => Promise<T>, serial = false): Promise<T> {
    if (this.direct) return request()
    const ticket = this.tickets++
    this.onWire++
    let sent: Promise<T>
    if (serial) {
      sent = this.sends.then(request)
      this.sends = sent.catch(() => {})
    } else {
      sent = request()
    }
    return new Promise<T>((resolve, reject) => {
      const landed = (release: () => void) => {
        this.hold(ticket, release)
        if (--this.onWire === 0) this.wireEmpty?.()
      }
      sent.then(
        (v) => landed(() => resolve(v)),
        (e: unknown) => landed(() => reject(e)),
      )
    })
  }

  /** A wait only a close can end: its end is handed back by the first round after it. */
  park<T>(wait: Promise<T>): Promise<T> {
    if (this.direct) return wait
    const ticket = this.tickets++
    return new Promise<T>((resolve, reject) => {
      wait.then(
        (v) => this.hold(ticket, () => resolve(v)),
        (e: unknown) => this.hold(ticket, () => reject(e)),
      )
    })
  }

  /** Sleeps `ms` of simulated time. */
  sleep(ms: number): Promise<void> {
    if (this.direct) return new Promise<void>((r) => setTimeout(r, ms))
    const ticket = this.tickets++
    return new Promise<void>((resolve) => this.timers.push({ ticket, due: this.elapsed + Math.max(0, ms), release: resolve }))
  }

  /** Resolves once every agent waits on something only a close (or nothing) can end. */
  async settle(): Promise<void> {
    for (;;) {
      await this.wireQuiet()
      if (this.held.length === 0 && !this.fireTimers()) return
      const round = this.held.sort((a, b) => a.rank - b.rank || a.ticket - b.ticket)
      this.held = []
      for (const h of round) h.release()
      await turn()
    }
  }

  /**
   * A read whose answer only a close can change: in the lockstep, the same `key` asked again
   * before the next close takes the first request's answer. Before and after the lockstep
   * (ledgers close with every transaction) each request goes to the node.
   */
  shared<T>(key: string, request: () => Promise<T>): Promise<T> {
    return this.direct ? request() : this.reads.read(key, request)
  }

  /** `count` ledgers closed: simulated time moves on by their length. */
  closed(count = 1): void {
    this.reads.clear()
    const passed = this.ledgerMs * count
    this.elapsed = 0
    for (const t of this.timers) t.due = Math.max(0, t.due - passed)
  }

  /** The run is over: whatever is held is released, and from now on answers pass straight through. */
  finish(): void {
    this.direct = true
    const rest = [...this.held.sort((a, b) => a.rank - b.rank || a.ticket - b.ticket), ...this.timers]
    this.held = []
    this.timers = []
    for (const h of rest) h.release()
  }

  private hold(ticket: number, release: () => void): void {
    // After `finish`, what was still on the wire goes straight through.
    if (this.direct) return release()
    this.held.push({ ticket, rank: keyedUniform(this.seed, 'release', ticket), release })
  }

  /** Moves simulated time to the next timer due in this ledger and holds every timer due then. */
  private fireTimers(): boolean {
    let next = Infinity
    for (const t of this.timers) next = Math.min(next, t.due)
    if (next >= this.ledgerMs) return false
    this.elapsed = Math.max(this.elapsed, next)
    const due = this.timers.filter((t) => t.due <= this.elapsed).sort((a, b) => a.due - b.due || a.ticket - b.ticket)
    this.timers = this.timers.filter((t) => t.due > this.elapsed)
    for (const t of due) this.hold(t.ticket, t.release)
    return true
  }

  /** Until no call is on the wire and the callbacks of the last ones have run. */
  private async wireQuiet(): Promise<void> {
    for (;;) {
      if (this.onWire > 0) await new Promise<void>((r) => (this.wireEmpty = r))
      this.wireEmpty = undefined
      await turn()
      if (this.onWire === 0) return
    }
  }
}

/** The clock an agent's chain client runs on: the latest close plus the time simulated since. */
export function simulatedClock(scheduler: Scheduler, closeMs: () => number): ChainClock {
  return { now: () => closeMs() + scheduler.sinceOpen, sleep: (ms) => scheduler.sleep(ms) }
}
