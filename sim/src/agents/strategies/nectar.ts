/**
 * `nectar`: a keeper as Nectar (a pooled liquidation protocol on Stellar over Blend) describes
 * its own: every poll it lists the borrowers under a health factor of 1, most underwater first;
 * for each it opens a user liquidation at 50 % when none is open (a percent the pool refuses is
 * refused in simulation and nothing is sent), and values the open auction at the ledger being
 * built, at oracle prices (core `firstProfitableBlock` through `planFill`, 100 %). When the lot is
 * worth MIN_PROFIT × the bid there it carries the fill out as four transactions from its
 * operator, each waiting for the one before: a two-step draw of the bid's USDC from the vault
 * (within its `draw_limit`: the stake backs it), the fill (fill 100 %, repay, withdraw the
 * collateral in one `submit`), the sale of each lot asset on the primary router (the keeper's
 * DEX client, refused below the slippage floor of its oracle value), and the return of
 * everything it measured. A fill that fails gives the draw back at par. A sale that fails keeps
 * the collateral and the draw; the next polls try the sale again, then return. A return short of
 * the draw (the sale paid less than the bid) is made up from its own USDC, as the daemon's is.
 * One execution at a time: while one runs it neither opens nor values anything else.
 */
import type { Keypair } from '@stellar/stellar-sdk'
import { addr, invoke } from '../../../../src/chain/index.js'
import { fillFeeInput, oracleXlmPrice } from '../../../../src/keeper/adapters/blend/fillFee.js'
import { encodeRequests } from '../../../../src/keeper/adapters/blend/requests.js'
import type { BorrowerView, ScanResult } from '../../../../src/keeper/adapters/blend/scan.js'
import { usdcValue } from '../../../../src/keeper/adapters/blend/sellCollateral.js'
import { sameAuction } from '../../../../src/keeper/adapters/blend/userLiquidation.js'
import { tokenBalance } from '../../../../src/keeper/clients/token.js'
import { VaultContract } from '../../../../src/keeper/clients/vault.js'
import { ErrSlippageExceeded } from '../../../../src/keeper/dex/errors.js'
import { routerVenue } from '../../../../src/keeper/dex/routerVenue.js'
import { swapToUsdc } from '../../../../src/keeper/dex/swapToUsdc.js'
import type { KeeperSpec } from '../keepers.js'
import { StrategyKeeper, type StrategyEnv } from './agent.js'
import { closingReturn, NECTAR_AUCTION_PERCENT, oracleRule, type RuleAnswer } from './rules.js'

/** A filled execution whose draw is still out: the collateral left to sell, and what it measures the return from. */
interface Holding {
  user: string
  drew: bigint
  /** The operator's USDC before the draw. */
  usdcBefore: bigint
  /** Seized collateral not sold yet. */
  unsold: { asset: string; amount: bigint }[]
}

export class Nectar extends StrategyKeeper {
  private readonly vault: VaultContract
  private holding: Holding | undefined

  constructor(spec: KeeperSpec, keypair: Keypair, env: StrategyEnv) {
    super(spec, 'two-step', keypair, keypair.publicKey(), env)
    this.vault = new VaultContract(env.chain, env.vault)
  }

  protected async run(): Promise<void> {
    if (this.holding !== undefined) return this.settle()
    const scan = await this.scan()
    const tasks = scan.borrowers.filter((b) => b.liquidatable).sort((a, b) => a.healthFactor - b.healthFactor || (a.user < b.user ? -1 : 1))
    for (const b of tasks) {
      if (b.auction === undefined) {
        await this.openAuction(scan, b.user, NECTAR_AUCTION_PERCENT)
        continue
      }
      // Valued at the ledger being built now (an opening above may have taken a ledger).
      const now = await this.scan()
      const auction = now.borrowers.find((x) => x.user === b.user)?.auction
      if (auction === undefined) continue
      const answer = oracleRule(this.view(now, auction), b.user, this.env.building())
      if (answer.kind === 'never') this.decide(b.user, /MIN_PROFIT/.test(answer.why) ? 'unprofitable' : 'skipped')
      else if (answer.kind === 'wait') this.decide(b.user, 'planned', answer.target)
      else {
        this.decide(b.user, 'planned', this.env.building())
        // One execution a cycle: it takes ledgers, and what the scan said of the others is old by then.
        return this.execute(now, { ...b, auction }, answer)
      }
    }
  }

  /** Draw, fill, then sell and return. */
  private async execute(scan: ScanResult, b: BorrowerView, answer: Extract<RuleAnswer, { kind: 'fill' }>): Promise<void> {
    const { plan, order } = answer
    const chain = this.env.chain
    const me = this.operator
    const usdcBefore = await tokenBalance(chain, this.env.usdc, me)
    const lotBefore = await Promise.all(order.lotAssets.map((a) => tokenBalance(chain, a, me)))
    try {
      await this.vault.draw(this.keypair, order.drew)
    } catch (err) {
      this.failure(err, false)
      this.decide(b.user, 'failed')
      this.finished.abandoned++
      this.log.info({ user: b.user, drew: order.drew.toString(), err: err instanceof Error ? err.message.slice(0, 200) : String(err) }, 'draw refused')
      return
    }
    const reserves = scan.valuation.reserves
    const prices = scan.prices.prices
    try {
      const fee = await this.env.fees.fill(
        fillFeeInput({ fill: plan, drew: order.drew, reserves, prices, usdc: this.env.usdc, networkPassphrase: chain.networkPassphrase, readXlmPrice: () => oracleXlmPrice(chain, scan.snapshot.config.oracle) }),
      )
      const res = await invoke(chain, this.keypair, this.env.pool, 'submit', [addr(me), addr(me), addr(me), encodeRequests(order.requests)], fee)
      this.log.info({ user: b.user, ledger: res.ledger, drew: order.drew.toString() }, 'filled the whole auction')
    } catch (err) {
      const now = await this.auctionNow(b.user).catch(() => b.auction)
      const lost = now === undefined || !sameAuction(now, b.auction!)
      this.failure(err, lost)
      this.decide(b.user, lost ? 'lost' : 'failed')
      if (lost) this.finished.lost++
      else this.finished.abandoned++
      this.log.info({ user: b.user, lost, err: err instanceof Error ? err.message.slice(0, 200) : String(err) }, 'fill failed: the draw goes back at par')
      await this.giveBack(b.user, order.drew, usdcBefore, true)
      return
    }
    this.decide(b.user, 'filled')
    const seized = await Promise.all(order.lotAssets.map(async (asset, i) => ({ asset, amount: (await tokenBalance(chain, asset, me)) - lotBefore[i]! })))
    this.holding = { user: b.user, drew: order.drew, usdcBefore, unsold: seized.filter((s) => s.amount > 0n) }
    await this.settle()
  }

  /** Sells what is still held, then closes the draw; what fails waits for the next poll. */
  private async settle(): Promise<void> {
    const h = this.holding!
    const scan = await this.scan()
    const chain = this.env.chain
    const me = this.operator
    const venue = routerVenue({ chain, keypair: this.keypair, router: this.env.router, name: 'primary', now: this.env.nowMs })
    for (const s of [...h.unsold]) {
      try {
        await swapToUsdc({
          venues: [venue],
          tokenIn: s.asset,
          usdc: this.env.usdc,
          amountIn: s.amount,
          refValue: usdcValue(s.amount, s.asset, this.env.usdc, scan.valuation.reserves, scan.prices.prices),
          slippageBps: this.env.slippageBps,
          usdcBalance: () => tokenBalance(chain, this.env.usdc, me),
        })
        h.unsold = h.unsold.filter((x) => x !== s)
      } catch (err) {
        // A sale refused at its floor (by the quote or the router) is a failed sale on the price.
        this.failure(err, false, err instanceof ErrSlippageExceeded ? 'slippage' : undefined)
        this.log.info({ user: h.user, asset: s.asset, amount: s.amount.toString(), err: err instanceof Error ? err.message.slice(0, 200) : String(err) }, 'sale failed: holding the collateral and the draw')
      }
    }
    if (h.unsold.length > 0) return
    await this.giveBack(h.user, h.drew, h.usdcBefore, false)
  }

  /** Returns the draw: at par after a failed fill, else all it measured (the daemon's closing rule). */
  private async giveBack(user: string, drew: bigint, usdcBefore: bigint, atPar: boolean): Promise<void> {
    const chain = this.env.chain
    try {
      const onHand = await tokenBalance(chain, this.env.usdc, this.operator)
      const amount = atPar ? (drew < onHand ? drew : onHand) : closingReturn(onHand - usdcBefore, drew, onHand)
      const settled = await this.vault.returnProceedsWithFee(this.keypair, amount, 0)
      this.holding = undefined
      if (!atPar) this.finished.returned++
      this.log.info({ user, returned: amount.toString(), profit: settled.profit.toString(), fee: settled.fee.toString() }, 'returned the draw')
    } catch (err) {
      this.failure(err, false)
      // Tried again at the next poll.
      this.holding = { user, drew, usdcBefore, unsold: [] }
      this.log.warn({ user, err: err instanceof Error ? err.message.slice(0, 200) : String(err) }, 'return failed')
    }
  }
}
