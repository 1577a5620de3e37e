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
