import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BaseError } from '../errors.js'
import { bestSale } from './bestSale.js'
import { constantProductOut } from './constantProductOut.js'
import { routeOut } from './routeOut.js'
import { cometMaxIn, weightedPoolOut } from './weightedPoolOut.js'

const reserve = fc.bigInt({ min: 1000n, max: 10n ** 16n })
const pool = fc.record({ reserveIn: reserve, reserveOut: reserve })
const route = fc.array(pool, { minLength: 1, maxLength: 3 }).map((hops) => ({ hops }))

describe('weightedPoolOut', () => {
  it('equal weights: the constant-product formula at the same fee, kept just under it', () => {
    fc.assert(
      fc.property(pool, fc.bigInt({ min: 0n, max: 10n ** 15n }), (p, a) => {
        const w = weightedPoolOut(a, { balanceIn: p.reserveIn, weightIn: 1n, balanceOut: p.reserveOut, weightOut: 1n, fee: 30_000n })
        const cp = constantProductOut(a, p)
        expect(w <= cp).toBe(true)
        // 0.001 % and a unit under it at most
        expect(cp - w <= cp / 100_000n + 2n).toBe(true)
      }),
      { numRuns: 500 },
    )
  })
  it('pays more for more and never the whole balance, at any weights (property)', () => {
    const weight = fc.bigInt({ min: 1n, max: 99n })
    fc.assert(
      fc.property(reserve, reserve, weight, weight, fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.bigInt({ min: 0n, max: 10n ** 13n }), (bIn, bOut, wIn, wOut, a, extra) => {
        const p = { balanceIn: bIn, weightIn: wIn, balanceOut: bOut, weightOut: wOut, fee: 30_000n }
        const out = weightedPoolOut(a, p)
        expect(out >= 0n && out < bOut).toBe(true)
        expect(weightedPoolOut(a + extra, p) + 1n >= out).toBe(true)
      }),
      { numRuns: 500 },
    )
  })
  it('an 80:20 pool moves less when selling the heavy side', () => {
    const heavyIn = { balanceIn: 4000_0000000n, weightIn: 8n, balanceOut: 1000_0000000n, weightOut: 2n, fee: 30_000n }
    // selling 1 % of the heavy balance: ~4 % of the light side (weight ratio 4) less fee and impact
    const out = weightedPoolOut(40_0000000n, heavyIn)
    expect(out > 38_0000000n && out < 39_6000000n).toBe(true)
  })
  it('rejects bad input', () => {
    const p = { balanceIn: 1n, weightIn: 1n, balanceOut: 1n, weightOut: 1n, fee: 30_000n }
    expect(() => weightedPoolOut(-1n, p)).toThrow(BaseError)
    expect(() => weightedPoolOut(1n, { ...p, weightIn: -1n })).toThrow(BaseError)
    expect(() => weightedPoolOut(1n, { ...p, fee: 10_000_000n })).toThrow(BaseError)
    expect(weightedPoolOut(5n, { ...p, balanceIn: 0n })).toBe(0n)
  })
})

describe('routeOut', () => {
  it('a one-pool route is that pool; each hop feeds the next', () => {
    const a = { reserveIn: 1000_0000000n, reserveOut: 500_0000000n }
    const b = { reserveIn: 500_0000000n, reserveOut: 2000_0000000n }
    expect(routeOut(10_0000000n, [a])).toBe(constantProductOut(10_0000000n, a))
    expect(routeOut(10_0000000n, [a, b])).toBe(constantProductOut(constantProductOut(10_0000000n, a), b))
    expect(routeOut(10_0000000n, [])).toBe(0n)
  })
})

describe('bestSale', () => {
  it('beats every route alone, sells exactly the amount, at most two parts (property)', () => {
    fc.assert(
      fc.property(fc.array(route, { minLength: 1, maxLength: 3 }), fc.bigInt({ min: 0n, max: 10n ** 14n }), (routes, amount) => {
        const s = bestSale(amount, routes)
        for (const r of routes) expect(s.out >= routeOut(amount, r.hops)).toBe(true)
        expect(s.parts.length <= 2).toBe(true)
        if (s.out > 0n) expect(s.parts.reduce((t, x) => t + x.amountIn, 0n)).toBe(amount)
        expect(s.parts.reduce((t, x) => t + x.out, 0n)).toBe(s.out)
        for (const x of s.parts) expect(x.out).toBe(routeOut(x.amountIn, routes[x.route]!.hops))
      }),
      { numRuns: 300 },
    )
  })
  it('a small sale stays on one venue; a large one is split; a thin direct pool loses to a route through a deep intermediate', () => {
    const primary = { hops: [{ reserveIn: 1_000_000_0000000n, reserveOut: 1_000_000_0000000n }] }
    const fallback = { hops: [{ reserveIn: 500_000_0000000n, reserveOut: 500_000_0000000n }] }
    expect(bestSale(10_0000000n, [primary, fallback]).parts.map((p) => p.route)).toEqual([0])
    expect(bestSale(50_000_0000000n, [primary, fallback]).parts.map((p) => p.route)).toEqual([0, 1])
    const thin = { hops: [{ reserveIn: 10_000_0000000n, reserveOut: 10_000_0000000n }] }
    const via = { hops: [{ reserveIn: 1_000_000_0000000n, reserveOut: 1_000_000_0000000n }, { reserveIn: 1_000_000_0000000n, reserveOut: 1_000_000_0000000n }] }
    const s = bestSale(5_000_0000000n, [thin, via])
    expect(s.parts.find((p) => p.route === 1)!.amountIn > (s.parts.find((p) => p.route === 0)?.amountIn ?? 0n)).toBe(true)
  })
  it('a Comet pool takes at most a third of its balance: a sale above it pays nothing there, a split keeps that part within it', () => {
    const comet = { kind: 'weighted' as const, balanceIn: 3000_0000000n, weightIn: 1n, balanceOut: 3000_0000000n, weightOut: 1n, fee: 30_000n, maxIn: cometMaxIn(3000_0000000n) }
    expect(comet.maxIn).toBe(1000_0002000n)
    expect(weightedPoolOut(1100_0000000n, comet)).toBe(0n)
    const pair = { hops: [{ reserveIn: 3000_0000000n, reserveOut: 3000_0000000n }] }
    const s = bestSale(2000_0000000n, [pair, { hops: [comet] }])
    expect(s.parts.length).toBe(2)
    expect(s.parts[1]!.amountIn <= comet.maxIn).toBe(true)
    expect(s.out > routeOut(2000_0000000n, pair.hops)).toBe(true)
  })
  it('nothing to sell, or no route that pays: no parts', () => {
    expect(bestSale(0n, [{ hops: [{ reserveIn: 1n, reserveOut: 1n }] }])).toEqual({ parts: [], out: 0n })
    expect(bestSale(100n, [{ hops: [{ reserveIn: 0n, reserveOut: 0n }] }])).toEqual({ parts: [], out: 0n })
    expect(() => bestSale(-1n, [])).toThrow(BaseError)
  })
})
