/**
 * What a keeper bids for inclusion. The network only looks at the inclusion fee when a ledger is
 * full (surge pricing): the highest inclusion fee per operation goes in first, and everyone
 * included in that phase then pays the lowest included rate.
 */

/** The distribution points of getFeeStats' `sorobanInclusionFee` a `feestats` strategy may name. */
export const FEE_PERCENTILES = ['p10', 'p20', 'p30', 'p40', 'p50', 'p60', 'p70', 'p80', 'p90', 'p95', 'p99', 'max'] as const

export type FeePercentile = (typeof FEE_PERCENTILES)[number]

/**
 * - `fixed`: bid INCLUSION_FEE.
 * - `feestats`: bid that point of the Soroban inclusion fees the network recently charged.
 * - `profit`: bid `bps` / 10000 of the execution's expected profit, converted to XLM.
 */
export type FeeStrategy = { kind: 'fixed' } | { kind: 'feestats'; percentile: FeePercentile } | { kind: 'profit'; bps: number }

/** The network's minimum inclusion fee per operation (stroops). */
export const MIN_INCLUSION_FEE = 100

/**
 * stellar-core replaces a queued transaction only by a fee bump whose inclusion fee per
 * operation is at least this many times the queued one's (TransactionQueue FEE_MULTIPLIER).
 */
export const FEE_BUMP_MULTIPLIER = 10
