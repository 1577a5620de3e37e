import { describe, expect, it } from 'vitest'
import { ErrAlreadyFilled, ErrBadTask } from '../adapters/blend/errors.js'
import { lostRace } from '../adapters/blend/userLiquidation.js'
import { buildApp } from '../app.js'
import { runCycle } from '../loop/cycle.js'
import type { StagedAdapter, Task } from '../sdk/index.js'
import { cycleWorld, recordingLogger } from '../../../test/keeper/cycleFakes.js'

type Job = { id: string; kind: 'lost' | 'gone' | 'throws' }

/** A staged adapter whose work ends in typed errors: a lost race, a skip, a throw. */
const adapter: StagedAdapter<Job, Job> = {
  name: () => 'blend',
  getTasks: async () => [],
  execute: async () => {
    throw new Error('not used')
  },
  estimateCapital: () => 0n,
  taskKey: (t) => t.data.id,
  async plan(_c, _k, task) {
    if (task.data.kind === 'gone') {
      const error = new ErrAlreadyFilled(task.data.id, 'no open auction')
      return { skip: error.message, error }
    }
    return { key: task.data.id, targetLedger: 100, capital: 0n, priority: 5, path: 'atomic', label: task.data.id, data: task.data }
  },
  async fire(_c, _k, plan) {
    if (plan.data.kind === 'throws') throw new ErrBadTask('not a Blend task')
    return lostRace(new ErrAlreadyFilled(plan.data.id))
  },
}
const task = (id: string, kind: Job['kind']): Task<Job> => ({ priority: 5, estProfit: 0n, label: id, data: { id, kind } })

describe('typed errors through the engine to the record, the log, the events and /api/state', () => {
  it('a lost race is an ErrAlreadyFilled on the execution and on the API, with its name and code', async () => {
    const rec = recordingLogger()
    const w = cycleWorld({ logger: rec.logger, adapters: [{ ...adapter, getTasks: async () => [task('GLOST', 'lost'), task('GGONE', 'gone'), task('GBAD', 'throws')] }] })
    await runCycle(w.deps)
    await w.deps.engine.drained()

    const byKey = new Map(w.deps.engine.executions().map((e) => [e.key, e]))
    const lost = byKey.get('blend:GLOST')!
    expect(lost.stage).toBe('lost')
    expect(lost.error).toBeInstanceOf(ErrAlreadyFilled)
    expect(lost.result?.error).toBe(lost.error)
    const thrown = byKey.get('blend:GBAD')!
    expect(thrown.stage).toBe('abandoned')
    expect(thrown.error).toBeInstanceOf(ErrBadTask)
    expect(byKey.has('blend:GGONE')).toBe(false)

    // The record and the log line of the finished execution.
    expect(w.deps.state.history.map((h) => h.error?.name)).toEqual(['ErrAlreadyFilled'])
    expect(rec.lines.find((l) => l.msg === 'task executed')?.obj).toMatchObject({ error: 'ErrAlreadyFilled', errorCode: 'ALREADY_FILLED' })
    expect(rec.lines.find((l) => l.msg === 'nothing to plan')?.obj).toMatchObject({ error: 'ErrAlreadyFilled' })
    expect(rec.lines.find((l) => l.msg === 'execution failed')?.obj).toMatchObject({ error: 'ErrBadTask' })

    // The events: every one of them names its error.
    const named = w.deps.events
      .recent()
      .filter((e) => e.data?.error !== undefined)
      .map((e) => [e.kind, (e.data!.error as { name: string }).name])
    expect(named).toEqual(expect.arrayContaining([['miss', 'ErrAlreadyFilled'], ['error', 'ErrBadTask']]))
    expect(named.filter(([k]) => k === 'miss')).toHaveLength(2)

    // /api/state and /api/performance (the book as the next cycle's refresh copies it).
    w.deps.state.executions = w.deps.engine.executions()
    // The planned executions are served only with the API token.
    const apiToken = 'typed-errors-api-token-0123'
    const app = await buildApp({ state: w.deps.state, events: w.deps.events, metrics: w.deps.metrics, apiToken })
    try {
      const s = (await app.inject({ method: 'GET', url: '/api/state', headers: { authorization: `Bearer ${apiToken}` } })).json()
      const view = (key: string) => s.executions.find((e: { key: string }) => e.key === key)
      expect(view('blend:GLOST').error).toEqual({ name: 'ErrAlreadyFilled', code: 'ALREADY_FILLED', message: 'auction for GLOST already filled' })
      expect(view('blend:GLOST').result).toMatchObject({ success: false, lost: true, error: { name: 'ErrAlreadyFilled' } })
      expect(view('blend:GBAD').error).toMatchObject({ name: 'ErrBadTask', code: 'BAD_TASK' })
      const p = (await app.inject({ method: 'GET', url: '/api/performance' })).json()
      expect(p.liquidations.recent[0]).toMatchObject({ label: 'GLOST', success: false, liquidation: true, error: { name: 'ErrAlreadyFilled' } })
    } finally {
      await app.close()
    }
  })
})
