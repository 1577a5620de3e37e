/**
 * Hostile keepers (scenario `keepers.individual[].hostile`): the keeper's operator account runs
 * an attack instead of the keeper process, every step a real transaction against the real
 * vault, registry and executor.
 *
 * - draw-and-run: register with min_stake, two-step draw as much as the vault lends
 *   (max_draw_per_keeper, or all its idle USDC when that is less: BondTooSmall), then what the
 *   bond backs (draw_limit), keep it past the slash timeout until the watchdog
 *   slashes it, draw again (KeeperSlashed), deregister, register again (KeeperBanned).
 * - par-returns: register and bond enough to back every idle USDC, then draw all the idle USDC
 *   it may and return it at par, ledger after ledger. Its victim, a depositor, cannot withdraw
 *   while the draw is out (InsufficientLiquidity), requests a withdrawal, and the next draw of
 *   everything is refused (WithdrawalPending): the attacker draws what is left, the victim gets
 *   out, the attacker returns and deregisters.
 * - skim: once an auction is open, an executor deployed by the registry (approved) flash-draws
 *   and fills it without selling the lot, so the collateral would stay with the keeper
 *   (CollateralKept); then the operator, registered as a plain account, flash-draws to itself
 *   (NotApprovedExecutor). Both executors' registrations are undone at the end.
 */
import { Keypair, xdr } from '@stellar/stellar-sdk'
import { addr, i128, invoke, read, str, struct, u64, toKeeperInfo, type KeeperInfo } from '../../../../src/chain/index.js'
import { freeAssets, lockedProfit, usdcForShares } from '../../../../src/core/index.js'
import { planFill } from '../../../../src/keeper/adapters/blend/auctionPlan.js'
import { encodeRequests, type Request } from '../../../../src/keeper/adapters/blend/requests.js'
import { AuctionType } from '../../../../src/keeper/adapters/blend/storage.js'
import { fillOrder } from '../../../../src/keeper/adapters/blend/userLiquidation.js'
import { bondForDraw } from '../../../../src/world/service.js'
import { seedBytes } from '../../../../src/world/index.js'
import { usd } from '../../serviceSettings.js'
import type { HostileKeeper } from '../../scenario/schema.js'
import { AdversaryAgent, type AdversaryEnv, type Attempt } from './agent.js'

const fmt = (x: bigint) => (Number(x) / 1e7).toFixed(2)

/** `vault.flash_draw`'s FlashCall: the executor's callback arguments (a map with sorted keys). */
export function flashCall(pool: string, requests: readonly Request[], minProceeds = 0n): xdr.ScVal {
  return struct({ min_proceeds: i128(minProceeds), pool: addr(pool), requests: encodeRequests(requests), swaps: xdr.ScVal.scvVec([]) })
}

/** The vault's state fields a draw or a withdrawal depends on. */
interface Books {
  totalUsdc: bigint
  totalShares: bigint
  activeLiq: bigint
  pendingShares: bigint
  lock: { lockedProfit: bigint; lockStart: bigint; lockEnd: bigint }
}

abstract class HostileKeeperAgent extends AdversaryAgent {
  constructor(
    name: string,
    protected readonly spec: HostileKeeper,
    protected readonly operator: Keypair,
    env: AdversaryEnv,
  ) {
    super(name, spec.kind, env)
  }

  protected get me(): string {
    return this.operator.publicKey()
  }

  protected async keeperInfo(address: string): Promise<KeeperInfo | undefined> {
    return read(this.env.chain, this.registry, 'get_keeper', [addr(address)]).then(toKeeperInfo, () => undefined)
  }

  protected async books(): Promise<Books> {
    const st = await read<Record<string, bigint>>(this.env.chain, this.vault, 'get_state')
    return {
      totalUsdc: BigInt(st.total_usdc ?? 0n),
      totalShares: BigInt(st.total_shares ?? 0n),
      activeLiq: BigInt(st.active_liq ?? 0n),
      pendingShares: BigInt(st.pending_shares ?? 0n),
      lock: { lockedProfit: BigInt(st.locked_profit ?? 0n), lockStart: BigInt(st.lock_start ?? 0n), lockEnd: BigInt(st.lock_end ?? 0n) },
    }
  }

  protected register(a: Attempt, who = this.me): ReturnType<AdversaryAgent['tx']> {
    return this.tx(a, `register ${who === this.me ? 'the operator' : 'the executor'} (min_stake ${fmt(this.minStake)} USDC)`, () =>
      invoke(this.env.chain, this.operator, this.registry, 'register', [addr(who), str(`${this.name}-${this.kind}`)]), this.minStake)
  }

  protected draw(a: Attempt, amount: bigint, why = ''): ReturnType<AdversaryAgent['tx']> {
    return this.tx(a, `two-step draw of ${fmt(amount)} USDC${why}`, () => invoke(this.env.chain, this.operator, this.vault, 'draw', [addr(this.me), i128(amount)]), amount)
  }

  protected giveBack(a: Attempt, amount: bigint): ReturnType<AdversaryAgent['tx']> {
    return this.tx(a, `return ${fmt(amount)} USDC at par`, () => invoke(this.env.chain, this.operator, this.vault, 'return_proceeds', [addr(this.me), i128(amount), u64(0)]), amount)
  }

  protected deregister(a: Attempt): ReturnType<AdversaryAgent['tx']> {
    return this.tx(a, 'deregister the operator', () => invoke(this.env.chain, this.operator, this.registry, 'deregister', [addr(this.me)]))
  }

  protected get minStake(): bigint {
    return usd(this.env.scenario.world.registry.minStake)
  }

  protected get maxDraw(): bigint {
    return usd(this.env.scenario.world.vault.maxDrawPerKeeper)
  }
}

export class DrawAndRun extends HostileKeeperAgent {
  protected async script(): Promise<void> {
    if (this.spec.kind !== 'draw-and-run') return
    await this.untilStep(this.env.stepAt(this.spec.at))
    const a = this.begin('register with min_stake, two-step draw as much as the vault lends, then all the bond backs, keep it past the slash timeout', this.me, {
      accounts: [this.me],
      start: await this.holdings([this.me]),
    })
    if (!(await this.register(a)).ok) return this.end(a, 'its registration was refused')
    const b = await this.books()
    const lends = this.maxDraw < b.totalUsdc - b.activeLiq ? this.maxDraw : b.totalUsdc - b.activeLiq
    const refusedMax = !(await this.draw(a, lends, lends === this.maxDraw ? ' (max_draw_per_keeper)' : ' (all idle USDC, under max_draw_per_keeper)')).ok
    const limit = (await this.keeperInfo(this.me))?.drawLimit ?? 0n
    const drawn = await this.draw(a, limit, ' (its draw_limit)')
    if (!drawn.ok) return this.end(a, `refused${refusedMax ? ' both draws' : ''}`)
    // The watchdog slashes the draw once it is past the timeout: the registry sends the vault the penalty and the draw's cover.
    const slashed = () => this.env.events().slashes.find((s) => s.keeper === this.me)
    await this.until(() => slashed() !== undefined)
    const s = slashed()!
    this.note(a, s.ledger, `slashed by the watchdog: ${fmt(s.data.slashed ?? 0n)} USDC of its stake to the vault`, s.data.slashed ?? 0n)
    await this.draw(a, limit, ' again, after the slash')
    await this.deregister(a)
    await this.register(a)
    a.holdings!.end = await this.holdings([this.me])
    this.end(a, `drew ${fmt(limit)} USDC, all its bond backs${refusedMax ? ` (${fmt(lends)} refused)` : ''}; slashed at ledger ${s.ledger}: ${fmt(s.data.slashed ?? 0n)} USDC of its stake to the vault`)
  }
}

export class ParReturns extends HostileKeeperAgent {
  constructor(
    name: string,
    spec: HostileKeeper,
    operator: Keypair,
    private readonly victim: Keypair,
    env: AdversaryEnv,
  ) {
    super(name, spec, operator, env)
  }

  /** The bond it adds: the spec's, else what backs max_draw_per_keeper. */
  static bond(spec: HostileKeeper, s: AdversaryEnv['scenario']): bigint {
    if (spec.kind !== 'par-returns') return 0n
    if (spec.bond !== undefined) return usd(spec.bond)
    const r = s.world.registry
    return bondForDraw(usd(s.world.vault.maxDrawPerKeeper), { minStake: usd(r.minStake), slashTimeout: BigInt(r.slashTimeout), slashRateBps: r.slashRateBps })
  }

  /** All the idle USDC it may draw: idle, capped by max_draw_per_keeper and its draw_limit. */
  private async allIdle(limit: bigint): Promise<bigint> {
    const b = await this.books()
    const idle = b.totalUsdc - b.activeLiq
    return [idle, this.maxDraw, limit].reduce((m, x) => (x < m ? x : m))
  }

  /** What the vault keeps for the pending requests (their shares at the free-asset price, floor), as its draw check does. */
  private async owed(): Promise<{ idle: bigint; owed: bigint }> {
    const b = await this.books()
    const now = this.env.timeOfStep(this.step)
    const locked = now < b.lock.lockStart ? b.lock.lockedProfit : lockedProfit(b.lock, now)
    const free = freeAssets(b.totalUsdc, locked)
    const owed = b.pendingShares > 0n && b.totalShares > 0n ? usdcForShares({ shares: b.pendingShares, totalUsdc: free, totalShares: b.totalShares }) : 0n
    return { idle: b.totalUsdc - b.activeLiq, owed }
  }

  protected async script(): Promise<void> {
    if (this.spec.kind !== 'par-returns') return
    const spec = this.spec
    await this.untilStep(this.env.stepAt(spec.at))
    const v = this.victim.publicKey()
    const a = this.begin(`bond, draw all idle USDC and return it at par ledger after ledger (${spec.rounds} rounds) so that depositor ${spec.victim} cannot withdraw`, this.me, {
      accounts: [this.me],
      start: await this.holdings([this.me]),
    })
    if (!(await this.register(a)).ok) return this.end(a, 'its registration was refused')
    const bond = ParReturns.bond(spec, this.env.scenario)
    if (bond > 0n) await this.tx(a, `add ${fmt(bond)} USDC of bond`, () => invoke(this.env.chain, this.operator, this.registry, 'add_bond', [addr(this.me), i128(bond)]), bond)
    const limit = (await this.keeperInfo(this.me))?.drawLimit ?? 0n
    let out = 0n
    for (let r = 1; r <= spec.rounds; r++) {
      if (out > 0n) {
        await this.giveBack(a, out)
        out = 0n
      }
      const amount = await this.allIdle(limit)
      if ((await this.draw(a, amount, ' (all idle)')).ok) out = amount
    }
    // With everything drawn, the victim's withdrawal finds no idle USDC.
    const shares = BigInt((await read<Record<string, bigint>>(this.env.chain, this.vault, 'get_depositor', [addr(v)])).shares ?? 0n)
    const victimTx = (action: string, method: string, args: xdr.ScVal[]) =>
      this.tx(a, `depositor ${spec.victim}: ${action}`, () => invoke(this.env.chain, this.victim, this.vault, method, args), method === 'withdraw' ? 'returned' : undefined)
    await victimTx(`withdraw all ${fmt(shares)} shares`, 'withdraw', [addr(v), i128(shares)])
    const requested = await victimTx(`request_withdraw of all ${fmt(shares)} shares`, 'request_withdraw', [addr(v), i128(shares)])
    if (out > 0n) {
      await this.giveBack(a, out)
      out = 0n
    }
    // Drawing everything again would take what the request needs.
    await this.draw(a, await this.allIdle(limit), ' (all idle, again)')
    const { idle, owed } = await this.owed()
    const may = [idle - owed, this.maxDraw, limit].reduce((m, x) => (x < m ? x : m))
    if (may > 0n && (await this.draw(a, may, ' (all but what the request needs)')).ok) out = may
    const exit = await victimTx(`withdraw all ${fmt(shares)} shares`, 'withdraw', [addr(v), i128(shares)])
    if (out > 0n) await this.giveBack(a, out)
    await this.deregister(a)
    a.holdings!.end = await this.holdings([this.me])
    const waited = requested.ok && exit.ok ? `, ${exit.ledger - requested.ledger} ledgers after its request` : ''
    this.end(a, exit.ok ? `depositor ${spec.victim} got out with ${fmt(BigInt(exit.value as bigint))} USDC${waited}` : `depositor ${spec.victim} did not get out`)
  }
}

export class Skim extends HostileKeeperAgent {
  protected async script(): Promise<void> {
    if (this.spec.kind !== 'skim') return
    await this.untilStep(this.env.stepAt(this.spec.at))
    // An open user-liquidation auction to fill.
    const target = () => this.env.scan()?.borrowers.find((b) => b.auction !== undefined)
    await this.until(() => target() !== undefined)
    const chain = this.env.chain
    const world = this.env.world
    const a = this.begin('flash-draw through an executor the registry deployed and fill an auction without selling the lot, so the collateral would stay with the keeper', this.me, {
      accounts: [this.me],
      start: await this.holdings([this.me]),
    })
    const salt = seedBytes(world.seed, `salt/executor/${this.me}/skim`)
    const deployed = await this.tx(a, 'deploy an approved executor (registry deploy_executor)', () =>
      invoke<string>(chain, this.operator, this.registry, 'deploy_executor', [addr(this.me), xdr.ScVal.scvBytes(Buffer.from(salt))]))
    if (!deployed.ok) return this.end(a, 'the registry refused to deploy its executor')
    const executor = String(deployed.value)
    a.holdings!.accounts.push(executor)
    await this.tx(a, 'register the executor (min_stake through it)', () => invoke(chain, this.operator, executor, 'register', [addr(this.registry), str(`${this.name}-skim`)]), this.minStake)
    const order = this.order()
    if (order === undefined) return this.end(a, 'no auction could be valued to fill')
    const flash = (keeper: string, nonRootAuth: boolean) => () =>
      invoke(chain, this.operator, this.vault, 'flash_draw', [addr(keeper), i128(order.drew), flashCall(world.blend.pool, order.requests), u64(0)], nonRootAuth ? { nonRootAuth: true } : {})
    await this.tx(a, `flash_draw of ${fmt(order.drew)} USDC to the executor: fill ${order.user.slice(0, 6)}…'s auction, no sale`, flash(executor, true), order.drew)
    a.holdings!.end = await this.holdings(a.holdings!.accounts)
    this.end(a, outcomeOf(a, 'the fill went through'))

    const b = this.begin('flash-draw to the operator itself, a plain registered account (no executor code of the registry)', this.me, {
      accounts: [this.me, executor],
      start: await this.holdings([this.me, executor]),
    })
    await this.register(b)
    await this.tx(b, `flash_draw of ${fmt(order.drew)} USDC to the operator`, flash(this.me, false), order.drew)
    await this.tx(b, 'deregister the executor', () => invoke(chain, this.operator, executor, 'deregister', [addr(this.registry)]))
    await this.deregister(b)
    b.holdings!.end = await this.holdings(b.holdings!.accounts)
    this.end(b, outcomeOf(b, 'the flash draw went through'))
  }

  /** The fill of the first open auction at the ledger being built (its whole bid repaid, its lot withdrawn). */
  private order(): { user: string; drew: bigint; requests: Request[] } | undefined {
    const scan = this.env.scan()
    const b = scan?.borrowers.find((x) => x.auction !== undefined)
    if (scan === undefined || b === undefined) return undefined
    const plan = planFill({ auction: b.auction!, reserves: scan.valuation.reserves, prices: scan.prices.prices, minProfit: 0n, fromBlock: Math.max(this.env.building(), b.auction!.block), type: AuctionType.UserLiquidation })
    if (plan === null) return undefined
    const order = fillOrder(b.user, plan, scan.valuation.reserves, this.env.world.usdc.contract)
    if ('refuse' in order) return undefined
    return { user: b.user, drew: order.drew, requests: order.requests }
  }
}

/** `refused by N Name` from the attempt's refused step, else `otherwise`. */
function outcomeOf(a: Attempt, otherwise: string): string {
  const r = a.steps.find((s) => s.error !== undefined && s.action.startsWith('flash_draw'))
  return r === undefined ? otherwise : `refused: ${r.error!.code} ${r.error!.name}`
}
