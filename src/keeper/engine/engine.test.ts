import { Keypair } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { createChain } from '../../chain/index.js'
import { makeResult, type ExecutionPlan, type FireContext, type StagedAdapter, type StepBoundary, type Task } from '../sdk/index.js'
import { ExecutionEngine, type CapitalLimits, type EngineParameters, type ExecutionView } from './engine.js'
import { ManualLedgerClock } from './ledgerClock.js'
import { orderDue, STARVATION_LEDGERS } from './order.js'

const silent = { info() {}, warn() {}, error() {}, debug() {} }

interface Job {
  id: string
  target: number
  capital: bigint
  path?: 'atomic' | 'two-step'
  /** fire answers: lost, replan to a ledger, or throw */
  outcome?: 'lost' | 'lost-after-draw' | { replan: number } | 'throw'
  /** ledgers the fill lands after its target */
  late?: number
  expires?: number
  skip?: string
}

function world(opts: { limits?: CapitalLimits; crashAt?: StepBoundary; keepFinished?: number; returnFee?: bigint } = {}) {
  const clock = new ManualLedgerClock({ sequence: 100, closeTimeMs: 100_000 })
  const log: string[] = []
  const warnings: { obj: object; msg: string | undefined }[] = []
  const results: { view: ExecutionView; profit: bigint; responseTimeMs: number; reward: bigint | undefined }[] = []
  const crashes: StepBoundary[] = []
  let limits = opts.limits ?? { idle: 1_000n, maxDraw: 1_000n }
  const plans: string[] = []
  const adapter: StagedAdapter<Job, Job> = {
    name: () => 'fake',
    getTasks: async () => [],
    execute: async () => {
      throw new Error('not used')
    },
    estimateCapital: (t) => t.data.capital,
    taskKey: (t) => t.data.id,
    async plan(_c, _k, task) {
      plans.push(task.data.id)
      if (task.data.skip) return { skip: task.data.skip }
      return {
        key: task.data.id,
        targetLedger: task.data.target,
        capital: task.data.capital,
        priority: task.priority,
        path: task.data.path ?? 'two-step',
        ...(task.data.expires ? { expiresAtLedger: task.data.expires } : {}),
        label: task.data.id,
        data: task.data,
      }
    },
    async fire(_c, _k, plan: ExecutionPlan<Job>, ctx: FireContext) {
      const job = plan.data
      log.push(`fire ${job.id} @${(await clock.latest()).sequence}`)
      if (job.outcome === 'throw') throw new Error('rpc down')
      if (typeof job.outcome === 'object') {
        const to = job.outcome.replan
        delete job.outcome
        return { replan: to }
      }
      if (job.outcome === 'lost') return makeResult({ drew: 0n, proceeds: 0n, responseTimeMs: 0, success: false, lost: true, note: 'lost' })
      if (job.outcome === 'lost-after-draw') {
        // drew, the fill was refused (another keeper filled first), the draw went back unchanged
        await ctx.vault.draw(plan.capital)
        await ctx.step('drawn')
        await ctx.vault.returnProceeds(plan.capital, 0)
        await ctx.step('returned')
        return makeResult({ drew: plan.capital, proceeds: plan.capital, responseTimeMs: 0, success: false, lost: true, note: 'lost' })
      }
      if (plan.path === 'two-step') {
        await ctx.vault.draw(plan.capital)
        await ctx.step('drawn')
      }
      await ctx.waitUntilSendable(plan.targetLedger)
      let fillLedger = (await clock.latest()).sequence + 1
      if (job.late) {
        clock.set({ sequence: fillLedger, closeTimeMs: fillLedger * 1000 })
        fillLedger += job.late
      }
      clock.set({ sequence: fillLedger, closeTimeMs: fillLedger * 1000 })
      await ctx.step('filled', { ledger: fillLedger })
      await ctx.step('swapped')
      const rt = await ctx.responseTimeMs(fillLedger)
      if (plan.path === 'two-step') await ctx.vault.returnProceeds(plan.capital + 10n, rt)
      await ctx.step('returned')
      log.push(`done ${job.id} @${fillLedger}`)
      return makeResult({ drew: plan.capital, proceeds: plan.capital + 10n, responseTimeMs: rt })
    },
    progress: (plan, ledger) => ({ offset: ledger - 90, ratio: BigInt(ledger) * 100_000n, minProfit: 10_200_000n }),
  }
  let outstanding = 0n
  const params: EngineParameters = {
    chain: createChain({ rpcUrl: 'http://127.0.0.1:1', networkPassphrase: 'x' }),
    keypair: Keypair.random(),
    vault: {
      async draw(a) {
        if (outstanding > 0n) throw new Error('#114 DrawOutstanding')
        outstanding = a
        log.push(`draw ${a}`)
      },
      async returnProceeds(a) {
        outstanding = 0n
        log.push(`return ${a}`)
        return 10n
      },
      // A vault client that says what each return paid the keeper (the return event's fee).
      ...(opts.returnFee === undefined
        ? {}
        : {
            async returnProceedsWithFee(a: bigint) {
              outstanding = 0n
              log.push(`return ${a}`)
              return { profit: 10n - opts.returnFee!, fee: opts.returnFee! }
            },
          }),
    },
    limits: async () => limits,
    clock,
    logger: { ...silent, warn: (obj: object, msg?: string) => warnings.push({ obj, msg }) },
    emit: (kind, message) => log.push(`${kind}: ${message}`),
    onResult: (view, r) => results.push({ view, profit: r.profit, responseTimeMs: r.responseTimeMs, reward: r.reward }),
    ...(opts.crashAt ? { crashAt: opts.crashAt } : {}),
    ...(opts.keepFinished !== undefined ? { keepFinished: opts.keepFinished } : {}),
    crash: (b) => {
      crashes.push(b)
    },
  }
  const engine = new ExecutionEngine(params)
  engine.start()
  const task = (job: Job, priority = 4): Task<Job> => ({ priority, estProfit: 0n, label: job.id, data: job })
  const close = async (n = 1) => {
    for (let i = 0; i < n; i++) {
      const seq = (await clock.latest()).sequence + 1
      clock.set({ sequence: seq, closeTimeMs: seq * 1000 })
      await engine.settled()
    }
  }
  const stageOf = (id: string) => engine.executions().find((e) => e.key === `fake:${id}`)?.stage
  return { clock, engine, adapter, task, close, log, warnings, results, crashes, plans, stageOf, setLimits: (l: CapitalLimits) => (limits = l) }
}

describe('ExecutionEngine', () => {
  it('plans several auctions at once without blocking the caller and fires each at its ledger', async () => {
    const w = world()
    w.engine.onLedger({ sequence: 100, closeTimeMs: 100_000 })
    w.engine.offer(w.adapter, [w.task({ id: 'a', target: 110, capital: 100n }), w.task({ id: 'b', target: 120, capital: 200n })])
    await w.engine.settled()
    expect(w.stageOf('a')).toBe('planned')
    expect(w.stageOf('b')).toBe('planned')
    // a rescan offers the same work again: nothing is planned twice
    w.engine.offer(w.adapter, [w.task({ id: 'a', target: 110, capital: 100n })])
    await w.engine.settled()
    expect(w.plans).toEqual(['a', 'b'])
    await w.close(7) // 107: nothing due yet (two-step: due at target - 2)
    expect(w.log.filter((l) => l.startsWith('fire'))).toEqual([])
    await w.close(1) // 108: the draw goes out, then the fill waits for 109 to close
    expect(w.log).toContain('fire a @108')
    expect(w.stageOf('a')).toBe('drawn')
    await w.close(1) // 109
    expect(w.log).toContain('done a @110')
    expect(w.stageOf('a')).toBe('returned')
    expect(w.stageOf('b')).toBe('planned')
    await w.close(9)
    expect(w.stageOf('b')).toBe('returned')
    expect(w.results.map((r) => [r.view.key, r.view.stage, r.profit])).toEqual([
      ['fake:a', 'returned', 10n],
      ['fake:b', 'returned', 10n],
    ])
    const a = w.engine.executions().find((e) => e.key === 'fake:a')!
    expect(a.history.map((h) => h.stage)).toEqual(['planned', 'due', 'drawn', 'filled', 'swapped', 'returned'])
  })

  it('fires an atomic plan one ledger before its target, a two-step plan two', async () => {
    const w = world()
    w.engine.offer(w.adapter, [w.task({ id: 'atom', target: 105, capital: 100n, path: 'atomic' }), w.task({ id: 'two', target: 105, capital: 0n })])
    await w.engine.settled()
    await w.close(3) // 103
    expect(w.log.some((l) => l.startsWith('fire atom'))).toBe(false)
    expect(w.log).toContain('fire two @103')
    await w.close(1) // 104
    expect(w.log.some((l) => l.startsWith('fire atom @10'))).toBe(true)
  })

  it('keeps one outstanding draw: due two-step plans fire one after another by priority, then capital', async () => {
    const w = world()
    w.engine.offer(w.adapter, [
      w.task({ id: 'small', target: 103, capital: 100n }, 4),
      w.task({ id: 'big', target: 103, capital: 300n }, 4),
      w.task({ id: 'urgent', target: 103, capital: 50n }, 10),
    ])
    await w.engine.settled()
    await w.close(1) // 101: all three due
    await w.close(8)
    const fires = w.log.filter((l) => l.startsWith('fire')).map((l) => l.split(' ')[1])
    expect(fires).toEqual(['urgent', 'big', 'small'])
    // every draw was returned before the next one
    const money = w.log.filter((l) => l.startsWith('draw') || l.startsWith('return'))
    expect(money).toEqual(['draw 50', 'return 60', 'draw 300', 'return 310', 'draw 100', 'return 110'])
  })

  it('abandons work larger than the draw cap and holds work larger than the idle capital until it is there', async () => {
    const w = world({ limits: { idle: 150n, maxDraw: 500n } })
    w.engine.offer(w.adapter, [w.task({ id: 'huge', target: 102, capital: 900n }), w.task({ id: 'wait', target: 102, capital: 200n })])
    await w.engine.settled()
    await w.close(1)
    expect(w.stageOf('huge')).toBe('abandoned')
    expect(w.engine.executions().find((e) => e.key === 'fake:huge')!.note).toMatch(/max draw/)
    expect(w.stageOf('wait')).toBe('due')
    expect(w.engine.executions().find((e) => e.key === 'fake:wait')!.note).toMatch(/idle capital/)
    w.setLimits({ idle: 1_000n, maxDraw: 500n })
    await w.close(3)
    expect(w.stageOf('wait')).toBe('returned')
  })

  it("skips a two-step plan above the registry's bond limit with a log line; a flash (atomic) plan above it still fires", async () => {
    const w = world({ limits: { idle: 1_000n, maxDraw: 1_000n, bondLimit: 150n } })
    w.engine.offer(w.adapter, [
      w.task({ id: 'over', target: 103, capital: 200n }),
      w.task({ id: 'within', target: 103, capital: 150n }),
      w.task({ id: 'flash', target: 103, capital: 300n, path: 'atomic' }),
    ])
    await w.engine.settled()
    await w.close(6)
    expect(w.stageOf('over')).toBe('abandoned')
    expect(w.engine.executions().find((e) => e.key === 'fake:over')!.note).toBe(
      "needs a two-step draw of 200 USDC stroops, above the registry's bond limit for this keeper (draw_limit 150): skipped; add bond to raise it",
    )
    expect(w.warnings).toContainEqual({
      obj: { adapter: 'fake', key: 'fake:over', capital: '200', drawLimit: '150' },
      msg: 'two-step draw above the bond limit: execution skipped',
    })
    // nothing above the limit was ever drawn; the plan at the limit and the flash plan ran
    expect(w.log.filter((l) => l.startsWith('draw'))).toEqual(['draw 150'])
    expect(w.stageOf('within')).toBe('returned')
    expect(w.stageOf('flash')).toBe('returned')
  })

  it('no bond limit known: two-step plans are held only by the draw cap', async () => {
    const w = world({ limits: { idle: 1_000n, maxDraw: 1_000n, bondLimit: undefined } })
    w.engine.offer(w.adapter, [w.task({ id: 'big', target: 103, capital: 900n })])
    await w.engine.settled()
    await w.close(4)
    expect(w.stageOf('big')).toBe('returned')
  })

  it("gives a result the keeper fee its fire's returns were paid (the vault's return event), unless the adapter said it", async () => {
    const w = world({ returnFee: 1n })
    w.engine.offer(w.adapter, [w.task({ id: 'paid', target: 103, capital: 100n })])
    await w.engine.settled()
    await w.close(4)
    expect(w.results.map((r) => [r.view.key, r.reward])).toEqual([['fake:paid', 1n]])
    // a client that tells no fee: no reward
    const plain = world()
    plain.engine.offer(plain.adapter, [plain.task({ id: 'unpaid', target: 103, capital: 100n })])
    await plain.engine.settled()
    await plain.close(4)
    expect(plain.results.map((r) => [r.view.key, r.reward])).toEqual([['fake:unpaid', undefined]])
  })

  it('expires, re-plans, records lost races and failures', async () => {
    const w = world()
    w.engine.offer(w.adapter, [
      w.task({ id: 'exp', target: 200, capital: 1n, expires: 103 }),
      w.task({ id: 'moved', target: 103, capital: 1n, outcome: { replan: 110 } }),
      w.task({ id: 'lost', target: 102, capital: 1n, outcome: 'lost' }),
      w.task({ id: 'lostDrawn', target: 102, capital: 1n, outcome: 'lost-after-draw' }),
      w.task({ id: 'boom', target: 102, capital: 1n, outcome: 'throw' }),
      w.task({ id: 'never', target: 0, capital: 0n, skip: 'auction never clears MIN_PROFIT' }),
    ])
    await w.engine.settled()
    await w.close(4) // 104
    expect(w.stageOf('exp')).toBe('abandoned')
    expect(w.stageOf('lost')).toBe('lost')
    // a race lost after drawing: the draw went back, the execution ends lost and leaves the book
    const lostDrawn = w.engine.executions().find((e) => e.key === 'fake:lostDrawn')!
    expect(lostDrawn.stage).toBe('lost')
    expect(lostDrawn.history.map((h) => h.stage)).toEqual(['planned', 'due', 'drawn', 'returned', 'lost'])
    expect(w.engine.executions().filter((e) => e.key === 'fake:lostDrawn')).toHaveLength(1)
    w.engine.offer(w.adapter, [w.task({ id: 'lostDrawn', target: 200, capital: 1n })])
    await w.engine.settled()
    expect(w.plans.filter((id) => id === 'lostDrawn')).toHaveLength(2)
    expect(w.stageOf('boom')).toBe('abandoned')
    expect(w.stageOf('never')).toBeUndefined()
    expect(w.log.filter((l) => l.includes('never clears'))).toHaveLength(1)
    const moved = w.engine.executions().find((e) => e.key === 'fake:moved')!
    expect(moved.targetLedger).toBe(110)
    expect(moved.stage).toBe('planned')
    await w.close(8)
    expect(w.stageOf('moved')).toBe('returned')
    expect(w.engine.finishedCounts()).toEqual({ returned: 1, lost: 2, abandoned: 2 })
  })

  it('counts every finished execution even when it keeps only the last few', async () => {
    const w = world({ keepFinished: 1 })
    w.engine.offer(w.adapter, [
      w.task({ id: 'a', target: 102, capital: 1n, outcome: 'lost' }),
      w.task({ id: 'b', target: 102, capital: 1n, outcome: 'throw' }),
      w.task({ id: 'c', target: 102, capital: 1n }),
    ])
    await w.engine.settled()
    await w.close(4)
    expect(w.engine.executions().filter((e) => ['returned', 'lost', 'abandoned'].includes(e.stage))).toHaveLength(1)
    expect(w.engine.finishedCounts()).toEqual({ returned: 1, lost: 1, abandoned: 1 })
  })

  it('stops right after the configured step (fault injection) and reports the ledger-time response', async () => {
    const w = world({ crashAt: 'filled' })
    w.engine.offer(w.adapter, [w.task({ id: 'x', target: 102, capital: 5n }), w.task({ id: 'y', target: 110, capital: 5n, late: 2 })])
    await w.engine.settled()
    await w.close(1)
    expect(w.crashes).toEqual(['filled'])
    expect(w.results[0]!.responseTimeMs).toBe(0)
    await w.close(8)
    // two ledgers late: two seconds of ledger time between the planned and the fill ledger
    expect(w.results[1]!.view.key).toBe('fake:y')
    expect(w.results[1]!.responseTimeMs).toBe(2000)
  })

  it('reports progress while an auction ripens', async () => {
    const w = world()
    w.engine.offer(w.adapter, [w.task({ id: 'p', target: 150, capital: 5n })])
    await w.engine.settled()
    await w.close(20)
    const view = w.engine.executions()[0]!
    expect(view.progress).toMatchObject({ ledger: 120, offset: 30, minProfit: 10_200_000n })
    expect(w.log.some((l) => l.startsWith('progress: fake: p: block 30, lot/bid 1.2000 vs MIN_PROFIT 1.0200, fill in 30 ledger(s)'))).toBe(true)
  })
})

describe('orderDue', () => {
  it('orders by priority, then capital, then target, then arrival', () => {
    const mk = (seq: number, priority: number, capital: bigint, targetLedger: number) => ({ seq, plan: { priority, capital, targetLedger } })
    const out = orderDue([mk(0, 1, 5n, 9), mk(1, 4, 5n, 9), mk(2, 4, 9n, 9), mk(3, 4, 9n, 8), mk(4, 4, 9n, 8)])
    expect(out.map((e) => e.seq)).toEqual([3, 4, 2, 1, 0])
  })

  it('puts the larger expected profit first within a priority band, across pools, unknown profit last', () => {
    const mk = (seq: number, priority: number, capital: bigint, expectedProfit?: bigint) => ({
      seq,
      plan: { priority, capital, targetLedger: 10, ...(expectedProfit === undefined ? {} : { expectedProfit }) },
    })
    // A small fill in one pool that earns more beats a larger draw in another that earns less;
    // a lower health-factor band still goes first whatever it earns.
    const out = orderDue([mk(0, 4, 900n, 10n), mk(1, 4, 100n, 50n), mk(2, 4, 5_000n), mk(3, 7, 10n, 1n), mk(4, 4, 100n, 50n)])
    expect(out.map((e) => e.seq)).toEqual([3, 1, 4, 0, 2])
  })

  it('lets a fill that has waited STARVATION_LEDGERS past its first target go ahead of more profitable ones in its band', () => {
    const mk = (seq: number, priority: number, expectedProfit: bigint, firstTarget: number) => ({ seq, firstTarget, plan: { priority, capital: 100n, targetLedger: 500, expectedProfit } })
    const due = [mk(0, 4, 90n, 100), mk(1, 4, 10n, 100 - STARVATION_LEDGERS), mk(2, 4, 5n, 100 - STARVATION_LEDGERS - 3), mk(3, 4, 50n, 100 - STARVATION_LEDGERS + 1), mk(4, 7, 1n, 100)]
    // at ledger 100: 2 waited 13, 1 waited 10 (both go first, the longer first); 3 waited 9 (by profit)
    expect(orderDue(due, 100).map((e) => e.seq)).toEqual([4, 2, 1, 0, 3])
    // without the latest ledger, by profit alone
    expect(orderDue(due).map((e) => e.seq)).toEqual([4, 0, 3, 1, 2])
  })
})
