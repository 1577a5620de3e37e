/**
 * The vault store: the books (`get_state`) and settings (`get_config`), the share-price history,
 * refreshed every few seconds, and the figures and chart the Vault view shows.
 *
 * The share price is priced on free assets: total_usdc less the profit still locked (src/core
 * `lockedProfit` / `freeAssets`), the basis the vault itself prices deposits, withdrawals and
 * balances on. Booked profit unlocks linearly over `profit_unlock_secs`, so the price climbs
 * between events while a lock runs and steps only where the books do (a write-off's loss).
 *
 * Share-price history. The vault's events do not carry its totals, only deltas: a deposit its
 * amount and the shares minted (plus the dead shares of the first one), a withdrawal the shares
 * burnt and the USDC paid, a return or flash draw its booked profit and the keeper's fee, a
 * write-off what it wrote down and what the slash recovered. So the totals are reconstructed by
 * replaying the events backward from the books read now (src/audit's `replayBackward`, the
 * inverse of contracts/vault's arithmetic), and the profit lock at each event is rebuilt from the
 * bookings (src/audit's `profitLocks`, src/core `bookProfit`): from the empty lock when the node
 * keeps the whole history; otherwise only after the last booking the node still has, and the
 * events before it give no point. Each deposit, withdrawal, return, flash draw and write-off
 * gives one point (its ledger's close time, core `sharePrice` of the free assets after it; a
 * write-off also the price just before it), each lock that runs out between two events a point
 * where it does ("unlocked"), and a last point at the latest ledger's close time holds the
 * current price. Between points the price moves linearly.
 */
import type { ChartConfiguration } from 'chart.js'
import { createMemo, createResource, onCleanup } from 'solid-js'
import { MISSING, apyDisplay, sharePrice, type ApyDisplayReturnType, type ProfitLock, type SharePricePoint } from '../../../src/core/index.js'
import { freeTotals, profitLocks, replayBackward, type Totals } from '../../../src/audit/invariants/replay.js'
import { formatAmount } from '../logic/amounts.js'
import { keeperFeeText, lockedProfitText } from '../logic/profitLock.js'
import { formatLedgerDateTime, utcDateTime } from '../logic/time.js'
import type { Reads } from '../clients/chain.js'
import type { VaultBooks, VaultEventsReader, VaultRead } from '../clients/vaultEvents.js'

/** One point of the share-price history. */
export interface PricePoint extends SharePricePoint {
  /** The ledger of the event that set the price (for `unlocked`, the last event before it). */
  ledger: number
  /** The event that set the price, `unlocked` where a profit lock ran out, or `now` for the current books. */
  kind: 'deposit' | 'withdraw' | 'return' | 'flash' | 'write_off' | 'unlocked' | 'now'
}

const PRICE_EVENTS = new Set(['deposit', 'withdraw', 'return', 'flash', 'write_off'])

/** core `sharePrice` of the free assets at `time` under `lock`; undefined when they cannot be priced. */
function priceAt(b: Pick<Totals, 'totalUsdc' | 'totalShares'>, lock: ProfitLock | undefined, time: number): bigint | undefined {
  const free = freeTotals(b, lock, BigInt(time))
  if (free === undefined) return undefined
  try {
    return sharePrice(free)
  } catch {
    // Negative totals: the replay went past events the node did not give; no point.
    return undefined
  }
}

/** A lock that runs out strictly between `from` and `to` (s): its end, else undefined. */
function endsBetween(lock: ProfitLock | undefined, from: number, to: number): number | undefined {
  if (lock === undefined || lock.lockedProfit === 0n) return undefined
  const end = Number(lock.lockEnd)
  return end > from && end < to ? end : undefined
}

/** The share-price history of a read (see the file comment). */
export function sharePriceHistory(read: Pick<VaultRead, 'books' | 'config' | 'events' | 'ledger' | 'closeTime' | 'complete'>): PricePoint[] {
  const events = read.events.map((e) => e.event)
  const replay = replayBackward(events, read.books)
  const locks = profitLocks(events, read.books, { fromEmpty: read.complete, unlockSecs: BigInt(read.config.profitUnlockSecs) })
  const points: PricePoint[] = []
  const push = (p: PricePoint | undefined) => {
    if (p !== undefined) points.push(p)
  }
  const point = (timestamp: number, price: bigint | undefined, ledger: number, kind: PricePoint['kind']): PricePoint | undefined =>
    price === undefined ? undefined : { timestamp, price, ledger, kind }
  let last: { time: number; ledger: number } | undefined
  replay.steps.forEach((step, i) => {
    const kind = step.event.kind
    if (!PRICE_EVENTS.has(kind)) return
    const time = read.events[i]!.closeTime
    const lock = locks.steps[i]!
    const ended = last === undefined ? undefined : endsBetween(lock.before, last.time, time)
    if (ended !== undefined && last !== undefined) push(point(ended, priceAt(step.before, lock.before, ended), last.ledger, 'unlocked'))
    if (kind === 'write_off') push(point(time, priceAt(step.before, lock.before, time), step.event.ledger, 'write_off'))
    push(point(time, priceAt(step.after, lock.after, time), step.event.ledger, kind as PricePoint['kind']))
    last = { time, ledger: step.event.ledger }
  })
  if (last !== undefined && read.closeTime > last.time) {
    const ended = endsBetween(read.books, last.time, read.closeTime)
    if (ended !== undefined) push(point(ended, priceAt(read.books, read.books, ended), last.ledger, 'unlocked'))
    push(point(read.closeTime, priceAt(read.books, read.books, read.closeTime), read.ledger, 'now'))
  }
  return points
}

/** What the Vault view prints: amounts as exact 7-decimal USDC, the APY by the core's rule. */
export interface VaultFigures {
  tvl: string
  idle: string
  deployed: string
  profit: string
  /** USDC per share on free assets at the latest ledger's close time. */
  sharePrice: string
  /** Profit booked but still locked, and when the last of it unlocks. */
  lockedProfit: string
  lockedUntil: string
  /** The keeper's share of each fill's gross profit, "10.00% (1000 bps)". */
  keeperFee: string
  /** Shares depositors asked to withdraw (`pending_shares`). */
  pendingShares: string
  apy: ApyDisplayReturnType
}

const usdc = (v: bigint): string => `${formatAmount(v)} USDC`

/** The figures of `read` (its books, settings and clock) with the APY of `history`. */
export function vaultFigures(read: Pick<VaultRead, 'books' | 'config' | 'closeTime'> | undefined, history: readonly SharePricePoint[]): VaultFigures {
  const apy = apyDisplay(history)
  if (read === undefined)
    return { tvl: MISSING, idle: MISSING, deployed: MISSING, profit: MISSING, sharePrice: MISSING, lockedProfit: MISSING, lockedUntil: MISSING, keeperFee: MISSING, pendingShares: MISSING, apy }
  const books: VaultBooks = read.books
  const price = priceAt(books, books, read.closeTime)
  const locked = lockedProfitText(books, read.closeTime, read.config.profitUnlockSecs)
  return {
    tvl: usdc(books.totalUsdc),
    // Idle capital is what is in the vault's account; deployed is out with keepers in draws.
    idle: usdc(books.totalUsdc - books.activeLiq),
    deployed: usdc(books.activeLiq),
    profit: usdc(books.totalProfit),
    sharePrice: price === undefined ? MISSING : formatAmount(price),
    lockedProfit: locked.amount,
    lockedUntil: locked.until,
    keeperFee: keeperFeeText(read.config.keeperFeeBps),
    pendingShares: `${formatAmount(books.pendingShares)} shares`,
    apy,
  }
}

/** The share-price line: x = ledger close time, y = USDC per share; linear between points (see the file comment). */
export function sharePriceChart(points: readonly PricePoint[]): ChartConfiguration<'line', { x: number; y: number }[]> {
  return {
    type: 'line',
    data: {
      datasets: [
        {
          label: 'share price (USDC per share)',
          data: points.map((p) => ({ x: p.timestamp, y: Number(p.price) / 1e7 })),
          // Linear: while profit unlocks the price climbs between events; the points at
          // write-offs (before and after) and where locks run out keep the line exact.
          stepped: false,
          // points are already {x, y} numbers in x order
          parsing: false,
          normalized: true,
          borderColor: '#1f77b4',
          backgroundColor: '#1f77b4',
          pointRadius: points.map((p) => (p.kind === 'now' || p.kind === 'unlocked' ? 0 : 3)),
        },
      ],
    },
    options: {
      plugins: {
        legend: { display: false },
        tooltip: {
          callbacks: {
            title: (items) => {
              const p = points[items[0]?.dataIndex ?? -1]
              if (p === undefined) return ''
              if (p.kind === 'unlocked') return `${formatLedgerDateTime(p.timestamp)} · booked profit fully unlocked`
              return `${formatLedgerDateTime(p.timestamp, p.ledger)} · ${p.kind === 'now' ? 'now' : p.kind}`
            },
          },
        },
      },
      scales: {
        // Few ticks, few labels measured: the first draw is most of what the chart costs.
        x: { type: 'linear', title: { display: true, text: 'ledger close time (UTC)' }, ticks: { callback: (v) => utcDateTime(Number(v)).slice(5), maxTicksLimit: 5, sampleSize: 5 } },
        y: { title: { display: true, text: 'USDC per share' }, ticks: { maxTicksLimit: 6, sampleSize: 6 } },
      },
    },
  }
}

/** The result of one refresh: the last good read, and the error of this one if it failed. */
export interface VaultLoad {
  read: VaultRead | undefined
  error: string | undefined
}

export interface VaultStore {
  load: () => VaultLoad | undefined
  history: () => PricePoint[]
  figures: () => VaultFigures
  chart: () => ChartConfiguration
  refresh: () => void
}

/**
 * The store for the configured vault: a resource keyed by the deployment's reads, refetched every
 * `refreshMs` (the interval ends with the owner). A failed refresh keeps the last good read.
 */
export function createVaultStore(reads: () => Reads | undefined, refreshMs = 4000): VaultStore {
  const readers = new WeakMap<Reads, { reader: VaultEventsReader; last: VaultRead | undefined }>()
  const [load, { refetch }] = createResource(reads, async (r): Promise<VaultLoad> => {
    let entry = readers.get(r)
    try {
      if (entry === undefined) {
        entry = { reader: (await import('../clients/vaultEvents.js')).vaultEventsReader(r.chain.server, r.chain.networkPassphrase, r.contracts.vault), last: undefined }
        readers.set(r, entry)
      }
      entry.last = await entry.reader.read()
      return { read: entry.last, error: undefined }
    } catch (err) {
      return { read: entry?.last, error: err instanceof Error ? err.message : String(err) }
    }
  })
  const timer = setInterval(() => {
    if (reads() !== undefined && !load.loading) void refetch()
  }, refreshMs)
  onCleanup(() => clearInterval(timer))

  const current = () => (load.state === 'ready' || load.state === 'refreshing' ? load.latest : undefined)
  const history = createMemo(() => {
    const r = current()?.read
    return r === undefined ? [] : sharePriceHistory(r)
  })
  const figures = createMemo(() => vaultFigures(current()?.read, history()))
  return { load: current, history, figures, chart: () => sharePriceChart(history()) as ChartConfiguration, refresh: () => void refetch() }
}
