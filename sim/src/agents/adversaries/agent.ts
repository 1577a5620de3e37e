/**
 * The frame every hostile agent runs in: a script of real transactions (through its own SimRpc,
 * like the environment's, so the scheduler orders its answers), waits the lockstep loop ends
 * (a ledger reached, a condition on the harness's view of the chain, a back-run slot after the
 * ledger's other agents have sent), and the record of each attempt (sim/README.md, Adversaries).
 */
import { ContractError, ChainError, addr, read, type Chain, type InvokeResult } from '../../../../src/chain/index.js'
import { REGISTRY_ERRORS, SAC_ERRORS, VAULT_ERRORS } from '../../../../src/chain/records/errorMessages.js'
import type { ScanResult } from '../../../../src/keeper/adapters/blend/scan.js'
import type { World } from '../../../../src/world/index.js'
import type { RunEvents } from '../../../../src/world/runEvents.js'
import type { AttackKind, AttackStep } from '../../report/types.js'
import type { Scenario } from '../../scenario/schema.js'

/** The executor's errors (contracts/executor/src/errors.rs, 450-499). */
const EXECUTOR_ERRORS: Readonly<Record<number, string>> = {
  450: 'InvalidAmount',
  451: 'ProceedsBelowDraw',
  452: 'ProceedsBelowMinimum',
  453: 'InvalidSwap',
  454: 'Overflow',
  455: 'BadRegistryConfig',
  456: 'VenueNotAllowed',
  457: 'CollateralKept',
}

/** A contract error's name by its number (token, vault, registry, executor); `#n` otherwise. */
export function errorName(code: number): string {
  if (code < 100) return SAC_ERRORS[code]?.name ?? `#${code}`
  return VAULT_ERRORS[code]?.name ?? REGISTRY_ERRORS[code]?.name ?? EXECUTOR_ERRORS[code] ?? `#${code}`
}

/** What an agent sees of the run and how it reaches the chain. */
export interface AdversaryEnv {
  world: World
  scenario: Scenario
  /** Its client: its transactions go first in their ledger (class 0), ordered by agent name. */
  chain: Chain
  /** A client whose transactions reach the network at the very end of the ledger (back-runs). */
  backrun: Chain
  /** The pool's, vault's and registry's events up to the latest close. */
  events: () => RunEvents
  /** The harness's latest scan of the pool. */
  scan: () => ScanResult | undefined
  /** The ledger being built. */
  building: () => number
  /** Close time (s) of the ledger built at `step`. */
  timeOfStep: (step: number) => bigint
  /** The step `seconds` after the start of the run (rounded up to a whole ledger, at least 1). */
  stepAt: (seconds: number) => number
  /** Keeper transactions the node will see in the ledger being built (a back-runner's view of the network). */
  keeperTxsArriving: () => number
  /** Where a transaction landed: its ledger and position in it (class-1 transactions the mempool journaled). */
  placeOf: (hash: string) => { ledger: number; position: number } | undefined
  /** The keepers' lowest MIN_PROFIT (fill predictions). */
  minProfit: number
}

type Wait =
  | { kind: 'step'; step: number; release: () => void }
  | { kind: 'when'; ready: () => boolean; decisive?: (step: number) => boolean; release: () => void }
  | { kind: 'backrun'; ready: () => boolean; release: () => void }

/** One attempt as it is being recorded (the report's AttackResult before its gain and loss). */
export interface Attempt {
  kind: AttackKind
  attempt: number
  description: string
  account: string
  fromLedger: number
  toLedger: number | null
  steps: AttackStep[]
  outcome: string
  /** Keeper attacks: the accounts whose USDC and stakes make its holdings, and those at the start. */
  holdings?: { accounts: string[]; start: bigint; end?: bigint }
  /** Depositor attacks: set once the attempt has ended. */
  figures?: { gain: number; depositorLoss: number }
}

/** The result of one transaction step: the decoded return value when it was applied. */
export type StepResult<T> = { ok: true; value: T; ledger: number; hash: string } | { ok: false; code: number | undefined }

export abstract class AdversaryAgent {
  readonly attempts: Attempt[] = []
  /** Set when its script threw (a bug or the chain, not a refusal). */
  error: string | undefined
  private wait: Wait | undefined
  private started = false
  private done = false
  private current: Attempt | undefined
  protected step = 0

  constructor(
    /** `keeper-3`, `depositor-1`, `jit-1`. */
    readonly name: string,
    readonly kind: AttackKind,
    protected readonly env: AdversaryEnv,
  ) {}

  /** The attack. */
  protected abstract script(): Promise<void>

  /** The lockstep reached `step` (the environment has acted). */
  act(step: number): void {
    this.step = step
    if (!this.started) {
      this.started = true
      void this.script().then(
        () => this.finish(),
        (err: unknown) => {
          this.error = err instanceof Error ? err.message : String(err)
          this.finish()
        },
      )
      return
    }
    const w = this.wait
    if (w?.kind === 'step' && step >= w.step) this.release()
    else if (w?.kind === 'when' && w.ready()) this.release()
  }

  /** After the ledger's other agents settled: wakes a back-run wait that is ready. */
  backrunNow(): boolean {
    const w = this.wait
    if (w?.kind !== 'backrun' || !w.ready()) return false
    this.release()
    return true
  }

  decisive(step: number): boolean {
    const w = this.wait
    if (w === undefined) return false
    if (w.kind === 'step') return step >= w.step
    // A condition that already holds wakes the agent in the next step, whatever else is quiet.
    if (w.kind === 'when') return w.ready() || (w.decisive?.(step) ?? false)
    return true
  }

  /** Between two waits (a transaction or read in flight), or waiting to back-run. */
  busy(): boolean {
    return this.started && !this.done && (this.wait === undefined || this.wait.kind === 'backrun')
  }

  get finished(): boolean {
    return this.done
  }

  private finish(): void {
    this.done = true
    this.wait = undefined
    if (this.current !== undefined && this.current.toLedger === null) this.current.toLedger = this.env.building() - 1
  }

  private release(): void {
    const w = this.wait!
    this.wait = undefined
    w.release()
  }

  /** Resumes in `step` (at once when it is reached). */
  protected untilStep(step: number): Promise<void> {
    if (this.step >= step) return Promise.resolve()
    return new Promise((release) => (this.wait = { kind: 'step', step, release }))
  }

  /** Resumes in the first step at which `ready()` holds (checked as each step starts). */
  protected until(ready: () => boolean, decisive?: (step: number) => boolean): Promise<void> {
    if (ready()) return Promise.resolve()
    return new Promise((release) => (this.wait = { kind: 'when', ready, ...(decisive === undefined ? {} : { decisive }), release }))
  }

  /** Resumes after the other agents of the first ledger in which `ready()` holds have sent. */
  protected untilBackrun(ready: () => boolean): Promise<void> {
    return new Promise((release) => (this.wait = { kind: 'backrun', ready, release }))
  }

  protected begin(description: string, account: string, holdings?: { accounts: string[]; start: bigint }): Attempt {
    const a: Attempt = {
      kind: this.kind,
      attempt: this.attempts.length + 1,
      description,
      account,
      fromLedger: this.env.building(),
      toLedger: null,
      steps: [],
      outcome: '',
      ...(holdings === undefined ? {} : { holdings }),
    }
    this.attempts.push(a)
    this.current = a
    return a
  }

  protected end(a: Attempt, outcome: string, toLedger = this.lastLedger(a)): void {
    a.outcome = outcome
    a.toLedger = toLedger
    if (this.current === a) this.current = undefined
  }

  private lastLedger(a: Attempt): number {
    return Math.max(a.fromLedger, ...a.steps.map((s) => s.ledger))
  }

  /**
   * One transaction of attempt `a`: `send` runs it; a contract's refusal (in simulation: nothing
   * sent; or on the ledger) is recorded with its error, not thrown. `amount`: the USDC it moves,
   * or, when that is only known from its result, a bigint the call returns (a withdrawal's USDC).
   */
  protected async tx<T>(a: Attempt, action: string, send: () => Promise<InvokeResult<T>>, amount?: bigint | 'returned'): Promise<StepResult<T>> {
    const ledger = this.env.building()
    const moved = amount === undefined || amount === 'returned' ? {} : { amount: Number(amount) / 1e7 }
    try {
      const r = await send()
      const paid = amount === 'returned' && typeof r.value === 'bigint' ? { amount: Number(r.value) / 1e7 } : moved
      a.steps.push({ ledger: r.ledger, action, result: 'applied', ...paid })
      return { ok: true, value: r.value, ledger: r.ledger, hash: r.hash }
    } catch (err) {
      if (!(err instanceof ChainError)) throw err
      const failed = err.feeCharged !== undefined
      const code = err instanceof ContractError ? err.code : undefined
      a.steps.push({
        ledger,
        action,
        result: failed ? 'failed' : 'refused',
        ...(code === undefined ? { detail: err.message.slice(0, 200) } : { error: { code, name: errorName(code) } }),
        ...moved,
      })
      return { ok: false, code }
    }
  }

  /** A step the agent did not send (the watchdog's slash of it), as the chain recorded it. */
  protected note(a: Attempt, ledger: number, action: string, amount?: bigint): void {
    a.steps.push({ ledger, action, result: 'applied', ...(amount === undefined ? {} : { amount: Number(amount) / 1e7 }) })
  }

  /** USDC of `accounts` plus their registry stakes (an unregistered account has none), read on its own client. */
  protected holdings(accounts: readonly string[]): Promise<bigint> {
    return holdingsOf(this.env.chain, this.env.world, accounts)
  }

  protected get vault(): string {
    return this.env.world.service!.vault
  }

  protected get registry(): string {
    return this.env.world.service!.registry
  }

  protected usdcBalance(account: string): Promise<bigint> {
    return read<bigint>(this.env.chain, this.env.world.usdc.contract, 'balance', [addr(account)]).then(BigInt)
  }
}

/** USDC of `accounts` plus their registry stakes, read on `chain`. */
export async function holdingsOf(chain: Chain, world: World, accounts: readonly string[]): Promise<bigint> {
  let total = 0n
  for (const a of accounts) {
    total += BigInt(await read<bigint>(chain, world.usdc.contract, 'balance', [addr(a)]))
    const info = await read<Record<string, unknown>>(chain, world.service!.registry, 'get_keeper', [addr(a)]).catch(() => undefined)
    total += BigInt((info?.stake as bigint | undefined) ?? 0n)
  }
  return total
}

