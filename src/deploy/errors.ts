/** The deployment's errors and the exit status each one ends the command with. */
import type { StepName } from './stepNames.js'

/**
 * The command cannot start as asked: a bad flag, a file that does not fit the command line or
 * the network, a refused network. Nothing was sent. Exit status 2.
 */
export class UsageError extends Error {
  override name = 'UsageError'
}

/** A step failed on the chain (or reading it); what was done before it is recorded. Exit status 1. */
export class StepFailedError extends Error {
  override name = 'StepFailedError'
  readonly step: StepName
  constructor(step: StepName, cause: unknown) {
    super(`step ${step} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause })
    this.step = step
  }
}
