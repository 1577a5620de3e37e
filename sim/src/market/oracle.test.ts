import { describe, expect, it } from 'vitest'
import { MarketModelError } from './errors.js'
import { gbmPath } from './gbm.js'
import { oracleFeed, oracleTimeline, toPrice7 } from './oracle.js'
import { derive } from './rng.js'

const NEVER = 1e12

function postSteps(posted: Uint8Array): number[] {
  const out: number[] = []
  posted.forEach((p, i) => p === 1 && out.push(i))
  return out
}

describe('oracleFeed', () => {
  it('posts at ledger 0 and when the move since the last post reaches deviationBps', () => {
    const market = Float64Array.from([100, 100.2, 100.4, 100.49, 100.5, 100.9, 101, 101.002, 101.01, 100.5, 100.49])
    const feed = oracleFeed(market, 5, { heartbeat: NEVER, deviationBps: 50, delay: 0 })
    // 100 → 100.5 is exactly 50 bps; from 100.5, 101.002 is 49.95 bps and 101.01 is 50.7 bps; 101.01 → 100.5 is 50.5 bps.
    expect(postSteps(feed.posted)).toEqual([0, 4, 8, 9])
    expect(Array.from(feed.price)).toEqual([100, 100, 100, 100, 100.5, 100.5, 100.5, 100.5, 101.01, 100.5, 100.5])
    expect(feed.posts).toEqual([
      { step: 0, price: 100 },
      { step: 4, price: 100.5 },
      { step: 8, price: 101.01 },
      { step: 9, price: 100.5 },
    ])
  })

  it('posts on the heartbeat when the market does not move', () => {
    const market = new Float64Array(3000).fill(2000)
    const feed = oracleFeed(market, 5, { heartbeat: 3600, deviationBps: 50, delay: 0 })
    expect(postSteps(feed.posted)).toEqual([0, 720, 1440, 2160, 2880])
    expect(feed.price.every((p) => p === 2000)).toBe(true)
  })

  it('counts the heartbeat from the last post of either kind, rounding up to whole ledgers', () => {
    const market = new Float64Array(20).fill(10)
    market.fill(11, 4)
    const feed = oracleFeed(market, 5, { heartbeat: 12, deviationBps: 50, delay: 0 })
    // 0; the move at 4; then 12 s = 2.4 ledgers → every 3 ledgers.
    expect(postSteps(feed.posted)).toEqual([0, 3, 4, 7, 10, 13, 16, 19])
  })

  it('posts the market price from `delay` ago (rounded to ledgers), clamped at ledger 0', () => {
    const market = new Float64Array(200).fill(50)
    market.fill(40, 100)
    const feed = oracleFeed(market, 5, { heartbeat: NEVER, deviationBps: 50, delay: 60 })
    expect(postSteps(feed.posted)).toEqual([0, 112])
    expect(feed.price[111]).toBe(50)
    expect(feed.price[112]).toBe(40)

    const ramp = Float64Array.from({ length: 10 }, (_, i) => 100 + 10 * i)
    expect(Array.from(oracleFeed(ramp, 5, { heartbeat: 0, deviationBps: 0, delay: 7 }).price)).toEqual([100, 100, 110, 120, 130, 140, 150, 160, 170, 180])
    expect(Array.from(oracleFeed(ramp, 5, { heartbeat: 0, deviationBps: 0, delay: 7.5 }).price.slice(0, 4))).toEqual([100, 100, 100, 110])
  })

  it('with deviationBps 0 posts every change and nothing else', () => {
    const market = Float64Array.from([1, 1, 1.0000001, 1.0000001, 1])
    expect(postSteps(oracleFeed(market, 5, { heartbeat: NEVER, deviationBps: 0, delay: 0 }).posted)).toEqual([0, 2, 4])
  })

  it('keeps a GBM path within the threshold between posts, and posts at most a heartbeat apart', () => {
    const dt = 5
    const settings = { heartbeat: 600, deviationBps: 30, delay: 0 }
    const market = gbmPath({ model: 'gbm', drift: 0, volatility: 0.8 }, { steps: 20_000, dtSeconds: dt, startPrice: 2000 }, derive(3))
    const feed = oracleFeed(market, dt, settings)
    let lastPost = 0
    let deviationPosts = 0
    for (let i = 0; i < market.length; i++) {
      const deviation = (Math.abs(market[i]! - feed.price[i]!) / feed.price[i]!) * 10_000
      if (feed.posted[i] === 1) {
        expect(feed.price[i]).toBe(market[i])
        if ((i - lastPost) * dt < settings.heartbeat) deviationPosts += 1
        lastPost = i
      } else {
        expect(deviation).toBeLessThan(30)
        expect((i - lastPost) * dt).toBeLessThan(settings.heartbeat)
      }
    }
    expect(deviationPosts).toBeGreaterThan(10)
    expect(feed.posts.length).toBe(postSteps(feed.posted).length)
  })

  it('rejects a bad ledger spacing or setting; an empty path has no posts', () => {
    expect(() => oracleFeed(new Float64Array(3), 0, { heartbeat: 1, deviationBps: 1, delay: 0 })).toThrow(MarketModelError)
    expect(() => oracleFeed(new Float64Array(3), 5, { heartbeat: -1, deviationBps: 1, delay: 0 })).toThrow(/heartbeat/)
    expect(oracleFeed(new Float64Array(0), 5, { heartbeat: 1, deviationBps: 1, delay: 0 }).posts).toEqual([])
  })
})

describe('oracleTimeline', () => {
  it('gives each asset its own feed and posts where any asset posts', () => {
    const a = new Float64Array(10).fill(1)
    a.fill(2, 3)
    const b = new Float64Array(10).fill(5)
    b.fill(4, 6)
    const settings = { heartbeat: NEVER, deviationBps: 50, delay: 0 }
    const timeline = oracleTimeline({ A: a, B: b }, 5, settings)
    expect(Object.keys(timeline.oracle)).toEqual(['A', 'B'])
    expect(postSteps(timeline.posts)).toEqual([0, 3, 6])
    expect(timeline.oracle.A).toEqual(oracleFeed(a, 5, settings).price)
    expect(timeline.oracle.B![5]).toBe(5)
    expect(timeline.oracle.B![6]).toBe(4)
  })

  it('rejects paths of different lengths', () => {
    expect(() => oracleTimeline({ A: new Float64Array(3).fill(1), B: new Float64Array(4).fill(1) }, 5, { heartbeat: 1, deviationBps: 1, delay: 0 })).toThrow(/B has 4, not 3/)
  })
})

describe('toPrice7', () => {
  it('rounds to 7 decimals', () => {
    expect(toPrice7(2000.5)).toBe(20_005_000_000n)
    expect(toPrice7(0.1234567)).toBe(1_234_567n)
    expect(toPrice7(0.12345675)).toBe(1_234_568n)
    expect(toPrice7(60_000)).toBe(600_000_000_000n)
    expect(toPrice7(1e-7)).toBe(1n)
  })

  it('refuses prices that are not finite, not positive or round to 0', () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 4e-8]) expect(() => toPrice7(bad)).toThrow(MarketModelError)
  })
})
