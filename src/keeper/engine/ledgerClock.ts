/**
 * Where the engine learns that ledgers closed. The daemon watches the RPC; the simulation harness
 * drives a {@link ManualLedgerClock} in lockstep with the ledgers it closes itself. The clock
 * also says how long a ledger takes (`ledgerMs`): the pace of the closes it saw, or the network's
 * ledger time as src/chain/ledgerTime reads it.
 */
import { DEFAULT_LEDGER_MS, observedIntervalMs } from '../../chain/ledgerTime.js'

export interface LedgerInfo {
  sequence: number
  /** Close time in milliseconds since the epoch (the chain's close time, 1 s resolution). */
  closeTimeMs: number
}

export interface LedgerClock {
  /** The latest closed ledger as known now (a fresh read for the RPC clock). */
  latest(): Promise<LedgerInfo>
  /** Calls `listener` for every newer latest ledger seen (numbers may skip). Returns unsubscribe. */
  subscribe(listener: (ledger: LedgerInfo) => void): () => void
  /** Resolves once the latest closed ledger is at least `sequence`. */
  waitFor(sequence: number, signal?: AbortSignal): Promise<LedgerInfo>
  /** Close time of a ledger already closed (ms), when the clock knows it. */
  closeTimeOf(sequence: number): Promise<number | undefined>
  /** The average ledger interval over the ledgers seen (ms), when at least two were seen. */
  intervalMs(): number | undefined
  /**
   * The ledger time to schedule with (ms): the interval over the ledgers seen once they span
   * {@link OBSERVED_SPAN} ledgers (close times are whole seconds: 2.5 s ledgers are 2 s and 3 s
   * apart), else the network's value given to {@link LedgerClock.setNetworkMs}, else
   * DEFAULT_LEDGER_MS.
   */
  ledgerMs(): number
  /** The network's ledger time as read from the node (src/chain readLedgerTime). */
  setNetworkMs(ms: number): void
}

/** Ledgers the seen closes must span before their pace replaces the network's stated ledger time. */
export const OBSERVED_SPAN = 8

/** The RPC calls the RPC clock makes (an `rpc.Server` has them). */
export interface LedgerSource {
  getLatestLedger(): Promise<{ sequence: number; closeTime?: string | number }>
  getLedgers?(req: { startLedger: number; pagination?: { limit?: number } }): Promise<{ ledgers: { sequence: number; ledgerCloseTime: string | number }[] }>
}

const KEEP = 512

/** Base: listeners, waiters and a small memory of close times. */
abstract class ClockBase implements LedgerClock {
  protected current: LedgerInfo | undefined
  private readonly listeners = new Set<(l: LedgerInfo) => void>()
  private waiters: { sequence: number; resolve: (l: LedgerInfo) => void }[] = []
  protected readonly closes = new Map<number, number>()
  private networkMs: number | undefined

  abstract latest(): Promise<LedgerInfo>
  protected abstract started(): void
  protected abstract idle(): void

  /** Records a newly seen ledger and tells everyone waiting. */
  protected observe(l: LedgerInfo): void {
    if (this.current !== undefined && l.sequence <= this.current.sequence) return
    this.current = l
    this.closes.set(l.sequence, l.closeTimeMs)
    if (this.closes.size > KEEP) this.closes.delete(this.closes.keys().next().value!)
    const ready = this.waiters.filter((w) => w.sequence <= l.sequence)
    this.waiters = this.waiters.filter((w) => w.sequence > l.sequence)
    for (const w of ready) w.resolve(l)
    for (const f of [...this.listeners]) f(l)
    this.maybeIdle()
  }

  subscribe(listener: (ledger: LedgerInfo) => void): () => void {
    this.listeners.add(listener)
    this.started()
    return () => {
      this.listeners.delete(listener)
      this.maybeIdle()
    }
  }

  waitFor(sequence: number, signal?: AbortSignal): Promise<LedgerInfo> {
    if (this.current !== undefined && this.current.sequence >= sequence) return Promise.resolve(this.current)
    return new Promise<LedgerInfo>((resolve, reject) => {
      const w = { sequence, resolve }
      this.waiters.push(w)
      signal?.addEventListener(
        'abort',
        () => {
          this.waiters = this.waiters.filter((x) => x !== w)
          this.maybeIdle()
          reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'))
        },
        { once: true },
      )
      this.started()
    })
  }

  async closeTimeOf(sequence: number): Promise<number | undefined> {
    return this.closes.get(sequence)
  }

  intervalMs(): number | undefined {
    return observedIntervalMs(this.closes)
  }

  ledgerMs(): number {
    let lo = Infinity
    let hi = -Infinity
    for (const seq of this.closes.keys()) {
      lo = Math.min(lo, seq)
      hi = Math.max(hi, seq)
    }
    const observed = hi - lo >= OBSERVED_SPAN ? this.intervalMs() : undefined
    return observed ?? this.networkMs ?? DEFAULT_LEDGER_MS
  }

  setNetworkMs(ms: number): void {
    if (!(Number.isFinite(ms) && ms > 0)) throw new RangeError(`a ledger time must be a positive number of ms, got ${ms}`)
    this.networkMs = ms
  }

  protected busy(): boolean {
    return this.listeners.size > 0 || this.waiters.length > 0
  }

  private maybeIdle(): void {
    if (!this.busy()) this.idle()
  }
}

/**
 * Polls `getLatestLedger` every `pollMs` while anyone listens or waits (a keeper with nothing
 * planned still listens: the engine subscribes for its whole life).
 */
export class RpcLedgerClock extends ClockBase {
  private timer: NodeJS.Timeout | undefined
  private polling = false

  constructor(
    private readonly source: LedgerSource,
    private readonly pollMs = 250,
    private readonly onError: (err: unknown) => void = () => {},
  ) {
    super()
  }

  async latest(): Promise<LedgerInfo> {
    const l = await this.source.getLatestLedger()
    const info = { sequence: l.sequence, closeTimeMs: closeMs(l.closeTime) }
    this.observe(info)
    return this.current ?? info
  }

  override async closeTimeOf(sequence: number): Promise<number | undefined> {
    const known = await super.closeTimeOf(sequence)
    if (known !== undefined || this.source.getLedgers === undefined) return known
    try {
      const r = await this.source.getLedgers({ startLedger: sequence, pagination: { limit: 1 } })
      const l = r.ledgers.find((x) => x.sequence === sequence)
      if (l === undefined) return undefined
      const ms = closeMs(l.ledgerCloseTime)
      this.closes.set(sequence, ms)
      return ms
    } catch (err) {
      this.onError(err)
      return undefined
    }
  }

  protected started(): void {
    if (this.timer !== undefined || this.polling) return
    this.schedule(0)
  }

  protected idle(): void {
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = undefined
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined
      this.polling = true
      this.latest()
        .catch(this.onError)
        .finally(() => {
          this.polling = false
          if (this.busy()) this.schedule(this.pollMs)
        })
    }, ms)
    this.timer.unref?.()
  }
}

/** A clock the caller moves: the simulation harness and tests close ledgers and tell it. */
export class ManualLedgerClock extends ClockBase {
  constructor(start: LedgerInfo) {
    super()
    this.observe(start)
  }

  async latest(): Promise<LedgerInfo> {
    return this.current!
  }

  /** A ledger closed. */
  set(l: LedgerInfo): void {
    this.observe(l)
  }

  protected started(): void {}
  protected idle(): void {}
}

function closeMs(t: string | number | undefined): number {
  if (t === undefined) return Date.now()
  const n = typeof t === 'number' ? t : Number(t)
  if (Number.isFinite(n)) return n * 1000
  const d = Date.parse(String(t))
  return Number.isFinite(d) ? d : Date.now()
}
