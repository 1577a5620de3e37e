import { describe, expect, it } from 'vitest'
import { plannedSwaps } from './atomic.js'
import type { PlannedSwap } from './auctionPlan.js'

const swap = (asset: string, router: string, amountIn: bigint, minOut: bigint, path = [asset, 'USDC']): PlannedSwap => ({
  asset,
  route: router,
  venue: { kind: 'router', router },
  path,
  amountIn,
  out: minOut + 1n,
  minOut,
  flows: [],
})

describe('plannedSwaps', () => {
  it('sells each asset in its planned parts, the last part taking whatever balance is left', () => {
    const fill = { swaps: [swap('XLM', 'PRIMARY', 600n, 50n), swap('XLM', 'FALLBACK', 400n, 30n), swap('WETH', 'PRIMARY', 7n, 9n, ['WETH', 'XLM', 'USDC'])] }
    const out = plannedSwaps(fill, ['XLM', 'WETH', 'WBTC'], (asset) => ({ venue: { kind: 'router', router: 'PRIMARY' }, path: [asset, 'USDC'], amountIn: 0n, minOut: 1n }))
    expect(out).toEqual([
      { venue: { kind: 'router', router: 'PRIMARY' }, path: ['XLM', 'USDC'], amountIn: 600n, minOut: 50n },
      { venue: { kind: 'router', router: 'FALLBACK' }, path: ['XLM', 'USDC'], amountIn: 0n, minOut: 30n },
      { venue: { kind: 'router', router: 'PRIMARY' }, path: ['WETH', 'XLM', 'USDC'], amountIn: 0n, minOut: 9n },
      // an asset the plan did not value across venues: the caller's single sale
      { venue: { kind: 'router', router: 'PRIMARY' }, path: ['WBTC', 'USDC'], amountIn: 0n, minOut: 1n },
    ])
  })
})
