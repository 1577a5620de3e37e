import { describe, expect, it } from 'vitest'
import { ledgerMemo } from './ledgerMemo.js'

describe('ledgerMemo', () => {
  it('shares one read per key and ledger, and reads again at another ledger', async () => {
    const memo = ledgerMemo<number>()
    let reads = 0
    const read = async () => ++reads
    expect(await Promise.all([memo(5, 'a', read), memo(5, 'a', read)])).toEqual([1, 1])
    expect(await memo(5, 'b', read)).toBe(2)
    expect(await memo(6, 'a', read)).toBe(3)
    // The older ledger's reads were dropped.
    expect(await memo(5, 'a', read)).toBe(4)
  })

  it('does not keep a failed read', async () => {
    const memo = ledgerMemo<string>()
    await expect(memo(1, 'k', () => Promise.reject(new Error('node down')))).rejects.toThrow('node down')
    expect(await memo(1, 'k', async () => 'fresh')).toBe('fresh')
  })
})
