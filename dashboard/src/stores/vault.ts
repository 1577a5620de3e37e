/**
 * The vault store: the books (`get_state`) and the share-price history, refreshed every few
 * seconds, and the figures and chart the Vault view shows.
 *
 * Share-price history. The vault's events do not carry its totals, only deltas: a deposit its
 * amount and the shares minted (plus the dead shares of the first one), a withdrawal the shares
 * burnt and the USDC paid, a return its amount and profit, a write-off what it wrote down and what
 * the slash recovered. So the totals are reconstructed by replaying the events backward from the
 * books read now (src/audit's `replayBackward`, the inverse of contracts/vault's arithmetic):
 * the books after the last event are the current ones, and undoing each event gives the books
 * before it. Going backward needs no starting point, so it also works when the node no longer
 * keeps the vault's oldest events. Each deposit, withdrawal, return and write-off then gives one
 * point (its ledger's close time, core `sharePrice` of the books after it); draws move no price
 * and give none. A last point at the latest ledger's close time holds the current price: the
 * price stays where the last event left it, and the APY's span runs to now.
 */
import type { ChartConfiguration } from 'chart.js'
import { createMemo, createResource, onCleanup } from 'solid-js'
import { MISSING, apyDisplay, sharePrice, type ApyDisplayReturnType, type SharePricePoint } from '../../../src/core/index.js'
import { replayBackward } from '../../../src/audit/invariants/replay.js'
import { formatAmount } from '../logic/amounts.js'
import { formatLedgerDateTime, utcDateTime } from '../logic/time.js'
import type { Reads } from '../clients/chain.js'
import type { VaultBooks, VaultEventsReader, VaultRead } from '../clients/vaultEvents.js'

/** One point of the share-price history. */
export interface PricePoint extends SharePricePoint {
  ledger: number
  /** The event that set the price, or `now` for the current books. */
  kind: 'deposit' | 'withdraw' | 'return' | 'write_off' | 'now'
}

const PRICE_EVENTS = new Set(['deposit', 'withdraw', 'return', 'write_off'])

function priceOf(b: VaultBooks): bigint | undefined {
  try {
    return sharePrice({ totalUsdc: b.totalUsdc, totalShares: b.totalShares })
  } catch {
    // Negative totals: the replay went past events the node did not give; no point.
    return undefined
  }
}

/** The share-price history of a read (see the file comment). */
export function sharePriceHistory(read: Pick<VaultRead, 'books' | 'events' | 'ledger' | 'closeTime'>): PricePoint[] {
  const replay = replayBackward(
    read.events.map((e) => e.event),
    read.books,
  )
  const points: PricePoint[] = []
  replay.steps.forEach((step, i) => {
    const kind = step.event.kind
    if (!PRICE_EVENTS.has(kind)) return
    const price = priceOf(step.after)
    if (price === undefined) return
    points.push({ timestamp: read.events[i]!.closeTime, price, ledger: step.event.ledger, kind: kind as PricePoint['kind'] })
  })
  const last = points[points.length - 1]
  const now = priceOf(read.books)
  if (last !== undefined && now !== undefined && read.closeTime > last.timestamp)
    points.push({ timestamp: read.closeTime, price: now, ledger: read.ledger, kind: 'now' })
  return points
}

/** What the Vault view prints: amounts as exact 7-decimal USDC, the APY by the core's rule. */
export interface VaultFigures {
  tvl: string
  idle: string
  deployed: string
  profit: string
  sharePrice: string
  apy: ApyDisplayReturnType
}

const usdc = (v: bigint): string => `${formatAmount(v)} USDC`

export function vaultFigures(books: VaultBooks | undefined, history: readonly SharePricePoint[]): VaultFigures {
  const apy = apyDisplay(history)
  if (books === undefined) return { tvl: MISSING, idle: MISSING, deployed: MISSING, profit: MISSING, sharePrice: MISSING, apy }
  const price = priceOf(books)
  return {
    tvl: usdc(books.totalUsdc),
    // Idle capital is what is in the vault's account; deployed is out with keepers in draws.
    idle: usdc(books.totalUsdc - books.activeLiq),
    deployed: usdc(books.activeLiq),
    profit: usdc(books.totalProfit),
    sharePrice: price === undefined ? MISSING : formatAmount(price),
    apy,
  }
}


/** The share-price line: x = ledger close time, y = USDC per share; the price holds between points. */
export function sharePriceChart(points: readonly PricePoint[]): ChartConfiguration<'line', { x: number; y: number }[]> {
  return {
    type: 'line',
    data: {
      datasets: [
        {
          label: 'share price (USDC per share)',
          data: points.map((p) => ({ x: p.timestamp, y: Number(p.price) / 1e7 })),
          stepped: 'after',
          // points are already {x, y} numbers in x order
          parsing: false,
          normalized: true,
          borderColor: '#1f77b4',
          backgroundColor: '#1f77b4',
          pointRadius: points.map((p) => (p.kind === 'now' ? 0 : 3)),
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
              return p === undefined ? '' : `${formatLedgerDateTime(p.timestamp, p.ledger)} · ${p.kind === 'now' ? 'now' : p.kind}`
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
  const figures = createMemo(() => vaultFigures(current()?.read?.books, history()))
  return { load: current, history, figures, chart: () => sharePriceChart(history()) as ChartConfiguration, refresh: () => void refetch() }
}
