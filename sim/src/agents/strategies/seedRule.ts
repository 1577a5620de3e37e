/**
 * `seed-rule`: the rule Blend's auctioneer bot (script3/auctioneer-bot) fills by (Nectar's
 * keeper fills by the same ratio, and our daemon when it knows no router to value the sale on).
 * It values an auction's lot and bid at the pool's oracle and fills all of it at the first ledger
 * whose lot is worth MIN_PROFIT × the bid; it never asks how much the DEX can take.
 *
 * Per poll: open an auction for every liquidatable borrower without one (at the percent the
 * pool accepts, the daemon's `chooseLiquidationPercent`; the bot aims at a health factor of
 * 1.1), then work out each open auction's target ledger (core `firstProfitableBlock` through
 * `planFill`, 100 %, at oracle prices). In every ledger (not only at polls): fire what is due.
 * A fire re-reads the auction as it stands (gone: lost; smaller after someone's part-fill: all
 * of what is left) and sends the vault's flash draw to its own executor (the atomic path): fill
 * 100 %, sell each lot asset whole on the primary router for at least the slippage floor of its
 * oracle value, hand the USDC back, in one transaction. A fill that fails is planned again at
 * the next poll.
 */
import type { Keypair } from '@stellar/stellar-sdk'
import { fillFeeInput, oracleXlmPrice } from '../../../../src/keeper/adapters/blend/fillFee.js'
import { chooseLiquidationPercent } from '../../../../src/keeper/adapters/blend/liquidationPercent.js'
import type { ScanResult } from '../../../../src/keeper/adapters/blend/scan.js'
import { sameAuction } from '../../../../src/keeper/adapters/blend/userLiquidation.js'
import type { ExecutorContract } from '../../../../src/keeper/clients/executor.js'
import type { KeeperSpec } from '../keepers.js'
import { StrategyKeeper, type StrategyEnv } from './agent.js'
import { oracleRule, pollsAt, wholeLotSwaps } from './rules.js'

export class SeedRule extends StrategyKeeper {
  /** Per user with an open auction: the ledger it fills at. */
  private readonly targets = new Map<string, number>()

  constructor(
    spec: KeeperSpec,
    keypair: Keypair,
    private readonly executor: Pick<ExecutorContract, 'contractId' | 'liquidate'>,
    env: StrategyEnv,
  ) {
    super(spec, 'atomic', keypair, executor.contractId, env)
  }

  protected override dueAt(ledger: number): boolean {
    for (const t of this.targets.values()) if (t <= ledger) return true
    return false
  }

  protected async run(ledger: number): Promise<void> {
    const polled = pollsAt(ledger, this.spec.phase, this.spec.pollLedgers)
    if (polled) this.plan(await this.scan(), ledger)
    await this.fireDue()
    if (polled) await this.openAuctions()
  }

  /** Each open auction's target ledger at oracle prices; auctions no longer open are forgotten. */
  private plan(scan: ScanResult, ledger: number): void {
    const open = new Set<string>()
    for (const b of scan.borrowers) {
      if (b.auction === undefined) continue
      open.add(b.user)
      const answer = oracleRule(this.view(scan, b.auction), b.user, ledger)
      if (answer.kind === 'never') {
        this.targets.delete(b.user)
        this.decide(b.user, /MIN_PROFIT/.test(answer.why) ? 'unprofitable' : 'skipped')
        continue
      }
      const target = answer.kind === 'wait' ? answer.target : ledger
      this.targets.set(b.user, target)
      this.decide(b.user, 'planned', target)
    }
    for (const user of [...this.targets.keys()]) if (!open.has(user)) this.targets.delete(user)
  }

  /** Fires every auction whose target has come, one after the other, in the order planned. */
  private async fireDue(): Promise<void> {
    for (const [user, target] of [...this.targets]) {
      if (target > this.env.building()) continue
      await this.fire(user)
    }
  }

  private async fire(user: string): Promise<void> {
    const ledger = this.env.building()
    const scan = await this.scan()
    const auction = scan.borrowers.find((b) => b.user === user)?.auction
    if (auction === undefined) {
      this.targets.delete(user)
      this.decide(user, 'lost')
      this.finished.lost++
      return
    }
    const answer = oracleRule(this.view(scan, auction), user, ledger)
    if (answer.kind === 'never') {
      this.targets.delete(user)
      this.decide(user, 'unprofitable')
      return
    }
    if (answer.kind === 'wait') {
      this.targets.set(user, answer.target)
      this.decide(user, 'replanned', answer.target)
      return
    }
    const { plan, order } = answer
    const reserves = scan.valuation.reserves
    const prices = scan.prices.prices
    const swaps = wholeLotSwaps({ plan, order, reserves, prices, usdc: this.env.usdc, router: this.env.router, slippageBps: this.env.slippageBps })
    const chain = this.env.chain
    const fee = await this.env.fees.fill(
      fillFeeInput({ fill: plan, drew: order.drew, reserves, prices, usdc: this.env.usdc, networkPassphrase: chain.networkPassphrase, readXlmPrice: () => oracleXlmPrice(chain, scan.snapshot.config.oracle) }),
    )
    this.targets.delete(user)
    try {
      const sent = await this.executor.liquidate(
        { pool: this.env.pool, draw: order.drew, requests: order.requests, swaps, minProceeds: order.drew, responseTimeMs: 0 },
        this.keypair,
        fee,
      )
      this.decide(user, 'filled')
      this.finished.returned++
      this.log.info({ user, ledger: sent.ledger, drew: order.drew.toString(), profit: sent.profit.toString(), fee: sent.fee.toString() }, 'filled the whole auction atomically')
    } catch (err) {
      const now = await this.auctionNow(user).catch(() => auction)
      const lost = now === undefined || !sameAuction(now, auction)
      this.failure(err, lost)
      this.decide(user, lost ? 'lost' : 'failed')
      if (lost) this.finished.lost++
      this.log.info({ user, lost, err: err instanceof Error ? err.message.slice(0, 200) : String(err) }, 'fill failed')
    }
  }

  /** An auction for every liquidatable borrower without one, at the percent the pool accepts. */
  private async openAuctions(): Promise<void> {
    const scan = await this.scan()
    for (const b of scan.borrowers) {
      if (!b.liquidatable || b.auction !== undefined) continue
      const percent = chooseLiquidationPercent(scan.valuation, b.positions)
      if (percent !== undefined) await this.openAuction(scan, b.user, percent)
    }
  }
}
