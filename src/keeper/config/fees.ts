/**
 * The fee settings: what the keeper bids for inclusion (INCLUSION_FEE, FEE_STRATEGY, MAX_FEE) and
 * when it fee-bumps a transaction the network has not included (FEE_BUMP_LEDGERS).
 */
import { z } from 'zod'
import { FEE_PERCENTILES, MIN_INCLUSION_FEE, type FeePercentile, type FeeStrategy } from '../../core/index.js'
import { numberIn, optional } from './fields.js'

/** A transaction's fee is a 32-bit field (stroops). */
export const MAX_FEE_LIMIT = 4_294_967_295
export const DEFAULT_MAX_FEE = 10_000_000
export const DEFAULT_FEE_BUMP_LEDGERS = 2
/** The network's queue drops a transaction not included within 4 ledgers: a bump must come before. */
export const MAX_FEE_BUMP_LEDGERS = 3

const STRATEGY_HELP = `fixed, feestats:pNN (${FEE_PERCENTILES.join(', ').replace(/, max$/, ' or max')}) or profit:BPS (BPS an integer in [1, 10000])`

/** `fixed`, `feestats:p90`, `profit:500` ... as a strategy; undefined when it is none of them. */
export function parseFeeStrategy(v: string): FeeStrategy | undefined {
  const s = v.trim().toLowerCase()
  if (s === 'fixed') return { kind: 'fixed' }
  const stats = /^feestats:(\w+)$/.exec(s)
  if (stats !== null) {
    const p = stats[1] as FeePercentile
    return (FEE_PERCENTILES as readonly string[]).includes(p) ? { kind: 'feestats', percentile: p } : undefined
  }
  const profit = /^profit:(\d+)$/.exec(s)
  if (profit !== null) {
    const bps = Number(profit[1])
    return bps >= 1 && bps <= 10_000 ? { kind: 'profit', bps } : undefined
  }
  return undefined
}

/** The strategy as FEE_STRATEGY spells it (`fixed`, `feestats:p90`, `profit:500`). */
export function feeStrategyText(s: FeeStrategy): string {
  return s.kind === 'fixed' ? 'fixed' : s.kind === 'feestats' ? `feestats:${s.percentile}` : `profit:${s.bps}`
}

/** The fee settings' fields of the configuration schema. */
export const feeFields = {
  INCLUSION_FEE: numberIn('INCLUSION_FEE', MIN_INCLUSION_FEE, MAX_FEE_LIMIT, MIN_INCLUSION_FEE, true, 'stroops per operation; 100 is the network minimum'),
  FEE_STRATEGY: optional.transform((v, ctx): FeeStrategy => {
    if (v === undefined) return { kind: 'fixed' }
    const s = parseFeeStrategy(v)
    if (s === undefined) {
      ctx.addIssue({ code: 'custom', message: `FEE_STRATEGY must be ${STRATEGY_HELP}, got "${v}"` })
      return z.NEVER
    }
    return s
  }),
  MAX_FEE: optional.transform((v, ctx) => {
    if (v === undefined) return { value: DEFAULT_MAX_FEE, given: false }
    const n = Number(v)
    if (!(Number.isInteger(n) && n >= MIN_INCLUSION_FEE && n <= MAX_FEE_LIMIT)) {
      ctx.addIssue({ code: 'custom', message: `MAX_FEE must be an integer in [${MIN_INCLUSION_FEE}, ${MAX_FEE_LIMIT}] (stroops per operation), got "${v}"` })
      return z.NEVER
    }
    return { value: n, given: true }
  }),
  FEE_BUMP_LEDGERS: numberIn(
    'FEE_BUMP_LEDGERS',
    0,
    MAX_FEE_BUMP_LEDGERS,
    DEFAULT_FEE_BUMP_LEDGERS,
    true,
    "0 disables; the network's queue drops a transaction not included within 4 ledgers",
  ),
}

export interface FeeSettings {
  inclusionFee: number
  feeStrategy: FeeStrategy
  maxFee: number
  feeBumpLedgers: number
}

/** The cross-field rule MAX_FEE >= INCLUSION_FEE; the problem line, or undefined. */
export function feeProblem(c: { INCLUSION_FEE: number; MAX_FEE: { value: number; given: boolean } }): string | undefined {
  if (c.MAX_FEE.value >= c.INCLUSION_FEE) return undefined
  return `MAX_FEE must be at least INCLUSION_FEE (${c.INCLUSION_FEE}), got "${c.MAX_FEE.value}"${c.MAX_FEE.given ? '' : ' (the default)'}`
}

export function feeSettings(c: { INCLUSION_FEE: number; FEE_STRATEGY: FeeStrategy; MAX_FEE: { value: number }; FEE_BUMP_LEDGERS: number }): FeeSettings {
  return { inclusionFee: c.INCLUSION_FEE, feeStrategy: c.FEE_STRATEGY, maxFee: c.MAX_FEE.value, feeBumpLedgers: c.FEE_BUMP_LEDGERS }
}
