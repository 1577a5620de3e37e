import { describe, expect, it } from 'vitest'
import { freeAssets, lockedProfit, sharesForDeposit, usdcForShares } from '../../../src/core/index.js'
import { cooldownRemaining, cooldownText, depositCapLeft, depositPreview, withdrawPreview, withdrawRequestText } from './positionFigures.js'

const U = 10_000_000n
const NOW = 1_700_000_000
const books = (totalUsdc: bigint, totalShares: bigint, lock: { lockedProfit: bigint; lockStart: bigint; lockEnd: bigint } = { lockedProfit: 0n, lockStart: 0n, lockEnd: 0n }) => ({
  totalUsdc,
  totalShares,
  totalProfit: lock.lockedProfit,
  activeLiq: 0n,
  ...lock,
  pendingShares: 0n,
})
const state = (totalUsdc: bigint, totalShares: bigint) => ({ state: books(totalUsdc, totalShares), closeTime: NOW })
/** 1,100 USDC for 1,000 shares, 60 of it profit booked 10 minutes ago and locked for an hour: half of it still locked at NOW + 20 min. */
const LOCK = { lockedProfit: 60n * U, lockStart: BigInt(NOW - 600), lockEnd: BigInt(NOW - 600 + 3600) }
const locked = { state: books(1100n * U, 1000n * U, LOCK), closeTime: NOW + 1200 }

describe('depositPreview', () => {
  it('is the core’s sharesForDeposit, exactly', () => {
    const s = state(1100n * U, 1000n * U)
    const p = depositPreview('100', s)
    expect(p).toEqual({ ok: true, value: 909_090_909n, text: 'You receive 90.9090909 shares' })
    expect(p.ok && p.value).toBe(sharesForDeposit({ amount: 100n * U, totalUsdc: s.state.totalUsdc, totalShares: s.state.totalShares }).shares)
    expect(depositPreview('1000', state(0n, 0n)).text).toBe('You receive 999.9999000 shares')
  })

  it('prices on free assets: total_usdc less the profit still locked at the ledger close time', () => {
    const free = freeAssets(1100n * U, lockedProfit(LOCK, BigInt(NOW + 1200)))
    expect(free).toBe(1070n * U)
    const p = depositPreview('100', locked)
    expect(p.ok && p.value).toBe(sharesForDeposit({ amount: 100n * U, totalUsdc: free, totalShares: 1000n * U }).shares)
    // More shares than on total_usdc: the locked profit is not yet in the price.
    expect(p.ok && p.value).toBeGreaterThan(sharesForDeposit({ amount: 100n * U, totalUsdc: 1100n * U, totalShares: 1000n * U }).shares)
    expect(depositPreview('100', { ...locked, closeTime: 0 })).toEqual({ ok: false, text: 'Reading the ledger clock…' })
  })

  it('says why there is no preview', () => {
    expect(depositPreview('', state(1n, 1n))).toEqual({ ok: false, text: 'Enter an amount.' })
    expect(depositPreview('1', undefined)).toEqual({ ok: false, text: 'Reading the vault…' })
    expect(depositPreview('0.0000001', state(0n, 0n))).toEqual({ ok: false, text: 'This deposit is too small to mint a single share.' })
    expect(depositPreview('1', state(0n, 10n)).text).toMatch(/holds no assets/)
  })

  it('refuses a deposit above the wallet’s USDC or the cap left before any share math', () => {
    const s = state(1100n * U, 1000n * U)
    expect(depositPreview('5000', s, { walletUsdc: 1000n * U, capLeft: 10_000n * U })).toEqual({
      ok: false,
      refused: true,
      text: 'You hold 1,000.00 USDC; this deposit needs 5,000.00.',
    })
    expect(depositPreview('13', s, { walletUsdc: 1000n * U, capLeft: 125_000_000n }).text).toBe(
      'This deposit would take the vault over its deposit cap: it can take 12.50 USDC more.',
    )
    expect(depositPreview('100', s, { walletUsdc: 100n * U, capLeft: 100n * U }).text).toBe('You receive 90.9090909 shares')
    expect(depositPreview('100', s, { walletUsdc: undefined, capLeft: undefined }).ok).toBe(true)
  })
})

describe('withdrawPreview', () => {
  it('is the core’s usdcForShares, exactly', () => {
    const s = state(1100n * U, 1000n * U)
    expect(withdrawPreview('10', s, 100n * U)).toEqual({
      ok: true,
      value: usdcForShares({ shares: 10n * U, totalUsdc: 1100n * U, totalShares: 1000n * U }),
      text: 'You receive 11.0000000 USDC',
    })
  })

  it('pays on free assets while profit unlocks', () => {
    expect(withdrawPreview('10', locked, 100n * U)).toMatchObject({ ok: true, value: 10_7000000n, text: 'You receive 10.7000000 USDC' })
  })

  it('refuses more shares than held, in words with both figures', () => {
    expect(withdrawPreview('10', state(1n, 1n), 5n)).toEqual({ ok: false, refused: true, text: 'You hold 0.0000005 shares; this withdrawal needs 10.00.' })
    expect(withdrawPreview('abc', state(1n, 1n), 5n).ok).toBe(false)
  })
})

describe('withdrawRequestText', () => {
  it('is nothing without a request, else the shares and their value on free assets', () => {
    expect(withdrawRequestText(0n, locked)).toBeUndefined()
    expect(withdrawRequestText(10n * U, locked)).toBe('10.0000000 shares (worth 10.7000000 USDC now)')
    expect(withdrawRequestText(10n * U, undefined)).toBe('10.0000000 shares')
  })
})

describe('cap and cooldown', () => {
  it('cap left is deposit_cap − total_usdc, not below zero', () => {
    const config = { depositCap: 1000n * U, withdrawCooldown: 60, maxDrawPerKeeper: 1n, keeperFeeBps: 1000, profitUnlockSecs: 3600 }
    expect(depositCapLeft(config, books(250n * U, 1n))).toBe(750n * U)
    expect(depositCapLeft(config, books(2000n * U, 1n))).toBe(0n)
  })

  it('cooldown counts ledger time from the last deposit', () => {
    expect(cooldownRemaining(1000, 60, 1030)).toBe(30)
    expect(cooldownRemaining(1000, 60, 1060)).toBe(0)
    expect(cooldownRemaining(0, 60, 5)).toBe(0)
    expect(cooldownText(0)).toBe('ready')
    expect(cooldownText(-4)).toBe('ready')
    expect(cooldownText(125)).toBe('2 min 5 s left')
  })
})
