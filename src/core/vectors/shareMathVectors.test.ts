import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { renderShareMathVectors, type ShareMathVectors } from './shareMathVectors.js'

const file = fileURLToPath(new URL('../../../vectors/share-math.json', import.meta.url))

describe('vectors/share-math.json', () => {
  it('is exactly what the generator produces (run `npm run vectors` after changing share math)', () => {
    expect(readFileSync(file, 'utf8')).toBe(renderShareMathVectors())
  })

  it('covers every edge the vault must agree on', () => {
    const v = JSON.parse(readFileSync(file, 'utf8')) as ShareMathVectors
    expect(v.dead_shares).toBe('1000')
    const errors = new Set(v.cases.flatMap((c) => ('error' in c.expect ? [c.expect.error] : [])))
    expect([...errors].sort()).toEqual(['InvalidAmount', 'Overflow', 'PoolInsolvent', 'ZeroShares'])
    expect(new Set(v.cases.map((c) => c.op))).toEqual(new Set(['deposit', 'redeem', 'share_price']))
    expect(new Set(v.cases.map((c) => c.name)).size).toBe(v.cases.length)
    for (const c of v.cases) for (const value of Object.values(c)) if (typeof value === 'string' && c.name !== value && c.op !== value) expect(value).toMatch(/^-?\d+$/)
  })
})
