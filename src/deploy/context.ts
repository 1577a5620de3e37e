/**
 * What a deployment step is: a `check`, which reads the chain (never sends) and returns the
 * step's result when it is already done there, and a `run`, which does it. The orchestrator
 * (deploy.ts) calls `run` only when `check` found nothing, so a rerun sends only what is missing,
 * and a step the file records as done is believed only once the chain confirms it.
 */
import type { Keypair } from '@stellar/stellar-sdk'
import type { SentTransaction } from '../chain/deployOnce.js'
import { UsageError } from './errors.js'
import type { Plan } from './plan.js'
import { formatUsdc } from './preset.js'
import type { DeployFile, StepName } from './state.js'

export interface StepResult {
  /** What the step did or found, in words. */
  detail: string
  /** The transaction it sent. */
  sent?: SentTransaction
}

export interface StepContext {
  plan: Plan
  /** The file being written; steps put what they establish into it (wasm hashes, contract ids, USDC). */
  file: DeployFile
  wasmDir: string
}

export interface Step {
  name: StepName
  /** The step's result when the chain shows it done; undefined when it has to run. */
  check(ctx: StepContext): Promise<StepResult | undefined>
  run(ctx: StepContext): Promise<StepResult>
}

/** The deployer's key, for a step that must send. @throws UsageError when only the public key is known */
export function signer(ctx: StepContext, step: StepName): Keypair {
  const kp = ctx.plan.deployer.keypair
  if (kp === undefined) {
    throw new UsageError(`step ${step} has to send a transaction: give the key of deployer ${ctx.plan.deployer.publicKey} (--secret-file FILE or DEPLOYER_SECRET)`)
  }
  return kp
}

/** "3.2100000 XLM" from stroops. */
export function formatXlm(stroops: bigint): string {
  return `${formatUsdc(stroops)} XLM`
}
