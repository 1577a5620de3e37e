import { sortTasksByPriority, type Task } from '../sdk/index.js'
import { poolFigures, setPoolGauges } from '../state/pools.js'
import { clampTaskPriorities } from '../sdk/priority.js'
import { toUnits } from '../metrics.js'
import { recoverStaleDraw } from './recovery.js'
import type { CycleDeps, CycleReport } from './types.js'

function errInfo(err: unknown): { err: string; code?: number } {
  const e = err as { message?: unknown; code?: unknown }
  const msg = typeof e?.message === 'string' ? e.message : String(err)
  return typeof e?.code === 'number' ? { err: msg, code: e.code } : { err: msg }
}

/** Counts an error in the report and keeps its words for `cycles.lastError`. */
function failed(report: CycleReport, stage: string, err: unknown): void {
  report.errors++
  report.errorMessages.push(`${stage}: ${errInfo(err).err}`)
}

/**
 * One poll cycle, as a pipeline:
 * 0. registration, retried while it has failed (an RPC down at start);
 * 1. stale-draw recovery (before anything can draw again; skipped while the engine itself holds
 *    a draw, which it returns on its own);
 * 2. for each adapter in order: getTasks → hand the tasks to the execution engine, which plans
 *    them in the background and fires each when its ledger comes (nothing here waits for one);
 * 3. refresh state: positions, vault state, registered keepers (this keeper's registration and
 *    slashed flag), the operator's XLM balance, KNOWN_DEPOSITORS balances, the engine's book.
 *
 * A failed step or adapter is logged and skipped: nothing here throws. When `signal` is aborted
 * the cycle skips the remaining adapters. At the end, `cycles.lastError` on the dashboard state
 * says what the cycle's first error was (null after a clean cycle; `lastErrorAt` keeps when a
 * cycle last had one) and `service_last_cycle_timestamp_seconds` is set.
 */
export async function runCycle(deps: CycleDeps, signal?: AbortSignal): Promise<CycleReport> {
  const started = Date.now()
  const report: CycleReport = {
    recovered: 0n,
    tasksFound: 0,
    errors: 0,
    errorMessages: [],
    abandoned: false,
    durationMs: 0,
  }
  const { logger, metrics, events } = deps

  // 0. registration, while it has failed
  if (deps.registration !== undefined) {
    try {
      const still = await deps.registration.retryIfFailed()
      if (still !== undefined) failed(report, 'registration', new Error(still))
    } catch (err) {
      failed(report, 'registration', err)
    }
  }

  // 1. stale-draw recovery, holding the engine's draw lock so no fire draws meanwhile
  try {
    const rec = await deps.engine.whileNoDraw(() => recoverStaleDraw(deps))
    if (rec === undefined) logger.debug({ stage: 'recovery' }, 'a fire holds the draw: recovery skipped this cycle')
    else {
      logger.debug({ stage: 'recovery', outcome: rec.kind, ms: Date.now() - started }, 'stale-draw check done')
      if (rec.kind === 'returned') report.recovered = rec.returned
    }
  } catch (err) {
    failed(report, 'recovery', err)
    metrics.rpcErrors.inc({ stage: 'recovery' })
    logger.error(errInfo(err), 'stale-draw recovery failed')
    events.push('error', `stale-draw recovery failed: ${errInfo(err).err}`)
  }

  // 2. scan and plan
  for (const adapter of deps.adapters) {
    if (signal?.aborted) {
      report.abandoned = true
      break
    }
    const name = safeName(adapter)
    let tasks: Task<unknown>[]
    try {
      // Priorities clamped to [0, 10] as the tasks enter the engine: 99, -3 or NaN cannot break the order.
      tasks = clampTaskPriorities(sortTasksByPriority(await adapter.getTasks(deps.chain)))
    } catch (err) {
      failed(report, `${name} scan`, err)
      metrics.adapterErrors.inc({ adapter: name, stage: 'get_tasks' })
      logger.error({ adapter: name, ...errInfo(err) }, 'getTasks failed')
      events.push('error', `${name}: scan failed: ${errInfo(err).err}`, { adapter: name })
      continue
    }
    report.tasksFound += tasks.length
    events.push('scan', `${name}: ${tasks.length} task(s)`, { adapter: name, tasks: tasks.length })
    deps.engine.offer(adapter, tasks)
  }

  // 3. refresh state
  await refreshState(deps, report)
  report.durationMs = Date.now() - started
  finishCycle(deps, report)
  return report
}

/** The cycle's outcome on the dashboard state and the metrics. */
function finishCycle(deps: CycleDeps, report: CycleReport): void {
  const cycles = deps.state.cycles
  const [first] = report.errorMessages
  if (first === undefined) cycles.lastError = null
  else {
    const more = report.errorMessages.length - 1
    cycles.lastError = more > 0 ? `${first} (+${more} more)` : first
    cycles.lastErrorAt = new Date().toISOString()
  }
  deps.metrics.lastCycleTimestamp.set(Date.now() / 1000)
}

function safeName(adapter: { name(): string }): string {
  try {
    return adapter.name()
  } catch {
    return 'unnamed'
  }
}

async function step(deps: CycleDeps, report: CycleReport, stage: string, f: () => Promise<void>): Promise<void> {
  const started = Date.now()
  try {
    await f()
    deps.logger.debug({ stage, ms: Date.now() - started }, 'state refresh step done')
  } catch (err) {
    failed(report, stage, err)
    deps.metrics.rpcErrors.inc({ stage })
    deps.logger.warn({ stage, ...errInfo(err) }, 'state refresh step failed')
  }
}

/** Step 3: re-read what the dashboard shows. Each read fails on its own. */
export async function refreshState(deps: CycleDeps, report: CycleReport): Promise<void> {
  const { state, metrics } = deps
  const positions: typeof state.positions = []
  for (const adapter of deps.adapters) {
    if (!adapter.getPositions) continue
    try {
      positions.push(...(await adapter.getPositions(deps.chain)))
    } catch (err) {
      failed(report, `${safeName(adapter)} positions`, err)
      metrics.adapterErrors.inc({ adapter: safeName(adapter), stage: 'positions' })
      deps.logger.warn({ adapter: safeName(adapter), ...errInfo(err) }, 'positions refresh failed')
    }
  }
  state.positions = positions
  state.executions = deps.engine.executions()
  setPoolGauges(metrics, poolFigures(state.lendingPools, positions, state.executions, state.poolBooks))
  await Promise.all([
    step(deps, report, 'vault_state', async () => {
      state.vault = await deps.vault.getState()
      metrics.vaultTvl.set(toUnits(state.vault.totalUsdc))
    }),
    step(deps, report, 'keepers', async () => {
      state.keepers = await deps.registry.getKeepers()
      const me = deps.keeperAddress ?? deps.keypair.publicKey()
      state.self = state.keepers.find((k) => k.operator === me) ?? null
      metrics.keeperRegistered.set(state.self === null ? 0 : 1)
      metrics.keeperSlashed.set(state.self?.slashed === true ? 1 : 0)
    }),
    ...(deps.xlmBalance === undefined
      ? []
      : [
          step(deps, report, 'operator_balance', async () => {
            // The operator pays the fees, also with an executor; a missing account holds nothing.
            const stroops = (await deps.xlmBalance!(deps.keypair.publicKey())) ?? 0n
            state.operatorXlm = stroops
            metrics.operatorXlmBalance.set(toUnits(stroops))
          }),
        ]),
    ...(deps.draws === undefined ? [] : [step(deps, report, 'draw', () => deps.draws!.refresh())]),
    step(deps, report, 'depositors', async () => {
      state.depositors = await Promise.all(
        deps.knownDepositors.map(async (address) => {
          const [balance, info] = await Promise.all([deps.vault.balance(address), deps.vault.getDepositor(address)])
          return { address, balance, shares: info.shares, costBasis: info.costBasis }
        }),
      )
    }),
  ])
  state.updatedAt = new Date().toISOString()
}
