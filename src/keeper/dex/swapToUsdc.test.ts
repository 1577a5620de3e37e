import { describe, expect, it } from 'vitest'
import { ErrBadSwapInput, ErrNoProceeds, ErrNoRoute, ErrSlippageExceeded } from './errors.js'
import { slippageFloor } from '../../core/index.js'
import { swapToUsdc, type Venue } from './swapToUsdc.js'

/** A venue over an in-memory USDC balance; `fail` makes quote or swap throw. */
function venue(
  name: string,
  rate: bigint,
  wallet: { usdc: bigint },
  opts: { failQuote?: boolean; failSwap?: boolean; refuseMin?: boolean; payNothing?: boolean } = {},
): Venue & { swaps: { amountIn: bigint; min: bigint }[] } {
  const swaps: { amountIn: bigint; min: bigint }[] = []
  return {
    name,
    swaps,
    async quote(amountIn) {
      if (opts.failQuote) throw new Error(`${name} paused`)
      return (amountIn * rate) / 100n
    },
    async swap(amountIn, min) {
      if (opts.failSwap) throw new Error(`${name} transaction failed`)
      if (opts.refuseMin) throw new ErrSlippageExceeded(name, min)
      swaps.push({ amountIn, min })
      if (!opts.payNothing) wallet.usdc += (amountIn * rate) / 100n
      return { txHash: `${name}-tx` }
    },
  }
}

const base = (wallet: { usdc: bigint }) => ({
  tokenIn: 'XLM',
  usdc: 'USDC',
  amountIn: 1000n,
  refValue: 1000n,
  slippageBps: 100,
  usdcBalance: async () => wallet.usdc,
})

describe('slippageFloor', () => {
  it('is refValue * (10000 - bps) / 10000 rounded up', () => {
    expect(slippageFloor(1000n, 100)).toBe(990n)
    expect(slippageFloor(1001n, 100)).toBe(991n) // 990.99 -> 991
    expect(slippageFloor(1000n, 0)).toBe(1000n)
    expect(slippageFloor(1000n, 10_000)).toBe(0n)
    expect(() => slippageFloor(1000n, 10_001)).toThrow()
  })
})

describe('swapToUsdc', () => {
  it('swaps on the primary and measures proceeds as the balance delta', async () => {
    const wallet = { usdc: 5_000n }
    const primary = venue('primary', 100n, wallet)
    const fallback = venue('fallback', 100n, wallet)
    const r = await swapToUsdc({ ...base(wallet), venues: [primary, fallback] })
    expect(r.proceeds).toBe(1000n)
    expect(r.venue).toBe('primary')
    expect(r.amountOutMin).toBe(990n)
    expect(primary.swaps).toEqual([{ amountIn: 1000n, min: 990n }])
    expect(fallback.swaps).toHaveLength(0)
    expect(r.failures).toEqual([])
  })

  it('a quote below the floor is ErrSlippageExceeded and does not fall back', async () => {
    const wallet = { usdc: 0n }
    const primary = venue('primary', 98n, wallet) // 980 < 990
    const fallback = venue('fallback', 100n, wallet)
    await expect(swapToUsdc({ ...base(wallet), venues: [primary, fallback] })).rejects.toBeInstanceOf(ErrSlippageExceeded)
    expect(fallback.swaps).toHaveLength(0)
    expect(wallet.usdc).toBe(0n)
  })

  it('execution refused at amount_out_min is ErrSlippageExceeded without fallback', async () => {
    const wallet = { usdc: 0n }
    const primary = venue('primary', 100n, wallet, { refuseMin: true })
    const fallback = venue('fallback', 100n, wallet)
    await expect(swapToUsdc({ ...base(wallet), venues: [primary, fallback] })).rejects.toBeInstanceOf(ErrSlippageExceeded)
    expect(fallback.swaps).toHaveLength(0)
  })

  it('a transient primary failure is recorded and the fallback used', async () => {
    const wallet = { usdc: 0n }
    const primary = venue('primary', 100n, wallet, { failQuote: true })
    const fallback = venue('fallback', 99n, wallet)
    const r = await swapToUsdc({ ...base(wallet), venues: [primary, fallback] })
    expect(r.venue).toBe('fallback')
    expect(r.proceeds).toBe(990n)
    expect(r.failures).toEqual([{ venue: 'primary', error: 'primary paused' }])
  })

  it('a failed swap transaction on the primary falls back too', async () => {
    const wallet = { usdc: 0n }
    const primary = venue('primary', 100n, wallet, { failSwap: true })
    const fallback = venue('fallback', 100n, wallet)
    const r = await swapToUsdc({ ...base(wallet), venues: [primary, fallback] })
    expect(r.venue).toBe('fallback')
    expect(r.failures).toHaveLength(1)
  })

  it('all venues failing is ErrNoRoute listing each failure; no venue configured too', async () => {
    const wallet = { usdc: 0n }
    const err = await swapToUsdc({
      ...base(wallet),
      venues: [venue('primary', 100n, wallet, { failQuote: true }), venue('fallback', 100n, wallet, { failSwap: true })],
    }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ErrNoRoute)
    expect((err as ErrNoRoute).failures.map((f) => f.venue)).toEqual(['primary', 'fallback'])
    await expect(swapToUsdc({ ...base(wallet), venues: [] })).rejects.toBeInstanceOf(ErrNoRoute)
  })

  it('a confirmed swap that does not raise the balance books nothing', async () => {
    const wallet = { usdc: 7n }
    const primary = venue('primary', 100n, wallet, { payNothing: true })
    await expect(swapToUsdc({ ...base(wallet), venues: [primary] })).rejects.toBeInstanceOf(ErrNoProceeds)
  })

  it('refuses bad input before touching a venue', async () => {
    const wallet = { usdc: 0n }
    const primary = venue('primary', 100n, wallet)
    await expect(swapToUsdc({ ...base(wallet), amountIn: 0n, venues: [primary] })).rejects.toBeInstanceOf(ErrBadSwapInput)
    await expect(swapToUsdc({ ...base(wallet), refValue: -1n, venues: [primary] })).rejects.toBeInstanceOf(ErrBadSwapInput)
    await expect(swapToUsdc({ ...base(wallet), tokenIn: 'USDC', venues: [primary] })).rejects.toBeInstanceOf(ErrBadSwapInput)
    await expect(swapToUsdc({ ...base(wallet), slippageBps: 10_001, venues: [primary] })).rejects.toBeInstanceOf(ErrBadSwapInput)
    expect(primary.swaps).toHaveLength(0)
  })
})
