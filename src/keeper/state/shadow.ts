/**
 * Shadow mode's books (DRY_RUN=true): every fill the keeper would have sent, valued afresh when
 * it came due and simulated, with what it would have drawn, made and earned. Exported as the
 * `service_shadow_*` metrics and the `shadow` section of /api/state. Nothing here sends anything.
 */
import { Counter, type Registry } from 'prom-client'
import { toUnits } from '../metrics.js'

/**
 * What the simulation of the fill's first transaction said: `passed` (it would have been sent;
 * refused at the dry run's choke point), `refused` (the network would have refused it, e.g. an
 * unregistered keeper's draw: `reason` says why), or `none` (work run by a plain adapter, which
 * a dry run does not run at all).
 */
export type ShadowSimulation = 'passed' | 'refused' | 'none'

export interface ShadowFill {
  /** ISO-8601 time it came due. */
  at: string
  adapter: string
  /** The engine's key of the work (e.g. `blend:0:G...`). */
  key: string
  label: string
  /** The auction or other target, in the adapter's words, when it said. */
  target: string | null
  path: 'atomic' | 'two-step'
  /** The ledger the plan was made in and the ledger it first planned the fill for. */
  plannedAt: number
  firstPlannedLedger: number
  /** The ledger the plan stood at when it came due, and the ledger the fill would have landed in. */
  targetLedger: number
  fillLedger: number | null
  percent: number | null
  /** USDC it would have drawn, its expected gross profit, and the keeper fee of that profit. */
  drew: bigint
  expectedProfit: bigint | null
  expectedReward: bigint | null
  simulation: ShadowSimulation
  /** The simulated transaction (`contract:function`) or why it was refused. */
  reason: string
}

export interface ShadowTotals {
  fills: number
  /** Of which the simulation refused. */
  refused: number
  drewUsdc: bigint
  profitUsdc: bigint
  rewardsUsdc: bigint
}

export class ShadowBook {
  readonly fills: ShadowFill[] = []
  readonly totals: ShadowTotals = { fills: 0, refused: 0, drewUsdc: 0n, profitUsdc: 0n, rewardsUsdc: 0n }
  private readonly counters: ReturnType<typeof shadowMetrics>

  /**
   * `keeperFeeBps` is the vault's keeper fee (basis points of the gross profit), undefined while
   * not yet read; the metrics go on `registry`.
   */
  constructor(
    registry: Registry,
    private readonly keeperFeeBps: () => number | undefined,
    private readonly keep = 100,
  ) {
    this.counters = shadowMetrics(registry)
  }

  /** Books one would-fill (its expected reward from the vault's keeper fee) and returns it. */
  record(fill: Omit<ShadowFill, 'at' | 'expectedReward'>): ShadowFill {
    const bps = this.keeperFeeBps()
    const expectedReward = fill.expectedProfit === null || bps === undefined ? null : (maxZero(fill.expectedProfit) * BigInt(bps)) / 10_000n
    const rec: ShadowFill = { at: new Date().toISOString(), ...fill, expectedReward }
    const t = this.totals
    t.fills++
    if (rec.simulation === 'refused') t.refused++
    t.drewUsdc += rec.drew
    t.profitUsdc += maxZero(rec.expectedProfit ?? 0n)
    t.rewardsUsdc += rec.expectedReward ?? 0n
    this.counters.fills.inc({ adapter: rec.adapter, simulation: rec.simulation })
    this.counters.drew.inc(toUnits(rec.drew))
    this.counters.profit.inc(toUnits(maxZero(rec.expectedProfit ?? 0n)))
    this.counters.rewards.inc(toUnits(rec.expectedReward ?? 0n))
    this.fills.push(rec)
    if (this.fills.length > this.keep) this.fills.splice(0, this.fills.length - this.keep)
    return rec
  }
}

const maxZero = (v: bigint) => (v > 0n ? v : 0n)

function shadowMetrics(registry: Registry) {
  const r = [registry]
  return {
    fills: new Counter({
      name: 'service_shadow_fills_total',
      help: 'DRY_RUN: fills the keeper would have sent, by adapter and by what their simulation said (passed, refused, none).',
      labelNames: ['adapter', 'simulation'],
      registers: r,
    }),
    drew: new Counter({ name: 'service_shadow_drawn_usdc_total', help: 'DRY_RUN: USDC the would-be fills would have drawn from the vault.', registers: r }),
    profit: new Counter({ name: 'service_shadow_profit_usdc_total', help: 'DRY_RUN: expected gross profit of the would-be fills, USDC.', registers: r }),
    rewards: new Counter({
      name: 'service_shadow_rewards_usdc_total',
      help: "DRY_RUN: the keeper fee the vault would have paid on that profit (its keeper_fee_bps), USDC.",
      registers: r,
    }),
  }
}

/** The `shadow` section of GET /api/state: totals always, the fills (target ledgers) with the API token only. */
export function shadowView(book: ShadowBook | null, details: boolean) {
  if (book === null) return null
  const t = book.totals
  return {
    dryRun: true,
    totals: {
      fills: t.fills,
      refused: t.refused,
      drewUsdc: t.drewUsdc.toString(),
      profitUsdc: t.profitUsdc.toString(),
      rewardsUsdc: t.rewardsUsdc.toString(),
    },
    ...(details
      ? {
          fills: book.fills.map((f) => ({
            ...f,
            drew: f.drew.toString(),
            expectedProfit: f.expectedProfit?.toString() ?? null,
            expectedReward: f.expectedReward?.toString() ?? null,
          })),
        }
      : {}),
  }
}
