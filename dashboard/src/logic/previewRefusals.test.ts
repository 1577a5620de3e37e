import { describe, expect, it } from 'vitest'
import { briefAmount, depositRefusal, withdrawRefusal } from './previewRefusals.js'

const U = 10_000_000n

describe('preview refusals', () => {
  it('shows amounts with at least two decimals and never rounds them', () => {
    expect(briefAmount(1000n * U)).toBe('1,000.00')
    expect(briefAmount(125_000_000n)).toBe('12.50')
    expect(briefAmount(124_999_999n)).toBe('12.4999999')
    expect(briefAmount(5n)).toBe('0.0000005')
  })

  it('refuses a deposit over the wallet’s USDC and over the cap, both when both apply', () => {
    expect(depositRefusal(5000n * U, 1000n * U, undefined)).toBe('You hold 1,000.00 USDC; this deposit needs 5,000.00.')
    expect(depositRefusal(13n * U, undefined, 125_000_000n)).toBe('This deposit would take the vault over its deposit cap: it can take 12.50 USDC more.')
    expect(depositRefusal(20n * U, 10n * U, 0n)).toBe(
      'You hold 10.00 USDC; this deposit needs 20.00. This deposit would take the vault over its deposit cap: it can take 0.00 USDC more.',
    )
    expect(depositRefusal(10n * U, 10n * U, 10n * U)).toBeUndefined()
  })

  it('refuses a withdrawal of more shares than held', () => {
    expect(withdrawRefusal(100n * U, 909_090_909n)).toBe('You hold 90.9090909 shares; this withdrawal needs 100.00.')
    expect(withdrawRefusal(10n, 10n)).toBeUndefined()
    expect(withdrawRefusal(10n, undefined)).toBeUndefined()
  })
})
