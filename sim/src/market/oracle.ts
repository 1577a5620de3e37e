/**
 * The price oracle as a push feed: it posts an asset's price when the market has moved far
 * enough since its last post (deviation) or when its last post is old enough (heartbeat), and
 * what it posts may be stale (delay). Between posts the lending pool sees the last posted
 * price; that gap is what lets liquidations lag the market.
 */
import type { Scenario } from '../scenario/schema.js'
import { MarketModelError } from './errors.js'

/** The scenario's `market.oracle` section, all in seconds except `deviationBps`. */
export type OracleSettings = Scenario['market']['oracle']

/** One post: at ledger `step` the oracle sets the asset's price to `price`. */
export interface OraclePost {
  step: number
  price: number
}

/** The oracle feed of one asset over a run. */
export interface OracleFeed {
  /** The oracle's price in force at each ledger (after that ledger's post, if any). */
  price: Float64Array
  /** 1 at the ledgers where the oracle posts, else 0. `posted[0]` is always 1. */
  posted: Uint8Array
  /** The posts in ledger order (the same information as `posted` and `price`). */
  posts: OraclePost[]
}

/** A move counts as reaching the threshold when within this relative margin of it (float rounding). */
const THRESHOLD_SLACK = 1e-12

function checkSettings(dtSeconds: number, s: OracleSettings): void {
  if (!Number.isFinite(dtSeconds) || dtSeconds <= 0) throw new MarketModelError(`dtSeconds must be finite and > 0, got ${dtSeconds}`)
  if (!(s.heartbeat >= 0) || !(s.delay >= 0) || !(s.deviationBps >= 0)) {
    throw new MarketModelError(`oracle heartbeat, delay and deviationBps must be >= 0, got ${s.heartbeat}, ${s.delay}, ${s.deviationBps}`)
  }
}

/**
 * The oracle feed for one asset's market path (one price per ledger, `dtSeconds` apart).
 *
 * At ledger i the candidate is the market price at ledger i − round(delay / dt), or at ledger 0
 * before that. Ledger 0 always posts. A later ledger posts when
 * - the candidate differs from the last posted price by at least `deviationBps` basis points
 *   (|c − last| · 10⁴ ≥ bps · last; with bps = 0, any change posts), or
 * - at least `heartbeat` seconds have passed since the last post ((i − last step) · dt ≥ heartbeat),
 *   in which case it posts the candidate even if unchanged.
 *
 * @example
 * import { oracleFeed } from './index.js'
 * const feed = oracleFeed(market.WETH!, 5, { heartbeat: 3600, deviationBps: 50, delay: 0 })
 * feed.price[100] // what the pool sees at ledger 100
 */
export function oracleFeed(market: Float64Array, dtSeconds: number, settings: OracleSettings): OracleFeed {
  checkSettings(dtSeconds, settings)
  const n = market.length
  const price = new Float64Array(n)
  const posted = new Uint8Array(n)
  const posts: OraclePost[] = []
  if (n === 0) return { price, posted, posts }

  const lag = Math.round(settings.delay / dtSeconds)
  const threshold = settings.deviationBps * (1 - THRESHOLD_SLACK)
  let last = 0
  let lastStep = 0
  for (let i = 0; i < n; i++) {
    const candidate = market[i < lag ? 0 : i - lag]!
    const post =
      i === 0 ||
      (i - lastStep) * dtSeconds >= settings.heartbeat ||
      (candidate !== last && Math.abs(candidate - last) * 10_000 >= threshold * last)
    if (post) {
      last = candidate
      lastStep = i
      posted[i] = 1
      posts.push({ step: i, price: candidate })
    }
    price[i] = last
  }
  return { price, posted, posts }
}

/** The feeds of several assets that one oracle posts together. */
export interface OracleTimeline {
  /** The oracle's price in force at each ledger, per asset code (keys in the order given). */
  oracle: Record<string, Float64Array>
  /** 1 at the ledgers where at least one asset posts. */
  posts: Uint8Array
}

/**
 * {@link oracleFeed} for every asset, plus the union of their posting ledgers. Each asset's
 * posting decision is its own; an oracle contract that writes all prices in one call writes at
 * every ledger of `posts`, re-posting the unchanged prices of the assets that did not move
 * (which does not reset their heartbeat here).
 */
export function oracleTimeline(market: Record<string, Float64Array>, dtSeconds: number, settings: OracleSettings): OracleTimeline {
  const oracle: Record<string, Float64Array> = {}
  let posts: Uint8Array | undefined
  for (const [code, path] of Object.entries(market)) {
    const feed = oracleFeed(path, dtSeconds, settings)
    if (posts === undefined) posts = feed.posted.slice()
    else if (posts.length !== path.length) {
      throw new MarketModelError(`market paths must all have the same length; ${code} has ${path.length}, not ${posts.length}`)
    } else for (let i = 0; i < posts.length; i++) posts[i] = posts[i]! | feed.posted[i]!
    oracle[code] = feed.price
  }
  return { oracle, posts: posts ?? new Uint8Array(0) }
}

/**
 * A price as the chain's 7-decimal integer: round(x · 10⁷). Throws for a price that is not
 * finite, not positive, or so small it rounds to 0 (the pool rejects a zero price).
 *
 * @example
 * import { toPrice7 } from './index.js'
 * toPrice7(2000.5) // 20005000000n
 */
export function toPrice7(x: number): bigint {
  if (!Number.isFinite(x) || x <= 0) throw new MarketModelError(`a price must be finite and > 0, got ${x}`)
  const scaled = Math.round(x * 1e7)
  if (scaled === 0) throw new MarketModelError(`the price ${x} rounds to 0 with 7 decimals`)
  return BigInt(scaled)
}
