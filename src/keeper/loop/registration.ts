/**
 * Registration with the keeper registry: tried at start, and again at the start of every poll
 * cycle while it has failed (an RPC that was down, a stake not yet funded), until the registry
 * answers registered or AlreadyRegistered. Never fatal.
 */
import type { Logger } from 'pino'
import { ContractError } from '../../chain/index.js'
import type { ExecutorContract } from '../clients/executor.js'
import { RegistryErrorCode, type RegistryContract } from '../clients/index.js'
import type { KeeperConfig } from '../config/index.js'
import type { EventLog } from '../state/events.js'

/** Exact warning logged when register() reports AlreadyRegistered. */
export const REGISTRATION_SKIPPED = 'registration skipped (may already be registered)'

export type RegisterOutcome = 'registered' | 'skipped' | 'failed'

/** One attempt: its outcome and, when it failed, why. */
export interface RegistrationAttempt {
  outcome: RegisterOutcome
  error?: string
}

export interface RegistrationParameters {
  registry: RegistryContract
  config: KeeperConfig
  logger: Logger
  events: EventLog
  /** With an executor contract, the executor is what gets registered (the operator's stake goes through it). */
  executor?: ExecutorContract | undefined
}

/**
 * One registration attempt. Logs and pushes a `register` event for each outcome. A failure is
 * logged at warn (`registration failed (continuing unregistered)` on the first attempt,
 * `registration retry failed (retrying next cycle)` on later ones); with `quiet` (a retry that
 * failed exactly as the one before) the line is at debug and no event is pushed.
 */
export async function attemptRegistration(
  p: RegistrationParameters,
  opts: { attempt?: number; quietIf?: (error: string) => boolean } = {},
): Promise<RegistrationAttempt> {
  const { registry, config, logger, events, executor } = p
  const attempt = opts.attempt ?? 1
  try {
    const hash =
      executor === undefined
        ? await registry.register(config.keypair, config.keeperName)
        : await executor.register(config.keypair, registry.contractId, config.keeperName)
    logger.info({ operator: config.operator, keeper: executor?.contractId ?? config.operator, name: config.keeperName, tx: hash, attempt }, 'registered with the keeper registry')
    events.push('register', `registered ${config.keeperName}${attempt > 1 ? ` (attempt ${attempt})` : ''}`, { tx: hash, attempt })
    await ensureBond(p)
    return { outcome: 'registered' }
  } catch (err) {
    if (err instanceof ContractError && err.code === RegistryErrorCode.AlreadyRegistered) {
      logger.warn({ operator: config.operator, code: err.code, attempt }, REGISTRATION_SKIPPED)
      events.push('register', REGISTRATION_SKIPPED, { attempt })
      await ensureBond(p)
      return { outcome: 'skipped' }
    }
    const info = err instanceof ContractError ? { code: err.code, err: err.message } : { err: String((err as Error)?.message ?? err) }
    const line = attempt > 1 ? 'registration retry failed (retrying next cycle)' : 'registration failed (continuing unregistered)'
    if (opts.quietIf?.(info.err)) {
      logger.debug({ operator: config.operator, attempt, ...info }, line)
    } else {
      logger.warn({ operator: config.operator, attempt, ...info }, line)
      events.push('register', `registration failed: ${info.err}`, { attempt })
    }
    return { outcome: 'failed', error: info.err }
  }
}

/** Exact line logged when the keeper added bond to reach KEEPER_BOND. */
export const BOND_ADDED = 'bond added to reach KEEPER_BOND'

/**
 * Tops the registered keeper's stake up to KEEPER_BOND (`add_bond`, through the executor when
 * there is one). Never fatal: a failure is logged at warn and two-step draws stay within what
 * the stake backs.
 */
export async function ensureBond(p: RegistrationParameters): Promise<void> {
  const { registry, config, logger, events, executor } = p
  if (config.keeperBond <= 0n) return
  const keeper = executor?.contractId ?? config.operator
  try {
    const { stake } = await registry.getKeeper(keeper)
    const missing = config.keeperBond - stake
    if (missing <= 0n) return
    if (executor === undefined) await registry.addBond(config.keypair, missing)
    else await executor.addBond(config.keypair, registry.contractId, missing)
    logger.info({ keeper, added: missing.toString(), stake: config.keeperBond.toString() }, BOND_ADDED)
    events.push('register', `${BOND_ADDED}: +${missing} (stake ${config.keeperBond})`, {})
  } catch (err) {
    const info = err instanceof ContractError ? { code: err.code, err: err.message } : { err: String((err as Error)?.message ?? err) }
    logger.warn({ keeper, ...info }, 'adding bond failed (two-step draws stay within the current stake)')
  }
}

/**
 * Startup step 3: register, never fatal. Returns the outcome (kept for callers of the first
 * attempt only; the daemon retries through `KeeperRegistration`).
 */
export async function registerKeeper(
  registry: RegistryContract,
  config: KeeperConfig,
  logger: Logger,
  events: EventLog,
  executor?: ExecutorContract,
): Promise<RegisterOutcome> {
  return (await attemptRegistration({ registry, config, logger, events, executor })).outcome
}

/**
 * The keeper's registration state: the first attempt at start, then one retry per poll cycle
 * while the last attempt failed. A retry that fails the same way as the one before is logged at
 * debug (the cycle's `lastError` still shows it); a new failure at warn; success at info with
 * a `register` event.
 */
export class KeeperRegistration {
  outcome: RegisterOutcome | 'not attempted' = 'not attempted'
  attempts = 0
  /** Why the last attempt failed; undefined once registered. */
  lastError: string | undefined

  constructor(
    private readonly p: RegistrationParameters,
    private readonly onChange: (outcome: RegisterOutcome | 'not attempted') => void = () => {},
  ) {}

  /** The attempt at start. */
  async start(): Promise<RegisterOutcome> {
    return this.attempt(false)
  }

  /**
   * Retries while the last attempt failed; a no-op otherwise. Returns why registration is still
   * failing, or undefined when the keeper is (or already was) registered.
   */
  async retryIfFailed(): Promise<string | undefined> {
    if (this.outcome !== 'failed') return undefined
    const previous = this.lastError
    const outcome = await this.attempt(true, previous)
    return outcome === 'failed' ? this.lastError : undefined
  }

  private async attempt(retry: boolean, previous?: string): Promise<RegisterOutcome> {
    this.attempts++
    const r = await attemptRegistration(this.p, {
      attempt: this.attempts,
      // A retry failing exactly as the attempt before it is not news.
      ...(retry && previous !== undefined ? { quietIf: (error: string) => error === previous } : {}),
    })
    this.outcome = r.outcome
    this.lastError = r.error
    this.onChange(r.outcome)
    return r.outcome
  }
}
