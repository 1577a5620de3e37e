import { describe, expect, it } from 'vitest'
import { sharesForDeposit, usdcForShares } from '../../../src/core/index.js'
import { cooldownRemaining, cooldownText, depositCapLeft, depositPreview, withdrawPreview } from './positionFigures.js'

const U = 10_000_000n
const state = (totalUsdc: bigint, totalShares: bigint) => ({ totalUsdc, totalShares, totalProfit: 0n, activeLiq: 0n })

describe('depositPreview', () => {
  it('is the core’s sharesForDeposit, exactly', () => {
    const s = state(1100n * U, 1000n * U)
    const p = depositPreview('100', s)
    expect(p).toEqual({ ok: true, value: 909_090_909n, text: 'You receive 90.9090909 shares' })
    expect(p.ok && p.value).toBe(sharesForDeposit({ amount: 100n * U, totalUsdc: s.totalUsdc, totalShares: s.totalShares }).shares)
    expect(depositPreview('1000', state(0n, 0n)).text).toBe('You receive 999.9999000 shares')
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
    expect(withdrawPreview('10', s, 100n * U)).toEqual({ ok: true, value: usdcForShares({ shares: 10n * U, ...s }), text: 'You receive 11.0000000 USDC' })
  })

  it('refuses more shares than held, in words with both figures', () => {
    expect(withdrawPreview('10', state(1n, 1n), 5n)).toEqual({ ok: false, refused: true, text: 'You hold 0.0000005 shares; this withdrawal needs 10.00.' })
    expect(withdrawPreview('abc', state(1n, 1n), 5n).ok).toBe(false)
  })
})

describe('cap and cooldown', () => {
  it('cap left is deposit_cap − total_usdc, not below zero', () => {
    const config = { depositCap: 1000n * U, withdrawCooldown: 60, maxDrawPerKeeper: 1n }
    expect(depositCapLeft(config, state(250n * U, 1n))).toBe(750n * U)
    expect(depositCapLeft(config, state(2000n * U, 1n))).toBe(0n)
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
