/**
 * The scenario's `chain` section (who orders a ledger, its limits, other users' load) and the
 * keepers' fee settings (`keepers.fee`). Documented in sim/README.md.
 */
import { z } from 'zod'
import { MIN_INCLUSION_FEE } from '../../../src/core/index.js'

const stroops = z.number().int().min(MIN_INCLUSION_FEE, `at least ${MIN_INCLUSION_FEE} stroops (the network's minimum inclusion fee)`)

/** A distribution of inclusion fees (stroops per operation); draws below 100 count as 100. */
export const feeModel = z.discriminatedUnion('model', [
  z.object({ model: z.literal('constant'), stroops }).strict(),
  z
    .object({ model: z.literal('uniform'), min: stroops, max: stroops })
    .strict()
    .refine((m) => m.min <= m.max, { message: 'min must not exceed max' }),
  z.object({ model: z.literal('lognormal'), medianStroops: stroops, sigma: z.number().nonnegative() }).strict(),
])
export type FeeModel = z.infer<typeof feeModel>

export const backgroundSchema = z
  .object({
    /** Mean number of other users' Soroban transactions arriving per ledger (Poisson). */
    txPerLedger: z.number().nonnegative().max(1_000),
    /** Accounts sending them (each has at most one transaction waiting). */
    accounts: z.number().int().min(1).max(1_000).default(40),
    /** Their inclusion-fee bids. */
    fee: feeModel.default({ model: 'lognormal', medianStroops: 500, sigma: 1 }),
  })
  .strict()
export type BackgroundSpec = z.infer<typeof backgroundSchema>

export const chainSchema = z
  .object({
    /**
     * `latency`: the sim orders each ledger by the agents' seeded latency (environment first) and
     * the node applies all of it at the base fee. `core`: what arrived in time goes to the node's
     * queue, which picks by inclusion fee under the ledger limits (surge pricing) and applies in
     * stellar-core's order; what does not fit waits (dropped after 4 closes).
     */
    ordering: z.enum(['latency', 'core']).default('latency'),
    /** Per-ledger Soroban limits (default: testnet's, 100 transactions and 500M instructions). */
    limits: z
      .object({
        txCount: z.number().int().min(1).max(10_000).optional(),
        instructions: z.number().int().min(1).optional(),
      })
      .strict()
      .optional(),
    /** Other users' transactions, so that ledgers can be full. */
    background: backgroundSchema.optional(),
    /**
     * The XLM price (USD) fees are valued at in the report, and the price keepers convert an
     * expected profit at for FEE_STRATEGY profit:BPS when their oracle has no XLM price.
     */
    xlmPrice: z.number().positive().default(0.3),
  })
  .strict()
  .refine((c) => c.background === undefined || c.ordering === 'core', {
    message: 'background load needs ordering: core (the latency model applies everything it is given, whatever the limits)',
    path: ['background'],
  })
  .refine((c) => c.limits === undefined || c.ordering === 'core', {
    message: 'limits need ordering: core (the latency model applies everything it is given, whatever the limits)',
    path: ['limits'],
  })
export type ChainSpec = z.infer<typeof chainSchema>

/**
 * A keeper's fee settings, the daemon's own variables: INCLUSION_FEE, FEE_STRATEGY (`fixed`,
 * `feestats:pNN`, `profit:BPS`), MAX_FEE and FEE_BUMP_LEDGERS. Unset fields keep the daemon's
 * defaults; the daemon's own validation checks the values (sim/src/scenario/load.ts).
 */
export const keeperFee = z
  .object({
    strategy: z.string().min(1).optional(),
    inclusionFee: z.number().int().optional(),
    maxFee: z.number().int().optional(),
    bumpLedgers: z.number().int().optional(),
  })
  .strict()
export type KeeperFee = z.infer<typeof keeperFee>

/** The keeper configuration variables of `fee` (only those set). */
export function feeEnv(fee: KeeperFee | undefined): Record<string, string> {
  const env: Record<string, string> = {}
  if (fee?.strategy !== undefined) env.FEE_STRATEGY = fee.strategy
  if (fee?.inclusionFee !== undefined) env.INCLUSION_FEE = String(fee.inclusionFee)
  if (fee?.maxFee !== undefined) env.MAX_FEE = String(fee.maxFee)
  if (fee?.bumpLedgers !== undefined) env.FEE_BUMP_LEDGERS = String(fee.bumpLedgers)
  return env
}

/** A short label of a keeper's fee strategy for tables: `fixed 100`, `feestats:p90`, `profit:500`. */
export function feeLabel(fee: KeeperFee | undefined): string {
  const strategy = fee?.strategy ?? 'fixed'
  return strategy === 'fixed' ? `fixed ${fee?.inclusionFee ?? MIN_INCLUSION_FEE}` : strategy
}
