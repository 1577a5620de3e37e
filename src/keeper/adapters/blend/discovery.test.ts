import { xdr } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { BorrowerDiscovery, borrowerOf } from './discovery.js'
import { borrowEvent, FakeEvents } from './fakeEvents.test-util.js'
import { randomAccount, randomContract } from './fakeLedger.test-util.js'
import { newRpcStats } from './rpcStats.js'

describe('borrower discovery', () => {
  it('cold start pages the whole retention window, then reads only new events', async () => {
    const node = new FakeEvents()
    const pool = randomContract()
    const users = Array.from({ length: 25 }, randomAccount)
    users.forEach((u, i) => node.events.push(borrowEvent(100 + i, 0, 'borrow', u)))
    // the same user borrowing twice is one borrower
    node.events.push(borrowEvent(200, 0, 'borrow', users[0]!))
    const d = new BorrowerDiscovery(pool, { pageLimit: 10 })
    const stats = newRpcStats()
    const first = await d.poll(node, stats)
    expect(first.coldStart).toBe(true)
    expect(first.pages).toBe(3)
    expect(new Set(first.added)).toEqual(new Set(users))
    expect(node.requests[0]!.startLedger).toBe(100)
    expect(stats.getEvents).toBe(3)

    const late = randomAccount()
    node.latest = 600
    node.events.push(borrowEvent(550, 0, 'flash_loan', late))
    const second = await d.poll(node)
    expect(second.coldStart).toBe(false)
    expect(second.added).toEqual([late])
    expect(node.requests[node.requests.length - 1]!.cursor).toBeDefined()
    expect(d.borrowers).toHaveLength(26)
  })

  it('restarts cold when the cursor left the retention window', async () => {
    const node = new FakeEvents()
    const pool = randomContract()
    const a = randomAccount()
    node.events.push(borrowEvent(150, 0, 'borrow', a))
    const d = new BorrowerDiscovery(pool)
    await d.poll(node)
    const b = randomAccount()
    node.oldest = 300
    node.latest = 900
    node.events = [borrowEvent(800, 0, 'borrow', b)]
    node.forgetBefore = node.events[0]!.id
    const res = await d.poll(node)
    expect(res.coldStart).toBe(true)
    expect(res.added).toEqual([b])
    expect(new Set(d.borrowers)).toEqual(new Set([a, b]))
  })

  it('ignores events that do not name a borrower', () => {
    const user = randomAccount()
    expect(borrowerOf(borrowEvent(1, 0, 'supply', user))).toBeUndefined()
    expect(borrowerOf(borrowEvent(1, 0, 'borrow', user))).toBe(user)
    expect(borrowerOf({ topic: [xdr.ScVal.scvSymbol('borrow')] })).toBeUndefined()
  })
})
