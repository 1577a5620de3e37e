/**
 * Hostile depositors (scenario `world.depositors.adversaries`), every step a real transaction
 * against the real vault.
 *
 * - exit-ahead: one of the run's depositors watches the vault's draws; once a two-step draw is
 *   past the slash timeout and not yet slashed, it withdraws all its shares, ahead of the slash
 *   (its transactions go first in their ledger, the watchdog's after). The attempt ends when the
 *   draw is settled (the slash's write-off, or a return).
 * - jit-deposit: an account of its own deposits in the ledger before the one in which the core
 *   finds an open auction profitable at the keepers' lowest MIN_PROFIT, then back-runs: in the
 *   first later ledger in which keeper transactions arrive, its withdrawal of every share arrives
 *   after them. A hit when a fill landed between its deposit and its withdrawal; else it tries
 *   again, up to `attempts` times.
 */
import type { Keypair } from '@stellar/stellar-sdk'
import { addr, i128, invoke, read } from '../../../../src/chain/index.js'
import { minProfitScaled, planFill } from '../../../../src/keeper/adapters/blend/auctionPlan.js'
import { AuctionType } from '../../../../src/keeper/adapters/blend/storage.js'
import { usd } from '../../serviceSettings.js'
import type { DepositorAdversary } from '../../scenario/schema.js'
import { depositorFigures, openDraws, overdueDraws } from './accounting.js'
import { AdversaryAgent, type AdversaryEnv } from './agent.js'

const fmt = (x: bigint) => (Number(x) / 1e7).toFixed(2)

/** Ledgers a JIT deposit waits for keeper transactions to back-run before it leaves anyway. */
const JIT_PATIENCE = 6

abstract class HostileDepositor extends AdversaryAgent {
  constructor(
    name: string,
    protected readonly spec: DepositorAdversary,
    protected readonly account: Keypair,
    env: AdversaryEnv,
  ) {
    super(name, spec.kind, env)
  }

  protected get me(): string {
    return this.account.publicKey()
  }

  protected async shares(): Promise<bigint> {
    return BigInt((await read<Record<string, bigint>>(this.env.chain, this.vault, 'get_depositor', [addr(this.me)])).shares ?? 0n)
  }

  protected async books(): Promise<{ totalUsdc: bigint; totalShares: bigint }> {
    const st = await read<Record<string, bigint>>(this.env.chain, this.vault, 'get_state')
    return { totalUsdc: BigInt(st.total_usdc ?? 0n), totalShares: BigInt(st.total_shares ?? 0n) }
  }
}

export class ExitAhead extends HostileDepositor {
  private get timeout(): bigint {
    return BigInt(Math.round(this.env.scenario.world.registry.slashTimeout))
  }

  /** The draws anyone could slash in the ledger of `step`. */
  private overdueAt(step: number) {
    return overdueDraws(openDraws(this.env.events().vault), this.env.timeOfStep(step), this.timeout)
  }

  protected async script(): Promise<void> {
    if (this.spec.kind !== 'exit-ahead') return
    // Checked at every step; the first step at which an open draw is overdue is not fast-forwarded.
    await this.until(
      () => this.overdueAt(this.step).length > 0,
      (step) => this.overdueAt(step).length > 0,
    )
    const draw = this.overdueAt(this.step)[0]!
    const s0 = await this.shares()
    const a = this.begin(`withdraw all its shares while ${draw.keeper.slice(0, 6)}…'s draw of ${fmt(draw.amount)} USDC is past the slash timeout`, this.me)
    const out = await this.tx(a, `withdraw all ${fmt(s0)} shares`, () => invoke<bigint>(this.env.chain, this.account, this.vault, 'withdraw', [addr(this.me), i128(s0)]), 'returned')
    if (!out.ok) return this.end(a, 'its withdrawal was refused')
    const paid = BigInt(out.value)
    // The window closes when the draw is settled: the slash's write-off (or the keeper's return).
    const settled = () => !openDraws(this.env.events().vault).some((d) => d.keeper === draw.keeper)
    await this.until(settled)
    const end = this.env.events().vault.filter((f) => f.address === draw.keeper && (f.kind === 'write_off' || f.kind === 'return')).at(-1)
    const books = await this.books()
    a.figures = depositorFigures({ deposited: 0n, withdrawn: paid, sharesBefore: s0, sharesAfter: await this.shares(), ...books })
    const how = end?.kind === 'write_off' ? `slashed at ledger ${end.ledger} (${fmt(end.data.recovered ?? 0n)} USDC recovered for ${fmt(end.data.written_down ?? 0n)} written off)` : `returned at ledger ${end?.ledger ?? '?'}`
    this.end(a, `withdrew ${fmt(paid)} USDC at ledger ${out.ledger}; the draw was ${how}`, end?.ledger ?? this.env.building() - 1)
  }
}

export class JitDeposit extends HostileDepositor {
  /** The first ledger the core finds an open user-liquidation auction profitable at the keepers' lowest MIN_PROFIT. */
  private predictedFill(): number | undefined {
    const scan = this.env.scan()
    if (scan === undefined) return undefined
    const min = minProfitScaled(this.env.minProfit)
    let first: number | undefined
    for (const b of scan.borrowers) {
      if (b.auction === undefined) continue
      const plan = planFill({ auction: b.auction, reserves: scan.valuation.reserves, prices: scan.prices.prices, minProfit: min, fromBlock: b.auction.block, type: AuctionType.UserLiquidation })
      if (plan !== null && (first === undefined || plan.block < first)) first = plan.block
    }
    return first
  }

  protected async script(): Promise<void> {
    if (this.spec.kind !== 'jit-deposit') return
    const spec = this.spec
    await this.untilStep(this.env.stepAt(spec.at))
    const amount = usd(spec.amount)
    for (let n = 1; n <= spec.attempts; n++) {
      // The ledger before the predicted fill (or later, when the fill is already due).
      await this.until(() => {
        const at = this.predictedFill()
        return at !== undefined && at <= this.env.building() + 1
      })
      const a = this.begin(`deposit ${fmt(amount)} USDC in the ledger before a fill, withdraw right after it`, this.me)
      const s0 = await this.shares()
      const fillsBefore = this.env.events().fills.length
      const dep = await this.tx(a, `deposit ${fmt(amount)} USDC`, () => invoke<bigint>(this.env.chain, this.account, this.vault, 'deposit', [addr(this.me), i128(amount)]), amount)
      if (!dep.ok) return this.end(a, 'its deposit was refused')
      const held = s0 + BigInt(dep.value)
      // Back-run: the withdrawal arrives after the keepers' transactions of that ledger.
      await this.untilBackrun(() => this.env.keeperTxsArriving() > 0 || this.env.building() > dep.ledger + JIT_PATIENCE)
      const out = await this.tx(a, `withdraw all ${fmt(held)} shares, after the ledger's keeper transactions`, () =>
        invoke<bigint>(this.env.backrun, this.account, this.vault, 'withdraw', [addr(this.me), i128(held)]), 'returned')
      if (!out.ok) return this.end(a, 'its withdrawal was refused')
      const place = this.env.placeOf(out.hash)
      const between = this.env
        .events()
        .fills.slice(fillsBefore)
        .filter((f) => f.ledger < out.ledger || (f.ledger === out.ledger && (place === undefined || (this.env.placeOf(f.txHash)?.position ?? Infinity) < place.position)))
      const books = await this.books()
      a.figures = depositorFigures({ deposited: amount, withdrawn: BigInt(out.value), sharesBefore: s0, sharesAfter: await this.shares(), ...books })
      const hit = between.length > 0
      this.end(
        a,
        hit
          ? `${between.length} fill${between.length === 1 ? '' : 's'} landed in between (ledger ${between.map((f) => f.ledger).join(', ')}); withdrew ${fmt(BigInt(out.value))} USDC at ledger ${out.ledger}`
          : `no fill landed in between; withdrew ${fmt(BigInt(out.value))} USDC at ledger ${out.ledger}`,
      )
      if (hit) return
    }
  }
}
