/**
 * Firing: sends a due execution through its adapter (a plain adapter's `execute`, a staged
 * adapter's `fire` with its step reports), then records the result or the failure in the book.
 */
import type { Keypair } from '@stellar/stellar-sdk'
import type { Chain } from '../../chain/index.js'
import { isReplan, isStaged, makeResult, returnWithFee, type AdapterLogger, type FireContext, type Result, type Stage, type StepBoundary, type VaultClient, type WouldFill } from '../sdk/index.js'
import { errMessage, errorTag, isDueAt, view, type Entry, type ExecutionBook, type ExecutionView } from './book.js'
import type { LedgerClock } from './ledgerClock.js'
import type { Scheduler } from './schedule.js'
import { shadowNote, shadowRecord, type ShadowSink } from './shadowFire.js'

export interface FirerParameters {
  chain: Chain
  keypair: Keypair
  vault: VaultClient
  clock: LedgerClock
  logger: AdapterLogger
  emit: (kind: string, message: string, data?: Record<string, unknown>) => void
  onResult?: ((execution: ExecutionView, result: Result) => void) | undefined
  onError?: ((adapter: string, stage: 'plan' | 'fire', err: unknown) => void) | undefined
  crashAt?: StepBoundary | undefined
  crash?: ((boundary: StepBoundary) => void | Promise<void>) | undefined
  book: ExecutionBook
  scheduler: Scheduler
  /** A fire parks until a later ledger closes (it cannot move before then), then unparks. */
  park: () => void
  unpark: () => void
  /** Dry run (DRY_RUN=true): fills are reported to `wouldFill` and booked here; nothing is sent. */
  dryRun?: ShadowSink | undefined
}

export class Firer {
  /** Dry run: the keys of plain adapters' work already booked as shadow records. */
  private readonly plainBooked = new Set<string>()

  constructor(private readonly p: FirerParameters) {}

  async fire(e: Entry): Promise<void> {
    const { book } = this.p
    const held = this.p.scheduler.heldBy(e)
    const rewards = tallyRewards(this.p.vault)
    const dry = this.p.dryRun
    let would: WouldFill | undefined
    try {
      if (!isStaged(e.adapter)) {
        if (dry !== undefined) return this.finishDry(dry, e, undefined, undefined)
        const result = await e.adapter.execute(this.p.chain, this.p.keypair, e.task!, rewards.vault)
        this.finishWith(e, withReward(result, rewards.total()))
        return
      }
      const fc = this.context(e, rewards.vault)
      if (dry !== undefined) fc.wouldFill = (w) => (would = w)
      const outcome = await e.adapter.fire(this.p.chain, this.p.keypair, e.plan, fc)
      if (isReplan(outcome)) {
        e.plan = { ...e.plan, targetLedger: outcome.replan }
        e.moved = true
        e.firing = false
        book.move(e, isDueAt(e.plan, book.latest) ? 'due' : 'planned')
        this.p.logger.info({ adapter: e.adapterName, key: e.plan.key, targetLedger: outcome.replan, latest: book.latest }, 'execution re-planned')
        this.p.emit('plan', `${e.adapterName}: ${e.label}: prices moved, fill re-planned at ledger ${outcome.replan}`, {
          adapter: e.adapterName,
          key: e.plan.key,
          targetLedger: outcome.replan,
        })
        return
      }
      if (dry !== undefined && would !== undefined) return this.finishDry(dry, e, would, outcome)
      this.finishWith(e, withReward(outcome, rewards.total()))
    } catch (err) {
      if (dry !== undefined && would !== undefined) return this.finishDry(dry, e, would, err)
      this.p.onError?.(e.adapterName, 'fire', err)
      const drawn = e.stage === 'drawn' || e.stage === 'filled' || e.stage === 'swapped'
      const note = `${errMessage(err)}${drawn ? ' (a draw may be outstanding: stale-draw recovery returns it)' : ''}`
      if (err instanceof Error) e.error = err
      const error = errorTag(e.error)
      this.p.logger.error({ adapter: e.adapterName, key: e.plan.key, stage: e.stage, err: errMessage(err), ...(error ? { error: error.name } : {}) }, 'execution failed')
      this.p.emit('error', `${e.adapterName}: ${e.label}: ${note}`, { adapter: e.adapterName, key: e.plan.key, stage: e.stage, ...(error ? { error } : {}) })
      book.finish(e, 'abandoned', note)
    } finally {
      this.p.scheduler.release(held)
    }
  }

  private context(e: Entry, vault: VaultClient): FireContext {
    const { book } = this.p
    return {
      vault,
      step: async (boundary, info) => {
        book.move(e, boundary, info?.ledger ?? book.latest)
        this.p.logger.info({ adapter: e.adapterName, key: e.plan.key, step: boundary, ledger: info?.ledger, tx: info?.txHash }, `execution ${boundary}`)
        if (this.p.crashAt === boundary) {
          this.p.logger.warn({ step: boundary }, 'fault injection: crashing at this step')
          await (this.p.crash ?? (() => process.kill(process.pid, 'SIGKILL')))(boundary)
        }
      },
      waitUntilSendable: async (ledger) => {
        if (book.latest >= ledger - 1) return
        this.p.park()
        try {
          await this.p.clock.waitFor(ledger - 1)
        } finally {
          this.p.unpark()
        }
      },
      responseTimeMs: (fillLedger) => this.responseTime(e.plan.targetLedger, fillLedger),
    }
  }

  /** Close time of the fill's ledger minus that of the planned ledger (ms; 0 when on time). */
  private async responseTime(planned: number, fillLedger: number): Promise<number> {
    if (fillLedger <= planned) return 0
    const [a, b] = await Promise.all([this.p.clock.closeTimeOf(planned), this.p.clock.closeTimeOf(fillLedger)])
    if (a !== undefined && b !== undefined) return Math.max(0, b - a)
    // Not seen (yet): the ledgers late at the clock's ledger time (observed, else the network's).
    return Math.round((fillLedger - planned) * this.p.clock.ledgerMs())
  }

  /** A dry run's due execution: booked as a would-fill, the execution finished without anything sent. */
  private finishDry(dry: ShadowSink, e: Entry, would: WouldFill | undefined, ended: unknown): void {
    const record = shadowRecord(e, would, ended)
    const note = shadowNote(record)
    // A plain adapter's task comes back with every scan: booked once, not once per cycle.
    const again = would === undefined && this.plainBooked.has(e.plan.key)
    e.result = makeResult({ drew: 0n, proceeds: 0n, responseTimeMs: 0, success: false, note })
    if (again) return this.p.book.finish(e, 'abandoned', note)
    if (would === undefined) this.plainBooked.add(e.plan.key)
    const rec = dry.record(record)
    this.p.logger.info(
      { adapter: e.adapterName, key: e.plan.key, target: rec.target, fillLedger: rec.fillLedger, firstPlannedLedger: rec.firstPlannedLedger, percent: rec.percent, drew: rec.drew.toString(), expectedProfit: rec.expectedProfit?.toString() ?? null, expectedReward: rec.expectedReward?.toString() ?? null, simulation: rec.simulation, reason: rec.reason },
      'dry run: would fill',
    )
    this.p.emit('shadow', `${e.adapterName}: ${e.label}: ${note}`, { adapter: e.adapterName, key: e.plan.key, fillLedger: rec.fillLedger, simulation: rec.simulation })
    // Nothing was drawn or sent: a result of nothing (above), so the book says no `miss` for it.
    this.p.book.finish(e, 'abandoned', note)
  }

  private finishWith(e: Entry, result: Result): void {
    const stage: Stage = result.success === false ? (result.lost ? 'lost' : 'abandoned') : 'returned'
    e.result = result
    e.error = result.error ?? null
    this.p.onResult?.(view({ ...e, stage }), result)
    this.p.book.finish(e, stage, result.note ?? null)
  }
}

/**
 * The engine's vault client for one fire, adding up the keeper fee of every return made through
 * it (a client without `returnProceedsWithFee` tells none: 0).
 */
export function tallyRewards(vault: VaultClient): { vault: VaultClient; total: () => bigint } {
  let total = 0n
  const withFee = async (amount: bigint, responseTimeMs: number) => {
    const settled = await returnWithFee(vault, amount, responseTimeMs)
    if (settled.fee > 0n) total += settled.fee
    return settled
  }
  return {
    vault: {
      draw: (amount) => vault.draw(amount),
      returnProceeds: async (amount, responseTimeMs) => (await withFee(amount, responseTimeMs)).profit,
      returnProceedsWithFee: withFee,
    },
    total: () => total,
  }
}

/** The result with the reward its returns were paid, unless the adapter said it itself. */
function withReward(result: Result, tallied: bigint): Result {
  return result.reward === undefined && tallied > 0n ? { ...result, reward: tallied } : result
}
