/**
 * Blend v2 lending-pool adapter.
 *
 * getTasks: one {@link PoolScanner} scan (events, batched ledger reads, prices), one task per
 * borrower with HF < 1 (or with an open auction), priority from the HF; the backstop's bad debt
 * and interest auctions when there are any.
 *
 * As a staged adapter for the execution engine: `plan` opens the auction (unless one is open) and
 * finds its first ledger where lot value / bid cost >= MIN_PROFIT, drawing nothing; `fire` runs at
 * that ledger (see userLiquidation.ts and backstop.ts): draw, fill + repay + withdraw collateral,
 * swap the seized collateral to USDC, return_proceeds — or all of it in one transaction through
 * the keeper's executor contract (the atomic path). A lost race draws nothing or returns the draw
 * unchanged; collateral that cannot be sold is held, not booked.
 *
 * `execute` does the same in one call (plan, wait for the ledger, fire) for callers without an
 * engine.
 */
import { xdr, type Keypair } from '@stellar/stellar-sdk'
import { addr, ContractError, invoke, simulateRead, SubmissionLanes, u32, type Chain } from '../../../chain/index.js'
import { mulDiv } from '../../../core/index.js'
import { tokenBalance } from '../../clients/token.js'
import { routerDepth } from '../../dex/routerDepth.js'
import { saleRoutes } from '../../dex/saleRoutes.js'
import { routerVenue } from '../../dex/routerVenue.js'
import type { Venue } from '../../dex/swapToUsdc.js'
import { RpcLedgerClock, type LedgerSource } from '../../engine/ledgerClock.js'
import type { AdapterContext, AdapterMetrics, ExecutionPlan, FireContext, Position, Result, StagedAdapter, Task, VaultClient } from '../../sdk/index.js'
import { isReplan, isSkip, makeResult, taskPriority } from '../../sdk/index.js'
import { minProfitScaled } from './auctionPlan.js'
import { backstopAuctions, type PreparedBackstop } from './backstop.js'
import type { BorrowerSources } from './borrowerSources.js'
import type { AtomicExecutor, BlendContext } from './context.js'
import type { FillFee } from './fillFee.js'
import { ErrBadTask } from './errors.js'
import { DEFAULT_FAILURE_BUDGET, FailureBudget } from './failureBudget.js'
import { SaleReservations } from './saleReservations.js'
import { AuctionOrigins } from './auctionOrigins.js'
import { chooseLiquidationPercent } from './liquidationPercent.js'
import { ledgerMemo, singleFlight } from './ledgerMemo.js'
import { loadAuction, loadPool } from './loadPool.js'
import { loadOraclePrices } from './oracle.js'
import { positionsText } from './poolState.js'
import { PoolScanner, valuationReserves, type PoolReader, type ScanResult } from './scan.js'
import { positionData } from './positionData.js'
import { AuctionType, scAddress } from './storage.js'
import type { BlendTaskData } from './taskData.js'
import { sellCollateral } from './sellCollateral.js'
import { userLiquidations, type UserPlanData } from './userLiquidation.js'


/** Blend pool error codes the adapter reacts to. */
export const PoolErrorCode = {
  InvalidLiquidation: 1211,
  AuctionInProgress: 1212,
  InvalidLiqTooLarge: 1213,
  InvalidLiqTooSmall: 1214,
} as const

export type { BlendTaskData } from './taskData.js'

export interface LendingPoolAdapterParameters {
  pool: string
  /** USDC token; read from the vault (`get_usdc`) when not given. */
  usdc?: string
  vaultContract?: string
  minProfit: number
  slippageBps: number
  /** What MIN_PROFIT is asked of (default oracle; see core `bestPartialFill`). */
  profitBasis?: 'oracle' | 'executable'
  /** Comet weighted pools the atomic path may sell into. */
  cometPools?: readonly string[]
  primaryDexRouter?: string
  fallbackDexRouter?: string
  /** Full RPC client for ledger-entry and event reads (default: the chain's own server). */
  reader?: PoolReader
  emit?: AdapterContext['emit']
  /** getLatestLedger polling interval while waiting for the profitable ledger (ms). */
  pollMs?: number
  /** Give up waiting after this many ledgers past the planned one have not appeared (ms bound). */
  maxWaitMs?: number
  eventsPageLimit?: number
  /** Borrowers besides the main RPC's events (watch list, hints file, history node): borrowerSources.ts. */
  borrowerSources?: BorrowerSources
  /**
   * Local networks only: close ledgers at once until the latest is at least `toLedger` (e.g. with
   * the sandbox's closeLedgers) instead of waiting for them while an auction ramps up. Must be
   * idempotent: several keepers may ask for the same ledger.
   */
  fastForward?: (toLedger: number) => Promise<unknown>
  /** The atomic path: present when the keeper's executor contract is the registered keeper. */
  executor?: AtomicExecutor
  /** What fills bid for inclusion (the keeper's fee strategy); absent: the chain's defaults. */
  fillFee?: FillFee
  /** Parallel source accounts for transactions that need no draw (opening auctions). */
  lanes?: SubmissionLanes
  /** Called with the planned and the confirmed ledger of each fill (benchmarks, logs). */
  onFill?: (info: { user: string; plannedLedger: number; fillLedger: number; drew: bigint; proceeds: bigint; percent?: number }) => void
  /** Clock for valuations and swap deadlines (ms; default Date.now). */
  now?: () => number
  /**
   * What spreads this keeper's waits after failed fills apart from other keepers' (its address;
   * see failureBudget.ts). Absent: no spread.
   */
  failureSalt?: string
  /** Minutes between full reads of every borrower (the pool state's audit; 0: every scan). Default 10. */
  fullScanMinutes?: number
  /** Counts full reads, cache mismatches and positions read; logs each mismatch. */
  metrics?: AdapterMetrics
  logger?: Pick<AdapterContext['logger'], 'warn'> & Partial<Pick<AdapterContext['logger'], 'info'>>
  /**
   * The most a new two-step draw of this keeper may be (the registry's bond limit, `draw_limit`);
   * two-step fills are sized within it. Absent, or resolving undefined: no limit known.
   */
  drawLimit?: () => Promise<bigint | undefined>
  /**
   * The keeper's book of its own sales into the DEX, shared by the adapters of all its pools
   * (default: one of this adapter's own).
   */
  sales?: SaleReservations
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

export function readerOf(chain: Chain, explicit: PoolReader | undefined): PoolReader {
  if (explicit !== undefined) return explicit
  const s = chain.server as Partial<PoolReader>
  if (typeof s.getLedgerEntries === 'function' && typeof s.getEvents === 'function' && typeof s.getHealth === 'function') {
    return s as PoolReader
  }
  throw new Error('the chain client cannot read ledger entries and events; pass a full rpc.Server as `reader`')
}

/** What a plan carries: a user liquidation's valuation, or a prepared backstop auction. */
export type BlendPlanData = UserPlanData | { kind: 'bad_debt' | 'interest'; prepared: PreparedBackstop }

export interface LendingPoolAdapter extends StagedAdapter<BlendTaskData, BlendPlanData> {
  /** The last scan (for the dashboard and the benchmark). */
  lastScan(): ScanResult | undefined
  /** The scanner (borrower set, discovery state). */
  scanner: PoolScanner
  /**
   * Stale-draw recovery's first step: sells whatever the keeper holds of the pool's non-USDC
   * reserves (collateral seized before a crash) for USDC. Returns the assets it could not sell.
   */
  sellHeld(chain: Chain, keypair: Keypair): Promise<{ sold: string[]; held: string[] }>
}

export function lendingPoolAdapter(p: LendingPoolAdapterParameters): LendingPoolAdapter {
  const now = p.now ?? Date.now
  const pageLimit = p.eventsPageLimit === undefined ? {} : { eventsPageLimit: p.eventsPageLimit }
  const scanner = new PoolScanner(p.pool, {
    ...pageLimit,
    now,
    history: p.borrowerSources?.history,
    ...(p.fullScanMinutes === undefined ? {} : { fullReadEveryMs: p.fullScanMinutes * 60_000 }),
    onFullRead: (r) => {
      p.metrics?.poolFullRead(r.reason)
      if (r.mismatches.length > 0) p.metrics?.poolCacheMismatches(r.mismatches.length)
      for (const m of r.mismatches) {
        p.logger?.warn({ user: m.user, cached: positionsText(m.cached), read: positionsText(m.read) }, 'pool state: cached positions differed from the chain; replaced')
      }
    },
  })
  scanner.addBorrowers(p.borrowerSources?.initial ?? [])
  const minProfit = minProfitScaled(p.minProfit)
  let last: ScanResult | undefined
  let usdc = p.usdc

  async function usdcOf(chain: Chain): Promise<string> {
    if (usdc !== undefined) return usdc
    if (p.vaultContract === undefined) throw new Error('USDC unknown: set USDC_CONTRACT or the vault contract')
    usdc = scAddress(await simulateRead(chain, p.vaultContract, 'get_usdc'), 'get_usdc')
    return usdc
  }

  function venues(chain: Chain, keypair: Keypair): Venue[] {
    const out: Venue[] = []
    if (p.primaryDexRouter) out.push(routerVenue({ chain, keypair, router: p.primaryDexRouter, name: 'primary', now }))
    if (p.fallbackDexRouter) out.push(routerVenue({ chain, keypair, router: p.fallbackDexRouter, name: 'fallback', now }))
    return out
  }
  /** Opens a user-liquidation auction; 'open' when one is open afterwards (ours or another keeper's). */
  async function openUserAuction(chain: Chain, keypair: Keypair, user: string, percent: number, scan: ScanResult): Promise<'open' | string> {
    const b = scan.borrowers.find((x) => x.user === user)
    if (b === undefined) throw new ErrBadTask(`unknown borrower ${user}`)
    const list = scan.snapshot.reserveList
    const bid = [...b.positions.liabilities.keys()].map((i) => list[i]!)
    const lot = [...b.positions.collateral.keys()].map((i) => list[i]!)
    let pct = percent
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const args = [u32(AuctionType.UserLiquidation), addr(user), xdr.ScVal.scvVec(bid.map(addr)), xdr.ScVal.scvVec(lot.map(addr)), u32(pct)]
        // Anyone may open an auction: any free lane will do.
        if (p.lanes === undefined) await invoke(chain, keypair, p.pool, 'new_auction', args)
        else await p.lanes.run((lane) => invoke(chain, lane.source, p.pool, 'new_auction', args, lane.options))
        p.emit?.('auction', `created liquidation auction for ${user} at ${pct} %`)
        return 'open'
      } catch (err) {
        // Another keeper may have created it first (1212 in simulation, or a failed transaction
        // when both landed in one ledger): fill that one.
        if (err instanceof ContractError && err.code === PoolErrorCode.AuctionInProgress) return 'open'
        if ((await loadAuction(readerOf(chain, p.reader), p.pool, AuctionType.UserLiquidation, user)) !== undefined) return 'open'
        if (!(err instanceof ContractError)) throw err
        if (err.code === PoolErrorCode.InvalidLiquidation) return 'user is no longer liquidatable'
        // Interest moved the user between planning and creation: nudge the percent.
        if (err.code === PoolErrorCode.InvalidLiqTooLarge && pct > 1) pct -= 1
        else if (err.code === PoolErrorCode.InvalidLiqTooSmall && pct < 100) pct += 1
        else throw err
      }
    }
    return `no auction after 3 attempts (last percent ${pct})`
  }

  async function waitForLedger(reader: PoolReader, target: number): Promise<number> {
    const deadline = Date.now() + (p.maxWaitMs ?? 30 * 60_000)
    let latest = (await reader.getLatestLedger()).sequence
    // A local network can skip ahead to the ledger before the previous one; the last ledger is
    // always waited for in real time so the fill goes out right before the profitable one.
    if (p.fastForward !== undefined && latest < target - 2) {
      await p.fastForward(target - 2)
      latest = (await reader.getLatestLedger()).sequence
    }
    for (;;) {
      // The next transaction lands in latest + 1.
      if (latest + 1 >= target) return latest
      if (Date.now() > deadline) throw new Error(`ledger ${target} did not come in time (latest ${latest})`)
      await sleep(p.pollMs ?? 100)
      latest = (await reader.getLatestLedger()).sequence
    }
  }

  const latestLedgerOf = singleFlight((reader: PoolReader) => reader.getLatestLedger())
  const poolReads = ledgerMemo<{ fresh: Awaited<ReturnType<typeof loadPool>>; prices: Awaited<ReturnType<typeof loadOraclePrices>> }>()
  const ctx: BlendContext = {
    pool: p.pool,
    minProfit,
    slippageBps: p.slippageBps,
    emit: p.emit,
    onFill: p.onFill,
    executor: p.executor,
    ...(p.logger?.info === undefined ? {} : { logger: { info: p.logger.info.bind(p.logger) } }),
    ...(p.drawLimit === undefined ? {} : { drawLimit: p.drawLimit }),
    fillFee: p.fillFee,
    profitBasis: p.profitBasis ?? 'oracle',
    saleDepth: p.primaryDexRouter === undefined ? undefined : routerDepth(p.primaryDexRouter),
    saleRoutes:
      p.primaryDexRouter === undefined
        ? undefined
        : saleRoutes({ primaryRouter: p.primaryDexRouter, fallbackRouter: p.fallbackDexRouter, cometPools: p.cometPools }),
    failures: new FailureBudget(DEFAULT_FAILURE_BUDGET, p.failureSalt),
    sales: p.sales ?? new SaleReservations(),
    origins: new AuctionOrigins(),
    reader: (chain) => readerOf(chain, p.reader),
    scan: async (chain) => last ?? (last = await scanner.scan(readerOf(chain, p.reader), chain)),
    usdc: usdcOf,
    venues,
    loadAuction: (reader, type, user) => loadAuction(reader, p.pool, type, user),
    openUserAuction,
    async freshValuation(chain, scan) {
      const reader = readerOf(chain, p.reader)
      // Plans started together (a wave of new auctions) share one request for the latest ledger.
      const latest = await latestLedgerOf(reader)
      // One read of the pool and the prices per ledger, shared by every plan and fire valued in it.
      const { fresh, prices } = await poolReads(latest.sequence, scan.snapshot.reserveList.join(','), async () => {
        const [fresh, prices] = await Promise.all([
          loadPool(reader, p.pool, [], { reserveList: scan.snapshot.reserveList }),
          loadOraclePrices(chain, scan.snapshot.config.oracle, scan.snapshot.reserveList),
        ])
        return { fresh, prices }
      })
      // The pool accrues to the ledger's close time; a network that travelled in time is ahead.
      const at = BigInt(Math.max(Math.floor(now() / 1000), Number(latest.closeTime ?? 0)))
      const reserves = valuationReserves(fresh.reserves, fresh.config.bstop_rate, at)
      return { reserves, prices, latest }
    },
  }
  const users = userLiquidations(ctx)
  const backstop = backstopAuctions(ctx)

  async function plan(chain: Chain, keypair: Keypair, task: Task<BlendTaskData>) {
    if (typeof task.data?.user !== 'string') throw new ErrBadTask(JSON.stringify(task.label ?? null))
    if (task.data.kind === 'user_liquidation') return users.plan(chain, keypair, task)
    const prepare = task.data.kind === 'bad_debt' ? backstop.prepareBadDebt : task.data.kind === 'interest' ? backstop.prepareInterest : undefined
    if (prepare === undefined) throw new ErrBadTask(JSON.stringify(task.label ?? null))
    const prepared = await prepare(chain, keypair, task)
    if ('skip' in prepared) return prepared
    // A backstop fill draws two-step: within the registry's bond limit for this keeper, or not at all.
    const limit = await p.drawLimit?.()
    if (limit !== undefined && prepared.capital > limit) {
      return { skip: `needs a two-step draw of ${prepared.capital} USDC stroops, above the registry's bond limit for this keeper (draw_limit ${limit}): skipped; add bond to raise it` }
    }
    const out: ExecutionPlan<BlendPlanData> = {
      key: `${task.data.kind}:${task.data.user}`,
      targetLedger: prepared.targetLedger,
      expiresAtLedger: prepared.expiresAtLedger,
      capital: prepared.capital,
      priority: task.priority,
      label: task.label ?? task.data.kind,
      path: 'two-step',
      data: { kind: task.data.kind, prepared },
    }
    return out
  }

  async function fire(chain: Chain, keypair: Keypair, planned: ExecutionPlan<BlendPlanData>, fc: FireContext) {
    const data = planned.data
    if (data.kind === 'user_liquidation') return users.fire(chain, keypair, planned as ExecutionPlan<UserPlanData>, fc)
    return data.prepared.run(chain, keypair, fc)
  }

  /** One call without an engine: plan, wait (fast-forwarding a local network when allowed), fire. */
  async function execute(chain: Chain, keypair: Keypair, task: Task<BlendTaskData>, vault: VaultClient): Promise<Result> {
    const started = Date.now()
    const reader = readerOf(chain, p.reader)
    const planned = await plan(chain, keypair, task)
    if (isSkip(planned)) return makeResult({ drew: 0n, proceeds: 0n, responseTimeMs: Date.now() - started, success: false, note: planned.skip })
    const clock = new RpcLedgerClock(chain.server as unknown as LedgerSource)
    let current = planned
    for (;;) {
      // Due when the ledger before the draw's ledger has closed (see the engine's lead).
      await waitForLedger(reader, current.targetLedger - (current.path === 'two-step' ? 1 : 0))
      const fc: FireContext = {
        vault,
        step: async () => {},
        waitUntilSendable: async (ledger) => {
          await waitForLedger(reader, ledger)
        },
        responseTimeMs: async (fillLedger) => {
          if (fillLedger <= current.targetLedger) return 0
          const [a, b] = await Promise.all([clock.closeTimeOf(current.targetLedger), clock.closeTimeOf(fillLedger)])
          return a !== undefined && b !== undefined ? Math.max(0, b - a) : 0
        },
      }
      const out = await fire(chain, keypair, current, fc)
      if (!isReplan(out)) return out
      current = { ...current, targetLedger: out.replan }
    }
  }

  async function sellHeld(chain: Chain, keypair: Keypair): Promise<{ sold: string[]; held: string[] }> {
    const scan = await ctx.scan(chain)
    const usdc = await usdcOf(chain)
    const me = keypair.publicKey()
    const { reserves, prices } = await ctx.freshValuation(chain, scan)
    const seized = await Promise.all(
      scan.snapshot.reserveList.filter((a) => a !== usdc).map(async (asset) => ({ asset, amount: await tokenBalance(chain, asset, me) })),
    )
    const toSell = seized.filter((s) => s.amount > 0n)
    const held = await sellCollateral({ chain, keypair, venues: venues(chain, keypair), usdc, seized: toSell, reserves, prices: prices.prices, slippageBps: p.slippageBps, emit: p.emit })
    return { sold: toSell.map((s) => s.asset).filter((a) => !held.includes(a)), held }
  }

  return {
    name: () => 'blend',
    pool: () => p.pool,
    lastScan: () => last,
    scanner,
    async getTasks(chain: Chain): Promise<Task<BlendTaskData>[]> {
      const reader = readerOf(chain, p.reader)
      last = await scanner.scan(reader, chain)
      p.metrics?.poolPositionsRead(last.positionsRead)
      await p.borrowerSources?.record(last.discovered, last.repaid)
      p.emit?.('scan', `scanned ${last.borrowers.length} borrowers in ${Math.round(last.durationMs)} ms`)
      const tasks: Task<BlendTaskData>[] = []
      for (const b of last.borrowers) {
        if (!b.liquidatable && b.auction === undefined) continue
        const percent = b.auction === undefined ? chooseLiquidationPercent(last.valuation, b.positions) : undefined
        if (b.auction === undefined && percent === undefined) continue
        const share = BigInt(percent ?? 100)
        const estCapital = mulDiv(b.data.liabilityRaw, share, 100n, 'ceil')
        tasks.push({
          priority: taskPriority(b.healthFactor),
          health: b.healthFactor,
          estProfit: mulDiv(estCapital, minProfit - 10_000_000n, 10_000_000n, 'floor'),
          label: b.user,
          data: { kind: 'user_liquidation', user: b.user, percent, hasAuction: b.auction !== undefined, estCapital },
        })
      }
      // Bad debt on the backstop (or its auction already open): one task.
      const badDebtAuction = last.backstopAuctions.find((a) => a.type === AuctionType.BadDebt)
      const debt = [...last.backstopPositions.liabilities.values()].some((d) => d > 0n)
      if (badDebtAuction !== undefined || debt) {
        const estCapital = debt ? positionData(last.valuation, last.backstopPositions).liabilityRaw : 0n
        tasks.push({
          priority: 4,
          estProfit: mulDiv(estCapital, minProfit - 10_000_000n, 10_000_000n, 'floor'),
          label: `bad debt of ${last.snapshot.backstop}`,
          data: { kind: 'bad_debt', user: last.snapshot.backstop, percent: 100, hasAuction: badDebtAuction !== undefined, estCapital },
        })
      }
      // Backstop interest worth auctioning (the pool requires >= 200 USDC of value), or its auction.
      const interestAuction = last.backstopAuctions.find((a) => a.type === AuctionType.Interest)
      let interestValue = 0n
      for (const r of last.valuation.reserves.values()) {
        const price = last.valuation.prices.get(r.asset)?.price
        if (price !== undefined && r.data.backstop_credit > 0n) interestValue += mulDiv(price, r.data.backstop_credit, 10n ** BigInt(r.config.decimals), 'floor')
      }
      const minInterest = 200n * 10n ** BigInt(last.valuation.oracleDecimals)
      if (interestAuction !== undefined || interestValue >= minInterest) {
        tasks.push({
          priority: 1,
          estProfit: mulDiv(interestValue, minProfit - 10_000_000n, minProfit, 'floor'),
          label: `interest of ${last.snapshot.backstop}`,
          data: { kind: 'interest', user: last.snapshot.backstop, percent: 100, hasAuction: interestAuction !== undefined, estCapital: interestValue },
        })
      }
      return tasks
    },
    execute,
    taskKey: (task) => `${task.data.kind}:${task.data.user}`,
    plan,
    fire,
    progress: (planned, ledger) => (planned.data.kind === 'user_liquidation' ? users.progress(planned as ExecutionPlan<UserPlanData>, ledger) : undefined),
    // Backstop plans stand until due: their fire values them afresh.
    stale: (chain, planned) => (planned.data.kind === 'user_liquidation' ? users.stale(chain, planned as ExecutionPlan<UserPlanData>) : false),
    sellHeld,
    estimateCapital: (task) => task.data.estCapital,
    async getPositions(): Promise<Position[]> {
      return (last?.borrowers ?? []).map((b) => ({
        protocol: 'blend',
        pool: p.pool,
        user: b.user,
        healthFactor: Number.isFinite(b.healthFactor) ? b.healthFactor : null,
        collateralBase: b.data.collateralBase,
        liabilityBase: b.data.liabilityBase,
      }))
    },
  }
}
