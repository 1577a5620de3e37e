import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BaseError } from '../errors.js'
import { I128_MAX } from '../fixed/constants.js'
import { sharePrice } from '../shares/sharePrice.js'
import { sharesForDeposit } from '../shares/sharesForDeposit.js'
import { usdcForShares } from '../shares/usdcForShares.js'
import { bookProfit } from './bookProfit.js'
import { freeAssets } from './freeAssets.js'
import { keeperFee } from './keeperFee.js'
import { lockedProfit } from './lockedProfit.js'
import { U64_MAX, type ProfitLock } from './profitLock.js'

const RUNS = { numRuns: 1000 }
const U = 10_000_000n
const DAY = 86_400n
const MAX_PERIOD = 30n * DAY
const EMPTY: ProfitLock = { lockedProfit: 0n, lockStart: 0n, lockEnd: 0n }
const code = (f: () => unknown): string => {
  try {
    f()
  } catch (e) {
    if (e instanceof BaseError) return e.code
    throw e
  }
  return 'no error'
}

// A lock the vault can hold, and a `now` at or after its start (ledger time never goes back).
const amount = fc.bigInt({ min: 0n, max: 10n ** 24n })
const lockAndNow = fc
  .record({
    lockedProfit: amount,
    lockStart: fc.bigInt({ min: 0n, max: 10n ** 10n }),
    span: fc.bigInt({ min: 0n, max: MAX_PERIOD }),
    elapsed: fc.bigInt({ min: 0n, max: 2n * MAX_PERIOD }),
  })
  .map(({ lockedProfit, lockStart, span, elapsed }) => ({
    lock: { lockedProfit, lockStart, lockEnd: lockStart + span },
    now: lockStart + elapsed,
  }))
const profit = fc.bigInt({ min: 1n, max: 10n ** 24n })
const period = fc.bigInt({ min: 1n, max: MAX_PERIOD })

describe('lockedProfit: worked examples', () => {
  it('unlocks linearly: half of 100 USDC after half a day', () => {
    expect(lockedProfit({ lockedProfit: 100n * U, lockStart: 1000n, lockEnd: 1000n + DAY }, 1000n + DAY / 2n)).toBe(50n * U)
  })
  it('rounds what is locked up: ceil(10 * 2 / 3) = 7', () => {
    expect(lockedProfit({ lockedProfit: 10n, lockStart: 0n, lockEnd: 3n }, 1n)).toBe(7n)
    expect(lockedProfit({ lockedProfit: 10n, lockStart: 0n, lockEnd: 3n }, 2n)).toBe(4n)
  })
  it('all of it at lock_start, none at or after lock_end, none of nothing', () => {
    const lock = { lockedProfit: 10n, lockStart: 5n, lockEnd: 15n }
    expect(lockedProfit(lock, 5n)).toBe(10n)
    expect(lockedProfit(lock, 15n)).toBe(0n)
    expect(lockedProfit(lock, 10n ** 12n)).toBe(0n)
    expect(lockedProfit(EMPTY, 0n)).toBe(0n)
    expect(lockedProfit({ lockedProfit: 0n, lockStart: 5n, lockEnd: 15n }, 6n)).toBe(0n)
  })
  it('checked product: at the i128 edge it fits, one past it overflows', () => {
    expect(lockedProfit({ lockedProfit: I128_MAX, lockStart: 0n, lockEnd: 3n }, 2n)).toBe(I128_MAX / 3n + 1n)
    expect(code(() => lockedProfit({ lockedProfit: I128_MAX, lockStart: 0n, lockEnd: 3n }, 1n))).toBe('Overflow')
    expect(lockedProfit({ lockedProfit: I128_MAX, lockStart: 0n, lockEnd: 3n }, 3n)).toBe(0n) // finished: no product
  })
  it('errors: negative profit, inverted lock, reading before the start, times outside u64', () => {
    expect(code(() => lockedProfit({ lockedProfit: -1n, lockStart: 0n, lockEnd: 10n }, 1n))).toBe('InvalidInput')
    expect(code(() => lockedProfit({ lockedProfit: 1n, lockStart: 10n, lockEnd: 5n }, 7n))).toBe('InvalidInput')
    expect(code(() => lockedProfit({ lockedProfit: 1n, lockStart: 10n, lockEnd: 20n }, 9n))).toBe('InvalidInput')
    expect(code(() => lockedProfit({ lockedProfit: 1n, lockStart: 0n, lockEnd: U64_MAX + 1n }, 9n))).toBe('InvalidInput')
    expect(code(() => lockedProfit({ lockedProfit: 1n, lockStart: 0n, lockEnd: 10n }, -1n))).toBe('InvalidInput')
    expect(code(() => lockedProfit({ lockedProfit: I128_MAX + 1n, lockStart: 0n, lockEnd: 10n }, 1n))).toBe('Overflow')
  })
})

describe('bookProfit: worked examples', () => {
  it('onto an empty or finished lock: the full period', () => {
    expect(bookProfit(EMPTY, 50n * U, 1000n, DAY)).toEqual({ lockedProfit: 50n * U, lockStart: 1000n, lockEnd: 1000n + DAY })
    expect(bookProfit({ lockedProfit: 9n * U, lockStart: 0n, lockEnd: 100n }, 5n, 100n, 60n)).toEqual({ lockedProfit: 5n, lockStart: 100n, lockEnd: 160n })
  })
  it('onto a running lock: the amount-weighted remaining time', () => {
    // L = 50 with R = 50 left, P = 50 for 100: (2500 + 5000) / 100 = 75
    expect(bookProfit({ lockedProfit: 100n, lockStart: 0n, lockEnd: 100n }, 50n, 50n, 100n)).toEqual({ lockedProfit: 100n, lockStart: 50n, lockEnd: 125n })
    // L = 10 with R = 10, P = 1 for 100: ceil((100 + 100) / 11) = ceil(18.18) = 19
    expect(bookProfit({ lockedProfit: 10n, lockStart: 0n, lockEnd: 10n }, 1n, 0n, 100n)).toEqual({ lockedProfit: 11n, lockStart: 0n, lockEnd: 19n })
  })
  it('errors: profit <= 0, period 0; Overflow when L + P or a product leaves i128', () => {
    expect(code(() => bookProfit(EMPTY, 0n, 1n, DAY))).toBe('InvalidAmount')
    expect(code(() => bookProfit(EMPTY, -1n, 1n, DAY))).toBe('InvalidAmount')
    expect(code(() => bookProfit(EMPTY, 1n, 1n, 0n))).toBe('InvalidInput')
    expect(code(() => bookProfit({ lockedProfit: I128_MAX, lockStart: 0n, lockEnd: DAY }, 1n, 0n, DAY))).toBe('Overflow')
    expect(code(() => bookProfit({ lockedProfit: I128_MAX / 2n, lockStart: 0n, lockEnd: DAY }, 1n, 0n, DAY))).toBe('Overflow')
    expect(code(() => bookProfit(EMPTY, I128_MAX / 2n, 0n, DAY))).toBe('Overflow')
    expect(code(() => bookProfit(EMPTY, 1n, U64_MAX, 1n))).toBe('Overflow')
  })
})

describe('freeAssets / keeperFee: worked examples', () => {
  it('freeAssets', () => {
    expect(freeAssets(1100n * U, 60n * U)).toBe(1040n * U)
    expect(freeAssets(10n, 10n)).toBe(0n)
    expect(freeAssets(5n, 10n)).toBe(0n)
    expect(code(() => freeAssets(-1n, 0n))).toBe('InvalidInput')
    expect(code(() => freeAssets(1n, -1n))).toBe('InvalidInput')
  })
  it('keeperFee', () => {
    expect(keeperFee(50n * U, 1000)).toBe(5n * U)
    expect(keeperFee(3n, 5000)).toBe(1n)
    expect(keeperFee(1n, 9999n)).toBe(0n)
    expect(keeperFee(0n, 5000)).toBe(0n)
    expect(keeperFee(-7n, 1000)).toBe(0n)
    expect(keeperFee(1234n, 0)).toBe(0n)
    expect(keeperFee(1234n, 10_000)).toBe(1234n)
    expect(keeperFee(I128_MAX / 5000n, 5000)).toBe(I128_MAX / 10_000n)
    expect(code(() => keeperFee(I128_MAX, 5000))).toBe('Overflow')
    expect(keeperFee(I128_MAX, 0)).toBe(0n)
    for (const bps of [-1, 10_001, 0.5]) expect(code(() => keeperFee(1n, bps))).toBe('InvalidInput')
    expect(code(() => keeperFee(I128_MAX + 1n, 1))).toBe('Overflow')
  })
})

describe('profit unlocking properties', () => {
  it('locked is in [0, lockedProfit], non-increasing in time and 0 at/after lock_end', () => {
    fc.assert(
      fc.property(lockAndNow, fc.bigInt({ min: 0n, max: MAX_PERIOD }), ({ lock, now }, later) => {
        const a = lockedProfit(lock, now)
        const b = lockedProfit(lock, now + later)
        expect(a >= 0n && a <= lock.lockedProfit).toBe(true)
        expect(b <= a).toBe(true)
        expect(lockedProfit(lock, lock.lockEnd)).toBe(0n)
        expect(lockedProfit(lock, lock.lockEnd + later)).toBe(0n)
        if (now >= lock.lockEnd) expect(a).toBe(0n)
        // the ceil: never below the exact linear value, by less than one unit
        if (now < lock.lockEnd) {
          const num = lock.lockedProfit * (lock.lockEnd - now)
          const den = lock.lockEnd - lock.lockStart
          expect(a * den >= num && (a - 1n) * den < num).toBe(true)
        }
      }),
      RUNS,
    )
  })

  it('booking P and reading at the same now gives L + P (no instant unlock)', () => {
    fc.assert(
      fc.property(lockAndNow, profit, period, ({ lock, now }, p, t) => {
        const l = lockedProfit(lock, now)
        const next = bookProfit(lock, p, now, t)
        expect(next.lockedProfit).toBe(l + p)
        expect(next.lockStart).toBe(now)
        expect(lockedProfit(next, now)).toBe(l + p)
        // the new lock ends at the weighted average of the remaining time and the period
        const r = lock.lockEnd > now ? lock.lockEnd - now : 0n
        const d = next.lockEnd - now
        if (l === 0n) expect(d).toBe(t)
        else expect(d >= (r < t ? r : t) && d <= (r > t ? r : t)).toBe(true)
      }),
      RUNS,
    )
  })

  it('over a random sequence of bookings unlocked + locked == booked, unlocked never falls, and all unlocks at the end', () => {
    const step = fc.record({ dt: fc.bigInt({ min: 0n, max: 2n * DAY }), p: fc.option(profit, { nil: undefined }) })
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 30 }), period, (steps, t) => {
        let lock = EMPTY
        let now = 1_700_000_000n
        let booked = 0n
        let unlockedBefore = 0n
        for (const { dt, p } of steps) {
          now += dt
          const unlockedAt = booked - lockedProfit(lock, now)
          if (p !== undefined) {
            lock = bookProfit(lock, p, now, t)
            booked += p
          }
          const locked = lockedProfit(lock, now)
          const unlocked = booked - locked
          expect(locked >= 0n && locked <= booked).toBe(true)
          expect(unlocked).toBe(unlockedAt) // booking moves nothing into the unlocked part
          expect(unlocked >= unlockedBefore).toBe(true)
          unlockedBefore = unlocked
        }
        expect(lockedProfit(lock, lock.lockEnd)).toBe(0n)
        expect(booked - lockedProfit(lock, lock.lockEnd)).toBe(booked)
      }),
      RUNS,
    )
  })

  it('deposit, book profit, withdraw at the same timestamp gains nothing (share math on free assets)', () => {
    const vault = fc.record({
      totalShares: fc.bigInt({ min: 1000n, max: 10n ** 18n }),
      pricePpm: fc.bigInt({ min: 10_000n, max: 100_000_000n }),
      lockAndNow,
    })
    fc.assert(
      fc.property(vault, fc.bigInt({ min: 1n, max: 10n ** 18n }), profit, period, ({ totalShares, pricePpm, lockAndNow: { lock, now } }, a, p, t) => {
        // total_usdc holds the free assets at the given price plus what is still locked
        const locked0 = lockedProfit(lock, now)
        let totalUsdc = (totalShares * pricePpm) / 1_000_000n + 1n + locked0
        let shares = totalShares
        const free0 = freeAssets(totalUsdc, locked0)
        let minted: bigint
        try {
          minted = sharesForDeposit({ amount: a, totalUsdc: free0, totalShares: shares }).shares
        } catch {
          return
        }
        totalUsdc += a
        shares += minted
        const next = bookProfit(lock, p, now, t)
        totalUsdc += p
        const free1 = freeAssets(totalUsdc, lockedProfit(next, now))
        expect(free1).toBe(free0 + a) // the profit is all locked: the price did not move
        const back = usdcForShares({ shares: minted, totalUsdc: free1, totalShares: shares })
        expect(back <= a).toBe(true)
      }),
      RUNS,
    )
  })

  it('keeper fee: 0 for G <= 0, floor(G * bps / 10000) otherwise, <= G / 2 when bps <= 5000', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: I128_MAX / 10_000n }), fc.integer({ min: 0, max: 10_000 }), (g, bps) => {
        const fee = keeperFee(g, bps)
        if (g <= 0n) {
          expect(fee).toBe(0n)
          return
        }
        const b = BigInt(bps)
        expect(fee * 10_000n <= g * b && (fee + 1n) * 10_000n > g * b).toBe(true)
        expect(fee >= 0n && fee <= g).toBe(true)
        if (bps <= 5000) expect(2n * fee <= g).toBe(true)
        expect(g - fee >= 0n).toBe(true) // the booked profit
      }),
      RUNS,
    )
  })
})

describe('why free assets: the sandwich the lock prevents', () => {
  it('priced on total_usdc, a deposit just before a booking takes a cut of the profit; on free assets it takes none', () => {
    const shares0 = 1000n * U
    const usdc0 = 1000n * U
    const a = 1000n * U
    const p = 100n * U
    // without the lock: deposit at 1.0, 100 USDC booked straight into total_usdc, withdraw
    const naive = sharesForDeposit({ amount: a, totalUsdc: usdc0, totalShares: shares0 }).shares
    expect(usdcForShares({ shares: naive, totalUsdc: usdc0 + a + p, totalShares: shares0 + naive })).toBe(1050n * U)
    // with it: the same steps at one timestamp pay back the deposit and nothing more
    const now = 5000n
    const lock = bookProfit(EMPTY, p, now, DAY)
    const free = freeAssets(usdc0 + a + p, lockedProfit(lock, now))
    expect(usdcForShares({ shares: naive, totalUsdc: free, totalShares: shares0 + naive })).toBe(a)
    expect(sharePrice({ totalUsdc: free, totalShares: shares0 + naive })).toBe(U)
    // a day later all of it is free and belongs to the holders pro rata
    expect(freeAssets(usdc0 + a + p, lockedProfit(lock, now + DAY))).toBe(usdc0 + a + p)
  })
})
