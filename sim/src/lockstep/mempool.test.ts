import { describe, expect, it } from 'vitest'
import { Mempool, type Submission } from './mempool.js'

const sub = (hash: string, agent: string, klass: 0 | 1, arrivalMs: number, seq = 1n): Submission => ({
  hash,
  agent,
  klass,
  arrivalMs,
  latencyMs: arrivalMs,
  submittedLedger: 10,
  key: hash,
  source: `G${agent}`,
  seq,
})

describe('Mempool.arriving', () => {
  it('counts the named agents’ pending transactions that reach the network within the ledger, and changes nothing', () => {
    const m = new Mempool()
    m.add(sub('a', 'keeper-1', 1, 200))
    m.add(sub('b', 'keeper-2', 1, 5_200))
    m.add(sub('c', 'environment', 0, 0))
    m.add(sub('d', 'attacker-jit-1/backrun', 1, 4_999))
    const keepers = new Set(['keeper-1', 'keeper-2'])
    expect(m.arriving(5_000, keepers)).toBe(1)
    expect(m.arriving(10_000, keepers)).toBe(2)
    expect(m.arriving(5_000, new Set(['environment']))).toBe(1)
    // the plan is what it was: keeper-1, then the back-run, after the environment
    expect(m.plan(5_000).order).toEqual(['c', 'a', 'd'])
  })
})

describe('Mempool.admits (one transaction per source account, as stellar-core queues them)', () => {
  it('refuses a second transaction from an account with one pending until a close applies it', () => {
    const m = new Mempool()
    expect(m.admits('Gkeeper-1', 1n, 'a', false)).toBe(true)
    m.add(sub('a', 'keeper-1', 1, 200, 1n))
    // another sequence number, or a new transaction of the same one: TRY_AGAIN_LATER
    expect(m.admits('Gkeeper-1', 2n, 'b', false)).toBe(false)
    expect(m.admits('Gkeeper-1', 1n, 'b', false)).toBe(false)
    // the same envelope again: the node answers DUPLICATE
    expect(m.admits('Gkeeper-1', 1n, 'a', false)).toBe(true)
    // another account is free
    expect(m.admits('Gkeeper-2', 1n, 'c', false)).toBe(true)
    m.closed(m.plan(5_000).order, 11)
    expect(m.admits('Gkeeper-1', 2n, 'b', false)).toBe(true)
    expect(m.sentBySource.get('Gkeeper-1')).toBe(1)
  })

  it('lets a fee bump of the pending sequence number through (replace-by-fee), not one of another', () => {
    const m = new Mempool()
    m.add(sub('a', 'keeper-1', 1, 200, 5n))
    expect(m.admits('Gkeeper-1', 5n, 'bump', true)).toBe(true)
    expect(m.admits('Gkeeper-1', 6n, 'bump2', true)).toBe(false)
  })

  it('counts an accepted send as queued before its sender enters it, and nothing while set-up bypasses it', () => {
    const m = new Mempool()
    m.claim('Gkeeper-1', 1n, 'a')
    expect(m.admits('Gkeeper-1', 2n, 'b', false)).toBe(false)
    m.add(sub('a', 'keeper-1', 1, 200, 1n))
    expect(m.admits('Gkeeper-1', 2n, 'b', false)).toBe(false)
    m.closed(m.plan(5_000).order, 11)
    expect(m.admits('Gkeeper-1', 2n, 'b', false)).toBe(true)

    const setup = new Mempool()
    setup.bypass = true
    setup.add(sub('x', 'keeper-1', 1, 0, 1n))
    setup.claim('Gkeeper-1', 1n, 'x')
    expect(setup.admits('Gkeeper-1', 2n, 'y', false)).toBe(true)
    expect(setup.sentBySource.size).toBe(0)
  })

  it('a transaction still on its way (latency past the ledger) keeps its account queued', () => {
    const m = new Mempool()
    m.add(sub('late', 'keeper-1', 1, 7_000, 1n))
    m.closed(m.plan(5_000).order, 11)
    expect(m.isPending('late')).toBe(true)
    expect(m.admits('Gkeeper-1', 2n, 'b', false)).toBe(false)
    m.refused('keeper-1')
    expect(m.tryAgainLaterBy.get('keeper-1')).toBe(1)
  })
})
