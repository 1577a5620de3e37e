/**
 * One cycle of one adapter against a network, without the keeper daemon: getTasks → stable sort
 * by priority → estimateCapital against the vault's limits and the registry's bond limit →
 * execute with the vault bound to the keeper's key. For developing and testing an adapter; the
 * daemon's engine (plans, ledger scheduling, recovery, API) is not part of it.
 */
import type { Keypair } from '@stellar/stellar-sdk'
import { read, toStr, type Chain } from '../../../src/chain/index.js'
import { RegistryContract, VaultContract } from '../../../src/keeper/clients/index.js'
import { drawLimitOf } from '../../../src/keeper/loop/bondLimit.js'
import { returnWithFee, sortTasksByPriority, type ProtocolAdapter, type Result, type Task, type VaultClient } from '../../../src/keeper/sdk/index.js'

export interface RunCycleContext {
  chain: Chain
  /** The registered keeper's key: it signs the draws and returns. */
  keypair: Keypair
  /** The vault the adapter draws from: a contract id or a client. */
  vault: string | VaultContract
  /**
   * The keeper registry whose bond limit (the keeper's `draw_limit`) bounds its draws: a
   * contract id or a client (default: the vault's, `get_registry`).
   */
  registry?: string | RegistryContract
  /** Checked before each task: once aborted, the remaining tasks are skipped. */
  signal?: AbortSignal
}

/**
 * `executed`: execute resolved and no draw is outstanding (the Result says whether the work
 * succeeded). `failed`: execute or estimateCapital threw, or execute left a draw outstanding.
 * `skipped`: not run (vault limits, an outstanding draw, abort). `invalid`: the adapter handed
 * back something that is not a task or not a capital amount.
 */
export type TaskStatus = 'executed' | 'failed' | 'skipped' | 'invalid'

export interface TaskOutcome<D = unknown> {
  task: Task<D>
  status: TaskStatus
  /** What estimateCapital said (undefined when it was not asked or threw). */
  capital: bigint | undefined
  result?: Result
  /** Why the task was skipped, invalid or failed. */
  reason?: string
  /** USDC the adapter drew and returned through the vault client, as the vault calls went. */
  drawn: bigint
  returned: bigint
}

export interface CycleReport<D = unknown> {
  adapter: string
  /** Invalid tasks first (in the adapter's order), then the others in execution order. */
  outcomes: TaskOutcome<D>[]
  drawn: bigint
  returned: bigint
  /** Profit the vault booked over the cycle (the sum of return_proceeds answers). */
  booked: bigint
  /** The keeper fees the vault paid over the cycle (its `return` events' `fee`): the keeper's rewards. */
  rewards: bigint
  /** The keeper's outstanding draw after the cycle (0 when every draw came back). */
  outstandingDraw: bigint
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err))

/** What is wrong with a task, or undefined when it is well formed. */
export function taskProblem(task: unknown): string | undefined {
  if (typeof task !== 'object' || task === null) return `not a task object (${task === null ? 'null' : typeof task})`
  const t = task as Partial<Task>
  if (typeof t.priority !== 'number' || !Number.isFinite(t.priority) || t.priority < 0 || t.priority > 10)
    return `priority must be a number in [0, 10], got ${String(t.priority)}`
  if (typeof t.estProfit !== 'bigint') return `estProfit must be a bigint (USDC, 7 decimals), got ${typeof t.estProfit}`
  if (!('data' in t)) return 'data is missing'
  return undefined
}

export async function runCycle<D>(adapter: ProtocolAdapter<D>, ctx: RunCycleContext): Promise<CycleReport<D>> {
  const name = adapter.name()
  const vault = typeof ctx.vault === 'string' ? new VaultContract(ctx.chain, ctx.vault) : ctx.vault
  const keeper = ctx.keypair.publicKey()
  let found: unknown
  try {
    found = await adapter.getTasks(ctx.chain)
  } catch (err) {
    throw new Error(`adapter ${name}: getTasks failed: ${message(err)}`, { cause: err })
  }
  if (!Array.isArray(found)) throw new TypeError(`adapter ${name}: getTasks must resolve to an array of tasks, got ${typeof found}`)

  const report: CycleReport<D> = { adapter: name, outcomes: [], drawn: 0n, returned: 0n, booked: 0n, rewards: 0n, outstandingDraw: 0n }
  const valid: Task<D>[] = []
  found.forEach((task: Task<D>, i) => {
    const problem = taskProblem(task)
    if (problem === undefined) valid.push(task)
    else report.outcomes.push({ task, status: 'invalid', capital: undefined, reason: `task ${i}: ${problem}`, drawn: 0n, returned: 0n })
  })

  const config = await vault.getConfig()
  const drawLimit = await bondLimit(ctx, vault, keeper)
  let outstanding = await vault.getKeeperDraw(keeper)
  for (const task of sortTasksByPriority(valid)) {
    const outcome: TaskOutcome<D> = { task, status: 'skipped', capital: undefined, drawn: 0n, returned: 0n }
    report.outcomes.push(outcome)
    if (ctx.signal?.aborted) {
      outcome.reason = 'cycle aborted'
      continue
    }
    let capital: unknown
    try {
      capital = adapter.estimateCapital(task)
    } catch (err) {
      Object.assign(outcome, { status: 'failed', reason: `estimateCapital threw: ${message(err)}` })
      continue
    }
    if (typeof capital !== 'bigint' || capital < 0n) {
      Object.assign(outcome, { status: 'invalid', reason: `estimateCapital must return a bigint >= 0, got ${String(capital)}` })
      continue
    }
    outcome.capital = capital
    if (capital > 0n) {
      if (outstanding > 0n) {
        outcome.reason = `the keeper has a draw of ${outstanding} outstanding (one draw per keeper)`
        continue
      }
      if (capital > config.maxDrawPerKeeper) {
        outcome.reason = `capital ${capital} is above the vault's max_draw_per_keeper ${config.maxDrawPerKeeper}`
        continue
      }
      const state = await vault.getState()
      const idle = state.totalUsdc - state.activeLiq
      if (capital > idle) {
        outcome.reason = `capital ${capital} is above the vault's idle capital ${idle}`
        continue
      }
      if (drawLimit !== undefined && capital > drawLimit) {
        outcome.reason = `capital ${capital} is above the registry's bond limit for this keeper (draw_limit ${drawLimit}): add bond to raise it`
        continue
      }
    }

    const bound = vault.bind(ctx.keypair)
    const returned = async (amount: bigint, ms: number) => {
      const settled = await returnWithFee(bound, amount, ms)
      outcome.returned += amount
      report.booked += settled.profit
      report.rewards += settled.fee
      return settled
    }
    const tracked: VaultClient = {
      draw: async (amount) => {
        await bound.draw(amount)
        outcome.drawn += amount
      },
      returnProceeds: async (amount, ms) => (await returned(amount, ms)).profit,
      returnProceedsWithFee: (amount, ms) => returned(amount, ms),
    }
    try {
      outcome.result = await adapter.execute(ctx.chain, ctx.keypair, task, tracked)
      outcome.status = 'executed'
    } catch (err) {
      Object.assign(outcome, { status: 'failed', reason: `execute threw: ${message(err)}` })
    }
    report.drawn += outcome.drawn
    report.returned += outcome.returned
    outstanding = await vault.getKeeperDraw(keeper)
    if (outstanding > 0n) {
      outcome.status = 'failed'
      outcome.reason = `${outcome.reason === undefined ? '' : `${outcome.reason}; `}left a draw of ${outstanding} outstanding: return it with returnProceeds before execute resolves`
    }
  }
  report.outstandingDraw = outstanding
  return report
}

/**
 * The keeper's bond limit in the registry (`draw_limit`), undefined when it cannot be read (not
 * registered yet, a registry without the field): the registry decides then.
 */
async function bondLimit(ctx: RunCycleContext, vault: VaultContract, keeper: string): Promise<bigint | undefined> {
  try {
    const registry =
      ctx.registry instanceof RegistryContract
        ? ctx.registry
        : new RegistryContract(ctx.chain, ctx.registry ?? toStr(await read(ctx.chain, vault.contractId, 'get_registry')))
    return drawLimitOf(await registry.getKeeper(keeper))
  } catch {
    return undefined
  }
}
