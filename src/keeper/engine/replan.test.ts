/**
 * Planning that costs what changed: the engine keeps a plan until one of its inputs changes
 * (adapter `stale`), then plans it again. Over random sequences of inputs it must fire exactly
 * when a keeper that planned everything from scratch every ledger would.
 */
import { Keypair } from '@stellar/stellar-sdk'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createChain } from '../../chain/index.js'
import { makeResult, type ExecutionPlan, type StagedAdapter, type Task } from '../sdk/index.js'
import { ExecutionEngine } from './engine.js'
import { ManualLedgerClock } from './ledgerClock.js'

const silent = { info() {}, warn() {}, error() {}, debug() {} }
const START = 100

/**
 * The one input of the model: a price level per ledger (0: the auction pays at no ledger).
 * At level p the fill clears MIN_PROFIT from block START + 10 × (6 − p) on: a higher price
 * fills sooner, as a dearer lot does.
 */
function firstFeasible(level: number, from: number): number | null {
  if (level === 0) return null
  return Math.max(from, START + 10 * (6 - level))
}

/** The reference: planned from scratch at every ledger; fires at the first ledger whose plan is due. */
function fromScratch(levels: readonly number[]): number | null {
  for (let i = 0; i < levels.length; i++) {
    const ledger = START + i
    if (firstFeasible(levels[i]!, ledger + 1) === ledger + 1) return ledger + 1
  }
  return null
}

interface Plan {
  level: number
}

/**
 * The engine with an adapter that reads the level of the latest ledger. `stale`: never asked
 * ('none'), on any change of the level ('any'), or, as the Blend adapter, when the level moved and
 * the fill may now come sooner than the held target or never ('sooner'; a later one is left to
 * `fire`).
 */
async function incremental(levels: readonly number[], mode: 'none' | 'any' | 'sooner'): Promise<{ filled: number | null; plans: number }> {
  const clock = new ManualLedgerClock({ sequence: START, closeTimeMs: START * 1000 })
  let now = START
  const level = () => levels[now - START]!
  let filled: number | null = null
  let plans = 0
  const adapter: StagedAdapter<null, Plan> = {
    name: () => 'model',
    getTasks: async () => [],
    execute: async () => {
      throw new Error('not used')
    },
    estimateCapital: () => 1n,
    taskKey: () => 'auction',
    async plan() {
      plans++
      const target = firstFeasible(level(), now + 1)
      if (target === null) return { skip: 'never pays' }
      return { key: 'auction', targetLedger: target, capital: 1n, priority: 4, path: 'atomic', data: { level: level() } }
    },
    async fire(_c, _k, plan: ExecutionPlan<Plan>) {
      // Valued afresh before sending, as every fire is.
      const earliest = Math.max(plan.targetLedger, now + 1)
      const first = firstFeasible(level(), earliest)
      if (first === null) return makeResult({ drew: 0n, proceeds: 0n, responseTimeMs: 0, success: false, note: 'no longer pays' })
      if (first > earliest) return { replan: first }
      filled = earliest
      return makeResult({ drew: 1n, proceeds: 2n, responseTimeMs: 0 })
    },
    ...(mode === 'none'
      ? {}
      : {
          stale: (_c: unknown, plan: ExecutionPlan<Plan>) => {
            if (plan.data.level === level()) return false
            if (mode === 'any') return true
            const first = firstFeasible(level(), now + 1)
            return first === null || first < plan.targetLedger
          },
        }),
  }
  const engine = new ExecutionEngine({
    chain: createChain({ rpcUrl: 'http://127.0.0.1:1', networkPassphrase: 'x' }),
    keypair: Keypair.random(),
    vault: { draw: async () => {}, returnProceeds: async () => 1n },
    limits: async () => ({ idle: 1_000n, maxDraw: 1_000n }),
    clock,
    logger: silent,
    emit: () => {},
  })
  engine.start()
  const task: Task<null> = { priority: 4, estProfit: 0n, label: 'auction', data: null }
  for (let i = 0; i < levels.length && filled === null; i++) {
    now = START + i
    if (i > 0) clock.set({ sequence: now, closeTimeMs: now * 1000 })
    await engine.settled()
    if (filled !== null) break
    // The poll after the close: the scan offers the open auction again.
    engine.offer(adapter, [task])
    await engine.settled()
  }
  await engine.stop()
  return { filled, plans }
}

/** Levels that hold for a while, then move: most ledgers change nothing. */
const levelRuns = fc
  .array(fc.record({ level: fc.integer({ min: 0, max: 5 }), ledgers: fc.integer({ min: 1, max: 12 }) }), { minLength: 1, maxLength: 12 })
  .map((runs) => runs.flatMap((r) => Array<number>(r.ledgers).fill(r.level)))

describe('planning again only when inputs changed', () => {
  it('fires at the same ledger as planning from scratch every ledger, over random sequences', async () => {
    await fc.assert(
      fc.asyncProperty(levelRuns, async (levels) => {
        const reference = fromScratch(levels)
        expect((await incremental(levels, 'sooner')).filled).toBe(reference)
        expect((await incremental(levels, 'any')).filled).toBe(reference)
      }),
      { numRuns: 300 },
    )
  })

  it('plans again only when the fill may come sooner: falls in price are left to fire', async () => {
    // Level 4 (block 120) falls to 3 (block 130) at ledger 105 and to 2 (block 140) at 110.
    const levels = [...Array<number>(5).fill(4), ...Array<number>(5).fill(3), ...Array<number>(40).fill(2)]
    const sooner = await incremental(levels, 'sooner')
    const any = await incremental(levels, 'any')
    expect(sooner.filled).toBe(START + 40)
    expect(any.filled).toBe(START + 40)
    // Planned at 100, then once more after fire moved it (at 119): its inputs were the first plan's.
    expect(sooner.plans).toBe(2)
    // Planned at 100, 105 and 110.
    expect(any.plans).toBe(3)
  })

  it('plans once while nothing changes', async () => {
    const got = await incremental(Array<number>(40).fill(3), 'sooner')
    expect(got.filled).toBe(START + 30)
    expect(got.plans).toBe(1)
  })

  it('without the check, a plan made before a price rise fires late (what the property guards)', async () => {
    // Planned at level 1 (block 150); at ledger 105 the price rises to level 5 (block 110).
    const levels = [...Array<number>(5).fill(1), ...Array<number>(60).fill(5)]
    expect(fromScratch(levels)).toBe(START + 10)
    expect((await incremental(levels, 'sooner')).filled).toBe(START + 10)
    expect((await incremental(levels, 'none')).filled).toBe(START + 50)
  })

  it('drops a plan whose auction no longer pays, and plans it again when it does', async () => {
    const levels = [...Array<number>(3).fill(2), ...Array<number>(5).fill(0), ...Array<number>(50).fill(2)]
    const got = await incremental(levels, 'sooner')
    expect(got.filled).toBe(fromScratch(levels))
    expect(got.filled).toBe(START + 40)
  })
})
