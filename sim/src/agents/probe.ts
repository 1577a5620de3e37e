/**
 * What each keeper's engine decided about each auction, recorded by wrapping its lending-pool
 * adapter: every planning answer (a first profitable ledger at its MIN_PROFIT, or why there is
 * nothing to plan) and every fire's outcome (filled, taken by another keeper, failed, re-planned).
 * The wrapper only observes: the engine gets the adapter's own answers, unchanged. The record
 * lives on the SimKeeper, so it spans restarts (a restarted runtime's engine starts from zero).
 */
import { builtinAdapterFactories, type AdapterFactories } from '../../../src/keeper/adapters/index.js'
import { isReplan, isSkip, isStaged, type AdapterFactory, type ExecutionPlan, type ProtocolAdapter, type Task } from '../../../src/keeper/sdk/index.js'

/** Blend auction type of a task kind. */
const AUCTION_TYPE: Record<string, number> = { user_liquidation: 0, bad_debt: 1, interest: 2 }

export type DecisionKind =
  /** Planning found its first profitable ledger at the keeper's MIN_PROFIT (`target`). */
  | 'planned'
  /** Planning, or the re-check when firing, found that the auction does not clear MIN_PROFIT. */
  | 'unprofitable'
  /** Nothing planned for another reason (no auction, bid not in USDC, planning failed...). */
  | 'skipped'
  /** Firing found the profitable ledger moved later (`target`). */
  | 'replanned'
  /** Firing found the auction gone or changed: another keeper took it first. */
  | 'lost'
  | 'filled'
  /** Firing ended without a fill for another reason (a failed transaction, slippage...). */
  | 'failed'

export interface KeeperDecision {
  /** The ledger being built when the answer came. */
  ledger: number
  /** Blend auction type and user (the backstop for bad-debt and interest auctions). */
  type: number
  user: string
  kind: DecisionKind
  /** Target ledger of `planned` and `replanned`. */
  target: number | null
}

const MIN_PROFIT_NOTE = /clears? MIN_PROFIT/

function target(kind: unknown, user: unknown): { type: number; user: string } | undefined {
  const type = typeof kind === 'string' ? AUCTION_TYPE[kind] : undefined
  return type === undefined || typeof user !== 'string' ? undefined : { type, user }
}

/** `kind:user` at the end of an engine key (`<adapter>:<kind>:<user>`). */
function fromKey(key: string): { type: number; user: string } | undefined {
  const parts = key.split(':')
  return parts.length < 2 ? undefined : target(parts[parts.length - 2], parts[parts.length - 1])
}

/** The adapter with `plan` and `fire` answers copied to `record` (`ledger`: the ledger being built). */
export function probeAdapter(adapter: ProtocolAdapter<any>, ledger: () => number, record: (d: KeeperDecision) => void): ProtocolAdapter<any> {
  if (!isStaged(adapter)) return adapter
  const note = (t: { type: number; user: string } | undefined, kind: DecisionKind, at: number | null = null) => {
    if (t !== undefined) record({ ledger: ledger(), ...t, kind, target: at })
  }
  const plan: typeof adapter.plan = async (chain, keypair, task: Task<any>) => {
    const t = target(task.data?.kind, task.data?.user)
    let outcome: Awaited<ReturnType<typeof adapter.plan>>
    try {
      outcome = await adapter.plan(chain, keypair, task)
    } catch (err) {
      note(t, 'skipped')
      throw err
    }
    if (isSkip(outcome)) note(t, MIN_PROFIT_NOTE.test(outcome.skip) ? 'unprofitable' : 'skipped')
    else note(t, 'planned', outcome.targetLedger)
    return outcome
  }
  const fire: typeof adapter.fire = async (chain, keypair, planned: ExecutionPlan<any>, fc) => {
    const t = fromKey(planned.key) ?? target(planned.data?.kind, planned.data?.user)
    let outcome: Awaited<ReturnType<typeof adapter.fire>>
    try {
      outcome = await adapter.fire(chain, keypair, planned, fc)
    } catch (err) {
      note(t, 'failed')
      throw err
    }
    if (isReplan(outcome)) note(t, 'replanned', outcome.replan)
    else if (outcome.success !== false) note(t, 'filled')
    else if (outcome.lost === true) note(t, 'lost')
    else note(t, MIN_PROFIT_NOTE.test(outcome.note ?? '') ? 'unprofitable' : 'failed')
    return outcome
  }
  return new Proxy(adapter, {
    get(obj, prop, receiver) {
      if (prop === 'plan') return plan
      if (prop === 'fire') return fire
      return Reflect.get(obj, prop, receiver) as unknown
    },
  })
}

/** The built-in adapter factories with the lending-pool adapter probed. */
export function probedFactories(ledger: () => number, record: (d: KeeperDecision) => void): AdapterFactories {
  const lendingPool = builtinAdapterFactories.lendingPool
  if (lendingPool === undefined) return builtinAdapterFactories
  const probed: AdapterFactory = async (ctx) => probeAdapter(await lendingPool(ctx), ledger, record)
  return { ...builtinAdapterFactories, lendingPool: probed }
}
