import { describe, expect, it } from 'vitest'
import { InFlight, within } from './inflight.js'

const later = <T>(ms: number, v: T) => new Promise<T>((r) => setTimeout(() => r(v), ms))

describe('InFlight', () => {
  it('is idle at once with nothing tracked', async () => {
    const f = new InFlight()
    expect(f.size).toBe(0)
    expect(await within(f.idle(), 50)).toBe(true)
  })

  it('waits for tracked work, failures included, and for work started while it waited', async () => {
    const f = new InFlight()
    const order: string[] = []
    void f.track(later(20, 'a')).then(() => {
      order.push('a')
      void f.track(later(20, 'c')).then(() => order.push('c'))
    })
    void f.track(later(10, 0).then(() => Promise.reject(new Error('b')))).catch(() => order.push('b'))
    expect(f.size).toBe(2)
    await f.idle()
    expect(order).toEqual(['b', 'a', 'c'])
    expect(f.size).toBe(0)
  })

  it('returns what it tracks unchanged', async () => {
    const f = new InFlight()
    expect(await f.track(Promise.resolve(7))).toBe(7)
    await expect(f.track(Promise.reject(new Error('no')))).rejects.toThrow('no')
  })
})

describe('within', () => {
  it('says false when the work outlasts the grace', async () => {
    expect(await within(later(200, 0), 20)).toBe(false)
    expect(await within(later(5, 0), 200)).toBe(true)
  })
})
