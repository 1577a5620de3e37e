/**
 * The lockstep: one iteration per ledger. The environment acts (oracle, flows, outages,
 * arbitrage), keepers whose poll is due start a cycle, and engines fire what the last close made
 * due; once every agent waits on something only a close can end (Scheduler.settle, which also
 * fixes the order agents see their answers in), the mempool's seeded order is handed to the node
 * (`sandbox_closeLedgers {order}`), the ledger closes, every keeper's clock moves, and
 * transactions waiting for that ledger get their results.
 *
 * Fast-forward: when no keeper holds work, nothing waits in the mempool, no keeper is due to
 * restart and the pool has nobody to liquidate and no auction open (a scan by the production
 * PoolScanner, repeated at every oracle post and every minute), ledgers up to the next decisive
 * scenario event are closed in one call without anyone acting: no decision could change there.
 * The same holds while auctions ripen: when the only business is open user-liquidation auctions
 * that every running keeper has planned, and no keeper holds anything but those plans, the
 * ledgers before the first one any plan becomes due (and before the core's first profitable
 * ledger at the keepers' lowest MIN_PROFIT, less the fire lead) close in one call too, as
 * long as the arbitrageurs would not have traded there (fills follow, at the DEX's prices).
 *
 * Adversaries (sim/src/agents/adversaries) act after the environment; one that waits for a
 * given ledger makes it decisive, and one between two of its waits (a transaction out, a read)
 * holds off fast-forward like a busy keeper. One waiting to back-run is woken after the ledger's
 * agents have settled (its transaction then arrives after theirs), and the ledger settles again.
 */
import type { LedgerInfo } from '../../../src/keeper/engine/index.js'
import type { Environment } from '../agents/environment.js'
import type { SimKeeper } from '../agents/keepers.js'
import type { Mempool } from './mempool.js'
import type { Scheduler } from './scheduler.js'

/** The hostile agents as the loop sees them. */
export interface LockstepAdversaries {
  /** Starts what they do in `step` (after the environment). */
  act: (step: number, ledger: number) => void
  /** After the ledger's agents settled: wakes those waiting to back-run; true when any woke. */
  backrun: (ledger: number) => boolean
  /** Whether one waits for `step` (no fast-forward over it). */
  decisive: (step: number) => boolean
  /** Whether one is between two of its waits (no fast-forward now). */
  busy: () => boolean
}

export interface LoopParameters {
  steps: number
  ledgerSeconds: number
  startLedger: number
  fastForward: boolean
  env: Environment
  /** Other users' transactions, sent every ledger (no fast-forward while it runs). */
  background?: { act: (ledger: number) => void }
  keepers: SimKeeper[]
  adversaries?: LockstepAdversaries
  mempool: Mempool
  scheduler: Scheduler
  /**
   * Closes one ledger applying `order` (latency ordering), or one ordinary ledger with `arrived`
   * as the node's candidates (core ordering: the answer says what it applied, in order, and what
   * its queue dropped), or `count` ledgers with nothing pending.
   */
  close: (p: { order?: string[]; arrived?: string[]; count?: number }) => Promise<ClosedLedger>
  /** Whether the pool has anything a keeper could act on (liquidatable users, open auctions). */
  poolActive: (step: number) => Promise<boolean>
  /**
   * After `poolActive` said yes: when its only business is ripening user-liquidation auctions,
   * how many there are and the first ledger any of them can be filled at the keepers' lowest
   * MIN_PROFIT (or expires); null otherwise. Absent: no fast-forward over ripening auctions.
   */
  ripening?: (step: number) => { auctions: number; until: number } | null
  /** Ledgers after a crash before a restart (per keeper), null = never. */
  restartSteps: (k: SimKeeper) => number | null
  /** After each close (series, replay). `stepsDone` counts simulated ledgers. */
  onClose: (info: LedgerInfo, stepsDone: number, skipped: number) => Promise<void>
}

export interface ClosedLedger extends LedgerInfo {
  applied?: string[]
  dropped?: string[]
}

export interface LoopResult {
  fastForwarded: number
  end: LedgerInfo | undefined
}

export async function runLockstep(p: LoopParameters): Promise<LoopResult> {
  let step = 1
  let fastForwarded = 0
  let end: LedgerInfo | undefined
  const crashStep = new Map<SimKeeper, number>()
  while (step <= p.steps) {
    const ledger = p.startLedger + step
    for (const k of p.keepers) if (k.crashed && !k.alive && !crashStep.has(k)) crashStep.set(k, step)
    const restartDue = p.keepers.filter((k) => {
      const at = crashStep.get(k)
      const wait = p.restartSteps(k)
      return at !== undefined && !k.alive && wait !== null && step >= at + wait
    })

    const decisive = (s: number) => p.env.decisive(s) || p.adversaries?.decisive(s) === true
    const room = p.fastForward && p.background === undefined && restartDue.length === 0 && !decisive(step) ? await quietLedgers(p, step, ledger) : 0
    if (room > 0) {
      // Up to (not including) the next step where something decisive is scheduled.
      let next = step + 1
      while (next <= p.steps && next - step < room && !decisive(next) && next - step < 720) next++
      const count = next - step
      end = await p.close({ count })
      p.scheduler.closed(count)
      for (const k of p.keepers) k.observe(end)
      fastForwarded += count
      step += count
      await p.onClose(end, step - 1, count)
      continue
    }

    p.env.act(step, ledger, true)
    p.adversaries?.act(step, ledger)
    p.background?.act(ledger)
    if (restartDue.length > 0) {
      const latest = end ?? { sequence: ledger - 1, closeTimeMs: 0 }
      let started = false
      const starts = Promise.all(restartDue.map((k) => (crashStep.delete(k), k.start(latest)))).finally(() => (started = true))
      await p.scheduler.settle()
      if (!started) throw new Error(`a keeper restarting in ledger ${ledger} waits for a close`)
      await starts
    }
    for (const k of p.keepers) if (k.pollsAt(ledger)) k.poll()
    await p.scheduler.settle()
    if (p.adversaries?.backrun(ledger) === true) await p.scheduler.settle()
    if (p.mempool.ordering === 'core') {
      const closed = await p.close({ arrived: p.mempool.arrivals(p.ledgerSeconds * 1000) })
      end = { sequence: closed.sequence, closeTimeMs: closed.closeTimeMs }
      p.scheduler.closed()
      p.mempool.closed(closed.applied ?? [], end.sequence, closed.dropped ?? [])
    } else {
      const plan = p.mempool.plan(p.ledgerSeconds * 1000)
      const closed = await p.close({ order: plan.order })
      end = { sequence: closed.sequence, closeTimeMs: closed.closeTimeMs }
      p.scheduler.closed()
      // The node drops what is past its ledger bound instead of applying it.
      const dropped = closed.dropped ?? []
      p.mempool.closed(closed.applied ?? plan.order.filter((h) => !dropped.includes(h)), end.sequence, dropped)
    }
    for (const k of p.keepers) k.observe(end)
    await p.onClose(end, step, 0)
    step++
  }
  // Let what the last close released finish its reads (results, recovery of the last fills).
  await p.scheduler.settle()
  return { fastForwarded, end }
}

/**
 * How many ledgers from `ledger` on may close without anyone acting: 0 (act now), a bound while
 * auctions ripen, or Infinity when the pool is calm (the caller bounds it by scenario events).
 */
async function quietLedgers(p: LoopParameters, step: number, ledger: number): Promise<number> {
  if (p.mempool.size > 0 || p.keepers.some((k) => k.cycling) || p.adversaries?.busy() === true) return 0
  const busy = p.keepers.some((k) => k.busy())
  const active = await p.poolActive(step)
  if (!busy && !active) return Infinity
  const ripe = active ? p.ripening?.(step) : null
  if (ripe === null || ripe === undefined) return 0
  // The core's bound: no keeper's plan targets a ledger before `until`; a due plan fires one or
  // two ledgers ahead of its target (leadLedgers).
  let firstDue = ripe.until - 2
  for (const k of p.keepers) {
    const plans = k.waitingPlans()
    // Something other than waiting plans, or an auction this keeper has not planned yet.
    if (plans === null || (k.alive && plans.length < ripe.auctions)) return 0
    for (const due of plans) firstDue = Math.min(firstDue, due)
  }
  // The engine marks a plan due when it sees the close of ledger `due`: stay a ledger short of it.
  const room = Math.max(0, firstDue - 1 - ledger)
  // Fills follow: the DEX pools must not drift from the market meanwhile (see arbitrageQuietSteps).
  return room === 0 ? 0 : p.env.arbitrageQuietSteps(step, room)
}
