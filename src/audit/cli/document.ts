/**
 * The JSON form of `npm run audit -- --json`: the report (src/audit `AuditReport`) with what was
 * audited and the exit status, or, when the chain could not be read, the failing call instead of
 * the invariants. Amounts are decimal strings with 7 decimals, as in the report.
 */
import { ChainReadError } from '../errors.js'
import type { AuditReport } from '../types.js'
import type { CliOptions } from './options.js'

export const AUDIT_JSON_SCHEMA = 1

/** Exit status of one audit: 0 every invariant holds (warnings allowed), 1 one is broken. */
export const exitCodeOf = (report: AuditReport): 0 | 1 => (report.holds ? 0 : 1)

function target(opts: CliOptions) {
  return { rpcUrl: opts.rpcUrl, vault: opts.vault, registry: opts.registry, usdc: opts.usdc ?? null }
}

export function reportDocument(report: AuditReport, opts: CliOptions, durationMs: number) {
  return {
    schema: AUDIT_JSON_SCHEMA,
    ...target(opts),
    ledger: report.ledger,
    holds: report.holds,
    exitCode: exitCodeOf(report),
    durationMs: Math.round(durationMs),
    invariants: report.invariants,
  }
}

export function errorDocument(err: ChainReadError, opts: CliOptions) {
  return {
    schema: AUDIT_JSON_SCHEMA,
    ...target(opts),
    ledger: null,
    holds: null,
    exitCode: 2,
    error: { call: err.call, reason: err.reason, message: err.message },
  }
}

/** The one line printed to stderr when the chain could not be read. */
export const unreadableLine = (err: ChainReadError, opts: CliOptions): string =>
  `audit: could not read the chain at ${opts.rpcUrl}: ${err.message}`
