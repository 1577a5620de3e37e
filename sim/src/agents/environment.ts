/**
 * Everything in a scenario that is not a keeper: the oracle's posts, the primary DEX router's
 * outages, the arbitrageurs, the depositors' flows and a watchdog that slashes a dead keeper's
 * stale draw (and a hostile keeper's, once it is past the slash timeout). Each ledger, `act` starts what the scenario schedules for it; the transactions go
 * through the environment's SimRpc (class 0: applied before the keepers' in the same ledger).
 */
import type { Keypair } from '@stellar/stellar-sdk'
import { addr, bool, i128, invoke, read, type Chain } from '../../../src/chain/index.js'
import { mulDiv } from '../../../src/core/index.js'
import type { World } from '../../../src/world/index.js'
import { toOracleUnits } from '../../../src/world/found/index.js'
import { i128s } from '../../../src/world/scval.js'
import type { RunEvent } from '../report/types.js'
import type { Scenario } from '../scenario/schema.js'
import { keyedUniform } from '../lockstep/keyed.js'
import { arbitrage, type ArbPool } from './arbitrage.js'

const UNIT = 10_000_000n

/** Prices per simulated step (index 0 = the world's opening state). */
export interface PricePlan {
  /** Collateral codes in world order. */
  assets: string[]
  market: Record<string, Float64Array>
  /** The oracle's price in force at each step. */
  oracle: Record<string, Float64Array>
  /** 1 where the oracle posts. */
  posts: Uint8Array
}

export interface EnvironmentParameters {
  world: World
  chain: Chain
  scenario: Scenario
  seed: number
  prices: PricePlan
  arbPools: ArbPool[]
  watchdog: Keypair
  /** Oracle price of each asset as 7-decimal integers, per step. */
  toPrice7: (x: number) => bigint
  /** Keepers (registered addresses) that died and may hold a stale draw. */
  deadKeepers: () => string[]
  /**
   * Hostile keepers whose two-step draw is past the slash timeout in the ledger of `step` (the
   * watchdog reads the vault's draw events); none without adversaries.
   */
  overdueAt?: (step: number) => string[]
  /** Close time of the latest ledger (s), for swap deadlines. */
  nowSeconds: () => bigint
  record: (e: RunEvent) => void
  /** The oracle's constant XLM price (7 decimals) when it prices XLM (scenario chain.xlmPrice). */
  oracleXlmPrice?: bigint | undefined
}

export class Environment {
  private readonly started: Promise<unknown>[] = []
  private outageUntil = -1
  private readonly outageSteps: number
  private readonly lagSteps: number
  private readonly flowsAt = new Map<number, Scenario['world']['depositors']['flows']>()
  private readonly watchEvery: number
  /** The latest full-fidelity step in which an arbitrageur traded (-1: none yet). */
  private arbTradedAt = -1

  constructor(private readonly p: EnvironmentParameters) {
    const s = p.scenario
    this.outageSteps = Math.max(1, Math.ceil(s.dex.outage / s.run.ledgerSeconds))
    this.lagSteps = Math.round(s.dex.arbitrage.lag / s.run.ledgerSeconds)
    for (const f of s.world.depositors.flows) {
      const step = Math.max(1, Math.round(f.at / s.run.ledgerSeconds))
      this.flowsAt.set(step, [...(this.flowsAt.get(step) ?? []), f])
    }
    this.watchEvery = Math.max(1, Math.ceil(60 / s.run.ledgerSeconds))
  }

  /** Whether the scenario schedules something at `step` that can change a keeper's decision. */
  decisive(step: number): boolean {
    return this.p.prices.posts[step] === 1 || this.flowsAt.has(step) || this.outageToggles(step) || this.watching(step)
  }

  /**
   * How many steps from `step` on the arbitrageurs would leave the pools alone: none when they
   * traded in the latest full-fidelity step (`step` − 1: the pools are still catching up with
   * the market), else while every pool's target (the market price of `lag` ago) stays within
   * half the tolerance of its value at `step` − 1, so a skipped stretch leaves the pools within
   * about 1.5 × toleranceBps of the market, as the arbitrageurs themselves would. Unbounded
   * when arbitrage is off. Capped at `max`.
   */
  arbitrageQuietSteps(step: number, max: number): number {
    const a = this.p.scenario.dex.arbitrage
    if (!a.enabled) return max
    if (this.arbTradedAt >= step - 1) return 0
    const lagged = (s: number) => Math.max(0, s - this.lagSteps)
    const codes = [...new Set(this.p.arbPools.map((pool) => this.p.world.asset(pool.asset).code))]
    const ref = codes.map((c) => this.p.prices.market[c]![lagged(step - 1)]!)
    let n = 0
    for (; n < max; n++) {
      const at = lagged(step + n)
      if (codes.some((c, i) => Math.abs((this.p.prices.market[c]![at] ?? ref[i]!) / ref[i]! - 1) * 10_000 > a.toleranceBps / 2)) break
    }
    return n
  }

  private outageToggles(step: number): boolean {
    if (this.p.scenario.dex.primaryFailureRate <= 0) return false
    return step === this.outageUntil || (step > this.outageUntil && keyedUniform(this.p.seed, 'outage', step) < this.p.scenario.dex.primaryFailureRate)
  }

  private watching(step: number): boolean {
    return step % this.watchEvery === 0 && (this.p.deadKeepers().length > 0 || (this.p.overdueAt?.(step).length ?? 0) > 0)
  }

  /** Starts this step's actions (`full`: also the arbitrageurs, which fast-forwarding skips). */
  act(step: number, ledger: number, full: boolean): void {
    const { world, chain } = this.p
    if (this.p.prices.posts[step] === 1) {
      const feed = world.oracleFeed
      if (feed !== undefined) {
        // A found pool's oracle: its own asset order and decimals, stamped with the ledger's time.
        const prices = new Map(this.p.prices.assets.map((c) => [world.asset(c).contract, toOracleUnits(this.p.prices.oracle[c]![step]!, feed.decimals)]))
        this.track('oracle', ledger, invoke(chain, world.admin, world.oracle, feed.method, feed.args(prices, this.p.nowSeconds())))
      } else {
        const xlm = this.p.oracleXlmPrice === undefined ? [] : [this.p.oracleXlmPrice]
        const prices = [UNIT, ...this.p.prices.assets.map((c) => this.p.toPrice7(this.p.prices.oracle[c]![step]!)), ...xlm]
        this.track('oracle', ledger, invoke(chain, world.admin, world.oracle, 'set_price_stable', [i128s(prices)]))
      }
    }
    if (this.p.scenario.dex.primaryFailureRate > 0) {
      if (step === this.outageUntil) {
        this.outageUntil = -1
        this.track('outage', ledger, invoke(chain, world.admin, world.dex.primaryRouter, 'set_paused', [bool(false)]), 'primary router back')
      } else if (this.outageUntil < 0 && keyedUniform(this.p.seed, 'outage', step) < this.p.scenario.dex.primaryFailureRate) {
        this.outageUntil = step + this.outageSteps
        this.track('outage', ledger, invoke(chain, world.admin, world.dex.primaryRouter, 'set_paused', [bool(true)]), `primary router down for ${this.outageSteps} ledgers`)
      }
    }
    for (const f of this.flowsAt.get(step) ?? []) this.track(f.action, ledger, this.flow(f), undefined)
    if (full && this.p.scenario.dex.arbitrage.enabled) {
      const a = this.p.scenario.dex.arbitrage
      const lagged = Math.max(0, step - this.lagSteps)
      for (const pool of this.p.arbPools) {
        const code = world.asset(pool.asset).code
        // A via pair prices the asset in another collateral: the cross rate of the two market prices.
        const quoteUsd = pool.quote === world.usdc.contract ? 1 : this.p.prices.market[world.asset(pool.quote).code]![lagged]!
        const target = this.p.prices.market[code]![lagged]! / quoteUsd
        const trade = arbitrage(chain, pool, target, a.maxTradeUsd, a.toleranceBps, this.p.nowSeconds() + 3_600n, quoteUsd)
        void trade.then((done) => {
          if (done !== null) this.arbTradedAt = Math.max(this.arbTradedAt, step)
        }, () => {})
        this.track('arbitrage', ledger, trade, null)
      }
    }
    if (this.watching(step)) {
      for (const k of [...this.p.deadKeepers(), ...(this.p.overdueAt?.(step) ?? [])]) {
        this.track('slash', ledger, invoke<bigint>(chain, this.p.watchdog, world.service!.registry, 'slash', [addr(k)]).then((r) => `slashed ${k.slice(0, 6)}…: ${Number(r.value) / 1e7} USDC`), null)
      }
    }
  }

  private async flow(f: Scenario['world']['depositors']['flows'][number]): Promise<string> {
    const { world, chain } = this.p
    const d = world.depositors[f.depositor]!
    const vault = world.service!.vault
    const who = `depositor ${f.depositor}`
    if (f.action === 'deposit') {
      const amount = BigInt(Math.round(f.amount! * 1e7))
      await invoke(chain, d, vault, 'deposit', [addr(d.publicKey()), i128(amount)])
      return `${who} deposited ${f.amount} USDC`
    }
    const info = await read<{ shares: bigint }>(chain, vault, 'get_depositor', [addr(d.publicKey())])
    let shares: bigint
    if (f.fraction !== undefined) shares = (info.shares * BigInt(Math.round(f.fraction * 1e6))) / 1_000_000n
    else {
      const st = await read<{ total_usdc: bigint; total_shares: bigint }>(chain, vault, 'get_state')
      shares = mulDiv(BigInt(Math.round(f.amount! * 1e7)), st.total_shares, st.total_usdc, 'ceil')
      if (shares > info.shares) shares = info.shares
    }
    if (shares <= 0n) return `${who}: nothing to withdraw`
    const { value } = await invoke<bigint>(chain, d, vault, 'withdraw', [addr(d.publicKey()), i128(shares)])
    return `${who} withdrew ${Number(value) / 1e7} USDC`
  }

  /** `text`: the event line on success (undefined = the action's own result; null = no event). */
  private track(kind: RunEvent['kind'] | 'arbitrage', ledger: number, pr: Promise<unknown>, text?: string | null): void {
    const done = pr.then(
      (v) => {
        if (text === null && typeof v !== 'string') return
        if (kind === 'arbitrage' || kind === 'oracle') return
        this.p.record({ ledger, kind, text: text ?? String(v) })
      },
      (err: unknown) => {
        if (kind === 'arbitrage') return
        this.p.record({ ledger, kind: kind as RunEvent['kind'], text: `failed: ${err instanceof Error ? err.message : String(err)}` })
      },
    )
    this.started.push(done)
  }

  /** Everything started so far has settled (after the closes it needed). */
  async settled(): Promise<void> {
    const list = this.started.splice(0)
    await Promise.all(list)
  }
}
