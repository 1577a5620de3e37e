import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { lockedProfit } from '../vault/lockedProfit.js'
import { renderProfitUnlockVectors, type ProfitUnlockVectors } from './profitUnlockVectors.js'

const file = fileURLToPath(new URL('../../../vectors/profit-unlock.json', import.meta.url))

describe('vectors/profit-unlock.json', () => {
  it('is exactly what the generator produces (run `npm run vectors` after changing the profit unlock or keeper fee)', () => {
    expect(readFileSync(file, 'utf8')).toBe(renderProfitUnlockVectors())
  })

  it('covers every op and edge the vault must agree on', () => {
    const v = JSON.parse(readFileSync(file, 'utf8')) as ProfitUnlockVectors
    expect(v.bps).toBe('10000')
    expect(new Set(v.cases.map((c) => c.op))).toEqual(new Set(['locked_profit', 'book_profit', 'keeper_fee']))
    expect(new Set(v.cases.map((c) => c.name)).size).toBe(v.cases.length)
    const errors = new Set(v.cases.flatMap((c) => ('error' in c.expect ? [c.expect.error] : [])))
    expect([...errors]).toEqual(['Overflow'])
    for (const c of v.cases) {
      for (const [key, value] of Object.entries(c)) if (key !== 'name' && key !== 'op' && key !== 'expect') expect(value).toMatch(/^-?\d+$/)
      for (const value of Object.values(c.expect)) if (!('error' in c.expect)) expect(value).toMatch(/^-?\d+$/)
    }
  })

  it('every booking reads back L + P locked at the booking timestamp', () => {
    const v = JSON.parse(readFileSync(file, 'utf8')) as ProfitUnlockVectors
    for (const c of v.cases) {
      if (c.op !== 'book_profit' || 'error' in c.expect) continue
      const before = lockedProfit({ lockedProfit: BigInt(c.locked_profit), lockStart: BigInt(c.lock_start), lockEnd: BigInt(c.lock_end) }, BigInt(c.now))
      const after = { lockedProfit: BigInt(c.expect.locked_profit), lockStart: BigInt(c.expect.lock_start), lockEnd: BigInt(c.expect.lock_end) }
      expect(after.lockedProfit, c.name).toBe(before + BigInt(c.profit))
      expect(lockedProfit(after, BigInt(c.now)), c.name).toBe(after.lockedProfit)
    }
  })
})
