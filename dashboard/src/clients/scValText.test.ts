import { describe, expect, it } from 'vitest'
import { Keypair, StrKey, nativeToScVal } from '@stellar/stellar-sdk'
import { addr, i128, struct, sym, u32 } from '../../../src/chain/scval.js'
import { displayText, txValue, unitFor } from './scValText.js'

const VAULT = StrKey.encodeContract(Buffer.alloc(32, 7))
const USDC = StrKey.encodeContract(Buffer.alloc(32, 8))
const OTHER = StrKey.encodeContract(Buffer.alloc(32, 9))
const ISSUER = Keypair.random().publicKey()

describe('contract values for people', () => {
  it('shows i128 amounts with their 7 decimals and keeps the raw base units', () => {
    expect(txValue(i128(101_638_569n))).toEqual({ text: '10.1638569', raw: '101638569' })
    expect(displayText(i128(100_000_000n))).toBe('10.0000000')
    expect(displayText(u32(7))).toBe('7')
    expect(displayText(sym('deposit'))).toBe('deposit')
  })

  it('walks maps and lists, naming shares by their key', () => {
    const unit = unitFor(VAULT, { vault: VAULT }, { topics: ['deposit'] })
    const data = struct({ amount: i128(1_000_000_000n), shares: i128(999_999_000n), dead_shares: i128(1_000n) })
    expect(displayText(data, unit)).toBe('{amount: 100.0000000 USDC, dead_shares: 0.0001000 shares, shares: 99.9999000 shares}')
    expect(displayText(nativeToScVal([1n, 2n], { type: 'i128' }))).toBe('[0.0000001, 0.0000002]')
  })

  it('names the unit of each contract’s amounts', () => {
    const known = { vault: VAULT, usdc: USDC }
    expect(unitFor(VAULT, known, { fn: 'withdraw' })(undefined)).toBe('shares')
    expect(unitFor(VAULT, known, { fn: 'deposit' })(undefined)).toBe('USDC')
    expect(unitFor(USDC, known, { topics: ['transfer', 'G', 'C', `USDC:${ISSUER}`] })(undefined)).toBe('USDC')
    expect(unitFor(OTHER, known, { topics: ['transfer', 'G', 'C', `WETH:${ISSUER}`] })(undefined)).toBe('WETH')
    expect(unitFor(OTHER, known, { topics: ['transfer', 'G', 'C', 'native'] })(undefined)).toBe('XLM')
    expect(unitFor(OTHER, known, { fn: 'submit' })(undefined)).toBeUndefined()
    expect(txValue(addr(ISSUER)).text).toBe(ISSUER)
  })
})
