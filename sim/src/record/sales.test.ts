import { describe, expect, it } from 'vitest'
import { noSales, routeKind, saleCounts, sumSales } from './sales.js'

describe('routeKind', () => {
  it('names the kind of each route the keeper sells on', () => {
    expect(routeKind('primary')).toBe('primary')
    expect(routeKind('fallback')).toBe('fallback')
    expect(routeKind('primary via CDLZFC')).toBe('via')
    expect(routeKind('comet CAS3J7')).toBe('comet')
    expect(routeKind('somewhere else')).toBeNull()
  })
})

describe('saleCounts', () => {
  it('counts swaps by route kind and the fills that sold a lot asset in two parts', () => {
    const counts = saleCounts([
      // one asset, one route
      [{ asset: 'WETH', route: 'primary' }],
      // one asset split between the primary router and a Comet pool
      [
        { asset: 'WETH', route: 'primary' },
        { asset: 'WETH', route: 'comet CAS3J7' },
      ],
      // two lot assets, each on one route: not a split
      [
        { asset: 'WETH', route: 'fallback' },
        { asset: 'WBTC', route: 'primary via CDLZFC' },
      ],
      // two assets, both split: one split fill
      [
        { asset: 'WETH', route: 'comet CAS3J7' },
        { asset: 'WETH', route: 'fallback' },
        { asset: 'LINK', route: 'primary via CDLZFC' },
        { asset: 'LINK', route: 'primary' },
      ],
    ])
    expect(counts).toEqual({ primary: 3, fallback: 2, via: 2, comet: 2, split: 2 })
  })

  it('is all zeros without fills', () => {
    expect(saleCounts([])).toEqual(noSales())
  })
})

describe('sumSales', () => {
  it('adds the keepers’ counts field by field, a missing one as zeros', () => {
    const a = { primary: 1, fallback: 2, via: 3, comet: 4, split: 5 }
    const b = { primary: 10, fallback: 0, via: 1, comet: 0, split: 2 }
    expect(sumSales([a, undefined, b])).toEqual({ primary: 11, fallback: 2, via: 4, comet: 4, split: 7 })
    expect(sumSales([])).toEqual(noSales())
  })
})
