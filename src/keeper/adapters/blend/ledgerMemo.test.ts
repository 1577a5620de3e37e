import { describe, expect, it } from 'vitest'
import { ledgerMemo, singleFlight } from './ledgerMemo.js'

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

describe('singleFlight', () => {
  it('shares the request in flight, and asks again once it has settled', async () => {
    let reads = 0
    let release: () => void = () => {}
    const latest = singleFlight(async (_node: object) => {
      reads++
      await new Promise<void>((r) => (release = r))
      return reads
    })
    const node = {}
    const first = Promise.all([latest(node), latest(node), latest(node)])
    release()
    expect(await first).toEqual([1, 1, 1])
    const again = latest(node)
    release()
    expect(await again).toBe(2)
    expect(reads).toBe(2)
  })

  it('asks each source on its own, and does not keep a failure', async () => {
    let calls = 0
    const latest = singleFlight(async (node: { down: boolean }) => {
      calls++
      if (node.down) throw new Error('node down')
      return 'ok'
    })
    const down = { down: true }
    await expect(latest(down)).rejects.toThrow('node down')
    down.down = false
    expect(await Promise.all([latest(down), latest({ down: false })])).toEqual(['ok', 'ok'])
    expect(calls).toBe(3)
  })
})
