import { describe, expect, it } from 'vitest'
import { Scheduler } from './scheduler.js'

const after = <T>(ms: number, v: T) => new Promise<T>((r) => setTimeout(() => r(v), ms))

/** Two agents, each making calls whose answers come back after the given wall delays. */
async function interleaving(seed: number, delays: number[][]): Promise<string[]> {
  const s = new Scheduler(seed, 5_000)
  s.direct = false
  const seen: string[] = []
  const agent = async (name: string, waits: number[]) => {
    for (const [i, ms] of waits.entries()) {
      await s.call(() => after(ms, i))
      seen.push(`${name}${i}`)
    }
  }
  void agent('a', delays[0]!)
  void agent('b', delays[1]!)
  await s.settle()
  return seen
}

describe('Scheduler', () => {
  it('hands answers back in the same order however fast they come back', async () => {
    const fastA = await interleaving(1, [
      [1, 1, 1],
      [30, 30, 30],
    ])
    const fastB = await interleaving(1, [
      [30, 30, 30],
      [1, 1, 1],
    ])
    expect(fastA).toHaveLength(6)
    expect(fastB).toEqual(fastA)
  })

  it('draws that order from the seed', async () => {
    const orders = new Set<string>()
    for (let seed = 1; seed <= 12; seed++) orders.add((await interleaving(seed, [[1, 1, 1], [1, 1, 1]])).join(','))
    expect(orders.size).toBeGreaterThan(1)
  })

  it('holds every answer until settle, and settle waits for calls made while it runs', async () => {
    const s = new Scheduler(3, 5_000)
    s.direct = false
    let got = 0
    const chain = async () => {
      got = await s.call(() => after(5, 1))
      got = await s.call(() => after(5, 2))
    }
    void chain()
    await after(30, 0)
    expect(got).toBe(0)
    await s.settle()
    expect(got).toBe(2)
  })

  it('leaves parked waits alone until what they wait for happens, then releases them in the next round', async () => {
    const s = new Scheduler(3, 5_000)
    s.direct = false
    let close: () => void = () => {}
    const closed = new Promise<void>((r) => (close = r))
    let woke = false
    void s.park(closed).then(() => (woke = true))
    await s.settle()
    expect(woke).toBe(false)
    close()
    await after(5, 0)
    expect(woke).toBe(false)
    await s.settle()
    expect(woke).toBe(true)
  })

  it('runs timers on simulated time: due within the ledger in order, later ones after enough closes', async () => {
    const s = new Scheduler(3, 1_000)
    s.direct = false
    const fired: string[] = []
    void s.sleep(300).then(() => fired.push('300'))
    void s.sleep(100).then(() => fired.push('100'))
    void s.sleep(2_500).then(() => fired.push('2500'))
    await s.settle()
    expect(fired).toEqual(['100', '300'])
    expect(s.sinceOpen).toBe(300)
    s.closed()
    await s.settle()
    expect(fired).toEqual(['100', '300'])
    s.closed()
    await s.settle()
    expect(fired).toEqual(['100', '300', '2500'])
  })

  it('ends a polling loop within the ledger instead of spinning', async () => {
    const s = new Scheduler(3, 1_000)
    s.direct = false
    let polls = 0
    void (async () => {
      for (;;) {
        polls++
        await s.sleep(20)
      }
    })()
    await s.settle()
    expect(polls).toBe(50)
  })

  it('sends serial requests one at a time, in the order they were made', async () => {
    const s = new Scheduler(3, 1_000)
    s.direct = false
    const reached: number[] = []
    const send = (i: number, ms: number) => s.call(() => after(ms, i).then((v) => (reached.push(v), v)), true)
    void send(0, 30)
    void send(1, 1)
    void send(2, 10)
    await s.settle()
    expect(reached).toEqual([0, 1, 2])
  })

  it('passes everything straight through while direct', async () => {
    const s = new Scheduler(3, 1_000)
    expect(await s.call(() => after(1, 5))).toBe(5)
    s.direct = false
    let v = 0
    void s.call(() => after(1, 6)).then((x) => (v = x))
    await after(10, 0)
    s.finish()
    await after(0, 0)
    expect(v).toBe(6)
  })
})
