import { freeAssets, lockedProfit, sharePrice } from '../../core/index.js'
import type { KeeperInfo, VaultState } from '../clients/index.js'
import { errorTag, type ExecutionView } from '../engine/index.js'
import type { ExecutionFee, Position } from '../sdk/index.js'
import type { DashboardState, LiquidationRecord } from '../state/dashboard.js'
import type { EventLog } from '../state/events.js'
import { poolFigures, poolsView } from '../state/pools.js'
import { shadowView } from '../state/shadow.js'
import { isStrategyEvent } from './access.js'

// JSON views of the dashboard state. Amounts are decimal strings of 7-decimal integers (i128
// does not fit a JSON number); times are ISO-8601 strings.

/**
 * The vault's books as last read, with the share price on the free assets (total_usdc less the
 * profit still locked, at `nowSeconds`, the request's time by default), as the contract prices
 * it.
 */
export function vaultView(v: VaultState | null, nowSeconds: bigint = BigInt(Math.floor(Date.now() / 1000))) {
  if (!v) return null
  let price: string | null = null
  let locked: bigint | null = null
  try {
    locked = lockedProfit(v, nowSeconds < v.lockStart ? v.lockStart : nowSeconds)
    price = sharePrice({ totalUsdc: freeAssets(v.totalUsdc, locked), totalShares: v.totalShares }).toString()
  } catch {
    price = null
  }
  return {
    totalUsdc: v.totalUsdc.toString(),
    totalShares: v.totalShares.toString(),
    totalProfit: v.totalProfit.toString(),
    activeLiq: v.activeLiq.toString(),
    sharePrice: price,
    lockedProfit: locked === null ? null : locked.toString(),
    lockEnd: new Date(Number(v.lockEnd) * 1000).toISOString(),
    pendingShares: v.pendingShares.toString(),
  }
}

export function keeperView(k: KeeperInfo) {
  return {
    operator: k.operator,
    name: k.name,
    stake: k.stake.toString(),
    totalExecutions: k.totalExecutions,
    successfulFills: k.successfulFills,
    totalProfit: k.totalProfit.toString(),
    avgResponseTimeMs: k.avgResponseTimeMs,
    hasActiveDraw: k.hasActiveDraw,
    drawAmount: k.drawAmount.toString(),
    drawTimestamp: k.drawTimestamp,
    registeredAt: k.registeredAt,
    slashed: k.slashed,
    slashCount: k.slashCount,
    totalSlashed: k.totalSlashed.toString(),
    approved: k.approved,
    drawLimit: k.drawLimit.toString(),
    limits: limitsInWords(k),
  }
}

/** A 7-decimal USDC amount as a person reads it ("1000", "900.5"). */
function usdc(units: bigint): string {
  const whole = units / 10_000_000n
  const frac = (units % 10_000_000n).toString().padStart(7, '0').replace(/0+$/, '')
  return frac === '' ? `${whole}` : `${whole}.${frac}`
}

/** What the vault lends this keeper, in one sentence (the rules in contracts/README.md). */
export function limitsInWords(k: Pick<KeeperInfo, 'stake' | 'drawLimit' | 'approved' | 'slashed'>): string {
  if (k.slashed) return 'slashed: the vault lends this keeper nothing any more'
  const twoStep = `two-step draws up to ${usdc(k.drawLimit)} USDC (what its ${usdc(k.stake)} USDC stake covers after the slash penalty)`
  const flash = k.approved
    ? 'flash draws (repaid in the same transaction) up to the vault\'s max_draw_per_keeper'
    : 'no flash draws (not an executor the registry deployed)'
  return `${twoStep}; ${flash}`
}

export function positionView(p: Position) {
  return {
    protocol: p.protocol,
    pool: p.pool ?? null,
    user: p.user,
    healthFactor: p.healthFactor,
    collateralBase: p.collateralBase?.toString() ?? null,
    liabilityBase: p.liabilityBase?.toString() ?? null,
  }
}

/** An error as JSON: `{ name, code?, message }` (`name` is the class, e.g. `ErrAlreadyFilled`), or null. */
export function errorView(err: Error | null | undefined) {
  return errorTag(err) ?? null
}

export function liquidationView(r: LiquidationRecord) {
  return {
    at: r.at,
    adapter: r.adapter,
    pool: r.pool ?? null,
    label: r.label,
    drew: r.drew.toString(),
    proceeds: r.proceeds.toString(),
    profit: r.profit.toString(),
    reward: r.reward.toString(),
    responseTimeMs: r.responseTimeMs,
    success: r.success,
    txHash: r.txHash ?? null,
    liquidation: r.liquidation,
    error: errorView(r.error),
  }
}

/** An execution's fill fee: the bid (stroops per operation), the fee charged (decimal string of stroops), the ledgers. */
export function feeView(f: ExecutionFee) {
  return {
    bidStroops: f.bidStroops,
    chargedStroops: f.chargedStroops?.toString() ?? null,
    bumped: f.bumped,
    sentLedger: f.sentLedger,
    includedLedger: f.includedLedger,
  }
}

export function executionView(e: ExecutionView) {
  return {
    key: e.key,
    adapter: e.adapter,
    pool: e.pool,
    label: e.label,
    stage: e.stage,
    path: e.path,
    plannedAt: e.plannedAt,
    targetLedger: e.targetLedger,
    expiresAtLedger: e.expiresAtLedger,
    capital: e.capital.toString(),
    priority: e.priority,
    history: e.history,
    progress:
      e.progress === null
        ? null
        : {
            ledger: e.progress.ledger,
            offset: e.progress.offset,
            ratio: e.progress.ratio?.toString() ?? null,
            minProfit: e.progress.minProfit.toString(),
            leftPercent: e.progress.leftPercent ?? null,
          },
    note: e.note,
    result:
      e.result === null
        ? null
        : {
            drew: e.result.drew.toString(),
            proceeds: e.result.proceeds.toString(),
            profit: e.result.profit.toString(),
            reward: (e.result.reward ?? 0n).toString(),
            responseTimeMs: e.result.responseTimeMs,
            success: e.result.success ?? true,
            lost: e.result.lost ?? false,
            error: errorView(e.result.error),
          },
    fee: e.result?.fee === undefined ? null : feeView(e.result.fee),
    error: errorView(e.error),
  }
}

/** The keeper's rewards since start: the fees the vault paid it (decimal string of 7 decimals) and how many. */
export function rewardsView(state: DashboardState) {
  return { totalUsdc: state.rewards.total.toString(), payments: state.rewards.payments }
}

/**
 * GET /api/state. Without `details` (a request without the API token) the strategy details are
 * left out: no `executions`, no `plan` or `progress` events; `strategyDetails` says which.
 */
export function stateView(state: DashboardState, events: EventLog, opts: { details: boolean } = { details: true }) {
  const view = {
    mode: state.mode,
    operator: state.operator,
    keeperName: state.keeperName,
    updatedAt: state.updatedAt,
    vault: vaultView(state.vault),
    keepers: state.keepers.map(keeperView),
    positions: state.positions.map(positionView),
    pools: poolsView(poolFigures(state.lendingPools, state.positions, state.executions, state.poolBooks), opts.details),
    registration: state.registration,
    operatorXlm: state.operatorXlm?.toString() ?? null,
    events: opts.details ? events.recent(50) : events.recent(200).filter((e) => !isStrategyEvent(e)).slice(-50),
    outstandingDraw: state.outstandingDraw.toString(),
    outstandingDrawLedgers: state.outstandingDrawLedgers,
    rewards: rewardsView(state),
    failedTransactions: {
      total: state.failedTransactions.total,
      byReason: { ...state.failedTransactions.byReason },
      feesXlm: state.failedTransactions.feesStroops.toString(),
    },
    recovery:
      state.recovery === null
        ? null
        : {
            at: state.recovery.at,
            draw: state.recovery.draw.toString(),
            returned: state.recovery.returned.toString(),
            shortfall: state.recovery.shortfall.toString(),
            held: state.recovery.held,
          },
    cycles: { ...state.cycles },
    shadow: shadowView(state.shadow, opts.details),
    strategyDetails: opts.details,
  }
  return opts.details ? { ...view, executions: state.executions.map(executionView) } : view
}

/**
 * Execution statistics: from the registry's on-chain record of this keeper when it is known
 * (survives restarts), else from this process's history.
 */
export function performanceView(state: DashboardState) {
  const local = state.history
  const localFills = local.filter((r) => r.success)
  const self = state.self
  const executions = self ? self.totalExecutions : local.length
  const fills = self ? self.successfulFills : localFills.length
  const avg = self
    ? self.avgResponseTimeMs
    : local.length === 0
      ? 0
      : Math.round(local.reduce((s, r) => s + r.responseTimeMs, 0) / local.length)
  const totalProfit = self ? self.totalProfit : localFills.reduce((s, r) => s + r.profit, 0n)
  return {
    vault: vaultView(state.vault),
    depositors: state.depositors.map((d) => ({
      address: d.address,
      balance: d.balance.toString(),
      shares: d.shares.toString(),
      costBasis: d.costBasis.toString(),
    })),
    keeper: self ? keeperView(self) : null,
    keepers: state.keepers.map(keeperView),
    liquidations: {
      source: self ? 'registry' : 'process',
      executions,
      fills,
      winRate: executions === 0 ? 0 : fills / executions,
      avgResponseTimeMs: avg,
      totalProfit: totalProfit.toString(),
      rewards: state.rewards.total.toString(),
      recent: local.slice(-50).map(liquidationView),
    },
  }
}
