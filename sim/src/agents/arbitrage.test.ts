import { Keypair } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { cometMaxIn } from '../../../src/core/index.js'
import type { World } from '../../../src/world/index.js'
import type { Scenario } from '../scenario/schema.js'
import { venueArbPools } from '../setup.js'
import { arbTrade, cometArbTrade } from './arbitrage.js'

const UNIT = 10_000_000n
const units = (x: number) => BigInt(Math.round(x * 1e7))

/** The constant-product pool after `trade`, fees ignored (as the sizing is). */
function after(x: bigint, y: bigint, trade: { amountIn: bigint; sell: 'asset' | 'quote' }): { x: number; y: number } {
  const fx = Number(x) / 1e7
  const fy = Number(y) / 1e7
  const dx = Number(trade.amountIn) / 1e7
  return trade.sell === 'asset' ? { x: fx + dx, y: (fx * fy) / (fx + dx) } : { x: (fx * fy) / (fy + dx), y: fy + dx }
}

describe('arbTrade (a router pair against USDC)', () => {
  it('sells the asset into a pool dearer than the target, to the target', () => {
    // 500 WETH / 1M USDC (2,000) after the market fell to 1,400
    const t = arbTrade(500n * UNIT, 1_000_000n * UNIT, 1_400, 1e9, 30)!
    expect(t.sell).toBe('asset')
    expect(t.amountIn).toBe(BigInt(Math.floor((Math.sqrt((500 * 1_000_000) / 1_400) - 500) * 1e7)))
    const p = after(500n * UNIT, 1_000_000n * UNIT, t)
    expect(p.y / p.x).toBeCloseTo(1_400, 3)
  })

  it('buys the asset with USDC from a pool cheaper than the target', () => {
    const t = arbTrade(500n * UNIT, 1_000_000n * UNIT, 2_500, 1e9, 30)!
    expect(t.sell).toBe('quote')
    const p = after(500n * UNIT, 1_000_000n * UNIT, t)
    expect(p.y / p.x).toBeCloseTo(2_500, 3)
  })

  it('keeps to maxTradeUsd and leaves a pool within the tolerance alone', () => {
    expect(arbTrade(500n * UNIT, 1_000_000n * UNIT, 1_400, 10_000, 30)).toEqual({ amountIn: units(10_000 / 1_400), sell: 'asset' })
    expect(arbTrade(500n * UNIT, 1_000_000n * UNIT, 2_500, 10_000, 30)).toEqual({ amountIn: units(10_000), sell: 'quote' })
    expect(arbTrade(500n * UNIT, 1_000_000n * UNIT, 2_005, 1e9, 30)).toBeNull() // 25 bps off
    expect(arbTrade(0n, 1_000_000n * UNIT, 2_000, 1e9, 30)).toBeNull()
  })

  it('sizes a USDC pool the same with the quote price left out or given as 1', () => {
    for (const target of [1_400, 1_999.123, 2_500, 61_234.5]) {
      expect(arbTrade(523n * UNIT + 1234n, 1_001_234n * UNIT, target, 100_000, 30, 1)).toEqual(arbTrade(523n * UNIT + 1234n, 1_001_234n * UNIT, target, 100_000, 30))
    }
  })
})

describe('arbTrade on a via pair (the asset priced in another collateral)', () => {
  // WETH:WBTC at 2,000 / 60,000 USD, 600k USD a side: 300 WETH and 10 WBTC
  const weth = 300n * UNIT
  const wbtc = 10n * UNIT

  it('moves the pair to the cross rate of the two market prices', () => {
    // WETH fell 30 %, WBTC held: 1,400 / 60,000 WBTC per WETH
    const cross = 1_400 / 60_000
    const t = arbTrade(weth, wbtc, cross, 1e9, 30, 60_000)!
    expect(t.sell).toBe('asset')
    const p = after(weth, wbtc, t)
    expect(p.y / p.x).toBeCloseTo(cross, 8)
    // WBTC fell 30 % instead: WETH is dearer in WBTC, so the arbitrageur buys WETH with WBTC
    const up = arbTrade(weth, wbtc, 2_000 / 42_000, 1e9, 30, 42_000)!
    expect(up.sell).toBe('quote')
    expect(after(weth, wbtc, up).y / after(weth, wbtc, up).x).toBeCloseTo(2_000 / 42_000, 8)
  })

  it('keeps each trade within maxTradeUsd at the market prices', () => {
    const sell = arbTrade(weth, wbtc, 1_400 / 60_000, 10_000, 30, 60_000)!
    // 10k USD of WETH at 1,400
    expect(Number(sell.amountIn) / 1e7).toBeCloseTo(10_000 / 1_400, 6)
    const buy = arbTrade(weth, wbtc, 2_000 / 42_000, 10_000, 30, 42_000)!
    // 10k USD of WBTC at 42,000
    expect(Number(buy.amountIn) / 1e7).toBeCloseTo(10_000 / 42_000, 6)
  })
})

describe('cometArbTrade (a 50/50 Comet pool against USDC)', () => {
  it('is the constant-product trade while it stays under a third of the balance in', () => {
    const t = cometArbTrade(100n * UNIT, 200_000n * UNIT, 1_900, 1e9, 30)
    expect(t).toEqual(arbTrade(100n * UNIT, 200_000n * UNIT, 1_900, 1e9, 30))
    expect(t!.amountIn).toBeLessThan(cometMaxIn(100n * UNIT))
  })

  it('stops at the most the pool takes in one swap, on either side', () => {
    // 100 WETH / 200k USDC; the market at 500: √(k/P) − x = 100 WETH to sell, the pool takes 33.33
    const sell = cometArbTrade(100n * UNIT, 200_000n * UNIT, 500, 1e9, 30)!
    expect(arbTrade(100n * UNIT, 200_000n * UNIT, 500, 1e9, 30)!.amountIn).toBe(100n * UNIT)
    expect(sell).toEqual({ sell: 'asset', amountIn: cometMaxIn(100n * UNIT) })
    // the market at 8,000: √(kP) − y = 200k USDC to buy with, the pool takes 66.7k
    const buy = cometArbTrade(100n * UNIT, 200_000n * UNIT, 8_000, 1e9, 30)!
    expect(buy).toEqual({ sell: 'quote', amountIn: cometMaxIn(200_000n * UNIT) })
    // and the USD cap still holds below it
    expect(cometArbTrade(100n * UNIT, 200_000n * UNIT, 500, 1_000, 30)).toEqual({ sell: 'asset', amountIn: units(1_000 / 500) })
  })

  it('leaves a pool within the tolerance alone', () => {
    expect(cometArbTrade(100n * UNIT, 200_000n * UNIT, 2_001, 1e9, 30)).toBeNull()
  })
})

describe('venueArbPools', () => {
  const contracts: Record<string, string> = { USDC: 'CUSDC', WETH: 'CWETH', WBTC: 'CWBTC', LINK: 'CLINK' }
  const world = (dex: Partial<World['dex']>) =>
    ({
      usdc: { code: 'USDC', contract: 'CUSDC' },
      asset: (key: string) => {
        const code = Object.keys(contracts).find((c) => c === key || contracts[c] === key)
        if (code === undefined) throw new RangeError(key)
        return { code, contract: contracts[code] }
      },
      dex: {
        primaryRouter: 'CPRIMARY',
        fallbackRouter: 'CFALLBACK',
        pairs: [
          { router: 'CPRIMARY', tokenA: 'CUSDC', tokenB: 'CWETH', pair: 'P1' },
          { router: 'CFALLBACK', tokenA: 'CUSDC', tokenB: 'CWETH', pair: 'P2' },
        ],
        comets: [],
        ...dex,
      },
    }) as unknown as World
  const scenario = {
    world: {
      assets: [
        { code: 'WETH', price: 2_000, cFactor: 0.75, dexDepthUsd: 150_000, cometDepthUsd: 300_000 },
        { code: 'WBTC', price: 60_000, cFactor: 0.75, dexDepthUsd: 2_000_000 },
        { code: 'LINK', price: 15, cFactor: 0.75, dexDepthUsd: 40_000, via: { asset: 'WBTC', depthUsd: 600_000 } },
      ],
    },
  } as unknown as Scenario

  it('is empty without Comet pools and via pairs (the routers’ USDC pairs are arbitraged as before)', () => {
    expect(venueArbPools(world({}), scenario, 1)).toEqual([])
  })

  it('adds each Comet pool against USDC and each via pair, priced in the other collateral, each with its own trader and depth', () => {
    const w = world({
      comets: [{ asset: 'CWETH', pool: 'CCOMET' }],
      pairs: [
        { router: 'CPRIMARY', tokenA: 'CUSDC', tokenB: 'CLINK', pair: 'P3' },
        { router: 'CPRIMARY', tokenA: 'CLINK', tokenB: 'CWBTC', pair: 'P4' },
      ],
    })
    const pools = venueArbPools(w, scenario, 7)
    expect(pools.map(({ pool, depthUsd }) => ({ router: pool.router, comet: pool.comet, asset: pool.asset, quote: pool.quote, depthUsd }))).toEqual([
      { router: 'CCOMET', comet: true, asset: 'CWETH', quote: 'CUSDC', depthUsd: 300_000 },
      { router: 'CPRIMARY', comet: undefined, asset: 'CLINK', quote: 'CWBTC', depthUsd: 600_000 },
    ])
    expect(pools[0]!.pool.trader).toBeInstanceOf(Keypair)
    expect(new Set(pools.map((p) => p.pool.trader.publicKey())).size).toBe(2)
    // the same seed, the same traders
    expect(venueArbPools(w, scenario, 7).map((p) => p.pool.trader.publicKey())).toEqual(pools.map((p) => p.pool.trader.publicKey()))
  })
})
