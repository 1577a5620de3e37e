/**
 * report.json: what one run produced. Data first; report.html and timeseries.csv are drawn from
 * this alone. Deterministic: no wall-clock times, host names or paths that differ between
 * machines, and every figure (fees included) a function of the scenario, the seed and the commit,
 * so one scenario and seed give byte-identical files on any run (sim/README.md, Determinism).
 *
 * USD / USDC figures are numbers rounded to 7 decimals (the chain's precision); ledgers are
 * sequence numbers of the run's sandbox.
 */
import type { FeeSummary, KeeperFeeFigures } from '../record/fees.js'
import type { ReportSource } from '../record/source.js'
import type { KeeperStrategy } from '../scenario/schema.js'

export const REPORT_SCHEMA_VERSION = 1

export interface Report {
  schemaVersion: typeof REPORT_SCHEMA_VERSION
  scenario: {
    name: string
    description: string
    /** SHA-256 of the resolved scenario (defaults applied), hex. */
    hash: string
    /** The resolved scenario as the run used it. */
    resolved: unknown
  }
  seed: number
  versions: {
    /** package.json version of this repository. */
    harness: string
    stellarSdk: string
    /** The Soroban host the sandbox applies transactions with. */
    sorobanHost: string
    blend: string
    protocol: number
  }
  run: {
    ledgerSeconds: number
    /** Ledgers simulated (after the world was set up). */
    ledgers: number
    startLedger: number
    endLedger: number
    /** Ledgers closed without any keeper acting, because nothing could change a decision. */
    fastForwardedLedgers: number
  }
  summary: Summary
  keepers: KeeperResult[]
  /**
   * The keepers' results by what ran for them (the daemon, seed-rule, nectar: sim/README.md,
   * Strategy tournament), in that order, those present only. Absent in reports written before
   * keepers had strategies.
   */
  strategies?: StrategyResult[]
  auctions: AuctionResult[]
  replay: ReplayResult
  /** The invariant audit of the final chain state (src/audit). */
  audit: AuditResult
  series: Series
  /** Scenario events as they happened: flows, crashes, restarts, outages, slashes. */
  events: RunEvent[]
  /**
   * The hostile keepers' and depositors' attempts (scenario `keepers.individual[].hostile`,
   * `world.depositors.adversaries`), in the order they started; empty without any. Absent in
   * reports written before attacks were recorded.
   */
  attacks?: AttackResult[]
  /** A found world's origin (snapshot or fork) and the real pool's figures at the start. */
  source?: ReportSource
}

export interface Summary {
  /** Share price at the end / at the start − 1. */
  lpReturn: number
  /**
   * The core's APY rule (apyDisplay) on the share-price series; text as the dashboard shows it:
   * annualised over 7 days or more, the cumulative return (kind `cumulative`) under that.
   */
  lpApy: { kind: string; value: number | null; text: string }
  /**
   * `lpReturn` compounded to a year over the run's simulated time (ledgers × run.ledgerSeconds):
   * (1 + lpReturn)^(year / run time) − 1; null when it is no finite number. Absent in reports
   * written before it.
   */
  lpApyAnnualised?: number | null
  /**
   * What the figures leave unsaid, in words: auctions still ripening at the end (first
   * profitable after the last ledger: the run was too short). Empty when none; absent in reports
   * written before it.
   */
  warnings?: string[]
  sharePriceStart: number
  sharePriceEnd: number
  /** Vault profit booked during the run (USDC): the fills' gross profit less the keepers' fees, and slash penalties. */
  vaultProfit: number
  /**
   * Keeper fees the vault paid out of the fills' gross profit (USDC, Σ of the `flash` and
   * `return` events' `fee`). Absent in reports written before the vault paid keepers.
   */
  keeperRewards?: number
  /** Profit booked but not yet unlocked into the share price at the end (USDC, the vault's `get_locked_profit`). */
  lockedProfitEnd?: number
  /** The run's vault: the keepers' share of each fill's gross profit and the unlock period of booked profit. */
  vaultTerms?: { keeperFeeBps: number; profitUnlockSecs: number }
  /** The attacks in brief (see `Report.attacks`); null without any. */
  attacks?: AttackSummary | null
  auctions: { created: number; filled: number; expired: number; open: number }
  /** Fill transactions that landed (several per auction when it is filled in parts). */
  fills: number
  /** All keepers' failed transactions, lost races left out (see KeeperResult.failedTransactions). */
  failedTransactions: number
  /** All keepers' fill transactions that lost a race to another keeper's fill. */
  lostRaceTransactions: number
  /** The keepers' `sales` summed. Absent in reports written before fills recorded their sales. */
  sales?: SaleCounts
  /** Borrowers that were liquidatable at some ledger and never got an auction. */
  missed: number
  /** Fill ledger − first profitable ledger (at the population's lowest MIN_PROFIT). */
  fillDelay: { median: number | null; p95: number | null; max: number | null }
  /**
   * Fill ledger − first sellable ledger: the first ledger at which the filled percent's sale,
   * across the venues as they stood before the fill, cleared the floor and covered the bid
   * (reports before it: absent). Beside `fillDelay` it shows which rule bound: the oracle's
   * curve (the two agree) or the market's depth (this one smaller).
   */
  fillDelaySale?: { median: number | null; p95: number | null; max: number | null } | undefined
  /** Bad debt at the end: liabilities the backstop holds (USD at oracle prices). */
  badDebt: number
  /** Borrowers' liabilities when the run started (USD at oracle prices). */
  borrowedStart: number
  /**
   * Debt nobody's collateral covers at the end (USD): the backstop's liabilities (`badDebt`)
   * plus Σ over borrowers of max(0, liabilities − collateral) at oracle prices.
   */
  insolventDebt: number
  /** Σ lot value (USD at oracle prices, on the state the filler saw) of every fill of a user liquidation. */
  liquidatedCollateral: number
  slashes: number
  /** Σ over keepers. */
  keeperProfit: number
  /** Highest active_liq / total_usdc seen. */
  peakUtilisation: number
  replayMismatches: number
  auditHolds: boolean
  /** Fees and inclusion: what the keepers paid to be included and how long they waited. */
  fees: FeeSummary
  /**
   * The same figures per lending pool, in the world's order, when the world has more than one
   * (scenario `world.pools`); absent with one pool.
   */
  pools?: PoolSummary[]
}

/** One lending pool's figures in a multi-pool run (`Summary.pools`). */
export interface PoolSummary {
  /** The pool's contract id. */
  pool: string
  /** Borrowers the world opened in it. */
  borrowers: number
  auctions: { created: number; filled: number; expired: number; open: number }
  /** Fill transactions that landed on its auctions. */
  fills: number
  /** Its borrowers liquidatable at the end that never got an auction. */
  missed: number
  /** Bad debt its backstop holds at the end (USD at oracle prices). */
  badDebt: number
  /** Its borrowers' liabilities when the run started (USD at oracle prices). */
  borrowedStart: number
  /** Σ bid value of its fills (USD at oracle prices, on the state the filler saw): the USDC the fills paid. */
  bidPaid: number
  /** Σ lot value of its user liquidations' fills (USD at oracle prices). */
  liquidatedCollateral: number
  /** Σ profit its fills returned to the vault (USDC). */
  vaultProfit: number
}

export interface KeeperResult extends KeeperFeeFigures {
  index: number
  name: string
  /** The registered keeper address (its executor contract on the atomic path). */
  address: string
  operator: string
  /** What ran for it: the production daemon or a strategy agent; absent in older reports (the daemon). */
  strategy?: KeeperStrategy
  path: 'atomic' | 'two-step'
  minProfit: number
  pollIntervalLedgers: number
  /** Auctions this keeper filled. */
  wins: number
  /**
   * Auctions another keeper filled first: this keeper's fill transaction was applied after the
   * winning one (later in the same ledger or in a later one), or its fire found the auction
   * already taken; not counted when they were `unprofitable` for it. Per auction, across
   * restarts. A fill of its own that failed before the winner's landed is not a loss.
   */
  losses: number
  /**
   * Auctions that ended (filled by another keeper, or expired unfilled) while this keeper ran
   * during at least one of their ledgers, for which it sent no fill transaction, and which are
   * not among its losses or unprofitable ones.
   */
  missed: number
  /**
   * Auctions that ended without this keeper's fill where its engine's last answer by the end
   * ledger said they would not clear its MIN_PROFIT by then: planning found no profitable ledger,
   * or one after the fill (or expiry) ledger, or the re-check when firing found it no longer
   * profitable.
   */
  unprofitable: number
  /** Executions given up (capital, expiry, errors). */
  abandoned: number
  /** USDC the operator (and its executor) gained over the run, stake changes included. */
  profit: number
  /** Profit it returned to the vault (booked for the depositors, its fee left out). */
  vaultProfit: number
  /** Keeper fees the vault paid it (USDC): the `fee` of its `flash` and `return` events. */
  rewards?: number
  /** Share of all fills. */
  winRate: number
  crashed: boolean
  slashed: number
  /** XLM fees charged on every transaction it had applied during the run (failed ones included). */
  feesPaid: number
  /** Fills of any percent it landed (an auction can take several). */
  fills: number
  /**
   * Transactions it tried that failed, refused in simulation or failed on the ledger, for a
   * reason of its own (the sale's price, any other error: the keeper's
   * `service_failed_transactions_total` without `lost_race`). A keeper that re-sends a failing
   * fill shows here.
   */
  failedTransactions: number
  /**
   * Fill transactions that failed because another keeper's fill of the same auction ran first
   * in that ledger (`service_failed_transactions_total{reason="lost_race"}`): the price of
   * contending, not a fault.
   */
  lostRaceTransactions: number
  /** XLM the ledger charged for all its failed transactions, lost races included. */
  failedTransactionFees: number
  /** Its submission lanes at the end of the run; absent in older reports. */
  lanes?: KeeperLanes
  /**
   * The swaps its landed atomic fills sold their lots with, by route kind (the keeper's
   * `Result.sales`); zeros for a keeper whose fills record none (two-step, strategy agents).
   * Absent in older reports.
   */
  sales?: SaleCounts
}

/**
 * Swaps by the kind of route they took (`primary`, `fallback`: the routers' direct pairs; `via`:
 * the primary router through another reserve; `comet`: a Comet weighted pool), and `split`: fills
 * that sold a lot asset in two parts (each part also counted by its route).
 */
export interface SaleCounts {
  primary: number
  fallback: number
  via: number
  comet: number
  split: number
}

/** One strategy's keepers together (sums of their `keepers[]` figures). */
export interface StrategyResult {
  strategy: KeeperStrategy
  /** Its keepers' names, in index order. */
  keepers: string[]
  /** Auctions its keepers made the first fill of. */
  wins: number
  /** Fills of any percent its keepers landed. */
  fills: number
  /** What its keepers gained (USDC, their `profit`). */
  profit: number
  /** Profit its keepers' fills booked for the depositors (USDC, their `vaultProfit`). */
  vaultProfit: number
  /** Its keepers' failed transactions, lost races left out. */
  failedTransactions: number
  /** Its keepers' fill transactions that lost a race to another keeper's fill. */
  lostRaceTransactions: number
  /**
   * USDC its keepers still owed the vault at the end: two-step draws not returned (a sale that
   * never cleared its floor keeps the collateral and the draw). `profit` counts the USDC a keeper
   * holds, so a draw still out shows there as what it did not spend on the bid.
   */
  drawnAtEnd: number
}

/**
 * A keeper's submission lanes: the operator (lane 0) and its channel accounts (CHANNEL_ACCOUNTS)
 * once they were set up, and what each carried during the run (set-up transactions not counted).
 */
export interface KeeperLanes {
  /** Lanes it sent from: 1 when it had only its operator. */
  count: number
  /** Each lane's source account, the operator first. */
  accounts: string[]
  /** Transactions the network accepted from each lane (PENDING answers), in `accounts` order. */
  sent: number[]
  /** Transactions a close applied from each lane, in `accounts` order. */
  applied: number[]
  /** Sends the network answered TRY_AGAIN_LATER (its source account already had one queued). */
  tryAgainLater: number
}

export interface AuctionResult {
  /** user:kind:startLedger (pool:user:kind:startLedger in a multi-pool run) */
  id: string
  user: string
  /** The lending pool, in a multi-pool run only (absent with one pool). */
  pool?: string
  kind: 'liquidation' | 'bad-debt' | 'interest'
  createdLedger: number
  /** First ledger profitable at the population's lowest MIN_PROFIT (core firstProfitableBlock). */
  firstProfitableLedger: number | null
  filledLedger: number | null
  filledBy: string | null
  fillDelay: number | null
  /** First ledger the first fill's sale cleared the floor on the venues as they stood (null: not known). */
  firstSellableLedger?: number | null | undefined
  /** Fill ledger − first sellable ledger. */
  fillDelaySale?: number | null | undefined
  /** Seeded submission latency (ms) of the winning fill transaction, as drawn when it was sent. */
  fillLatencyMs: number | null
  /** XLM fee charged on the winning fill transaction. */
  fillFee: number | null
  /**
   * USDC profit the fill returned to the vault: the vault's return event in the fill's
   * transaction (atomic path) or the filler's return closing the draw that funded it (two-step);
   * 0 when there is none.
   */
  fillProfit: number | null
  /** Keepers that sent a fill transaction for it (winner included), in the order they were applied. */
  contenders: string[]
  /** Lot and bid of the fill at oracle prices (USD). */
  lotValue: number | null
  bidValue: number | null
  /**
   * 'filled' once fills took all of it; 'expired' when some of it was still there 500 blocks
   * after it started (the pool lets anyone delete it then); 'open' otherwise.
   */
  outcome: 'filled' | 'expired' | 'open'
  /**
   * Every fill of it, in chain order. A fill takes a percent of what is left; under 100 % the
   * rest stays open on the same curve. `filledLedger`, `filledBy`, `fillDelay` and the other
   * `fill*` fields describe the first fill.
   */
  fills: AuctionFillResult[]
  /** Percent of the auction as created that no fill took by the end (0 when fully filled). */
  remainingPercent: number
}

export interface AuctionFillResult {
  ledger: number
  /** Percent of what was left of the auction that this fill took (the fill request's amount). */
  percent: number
  /** Keeper name, or the filler's address when it is no keeper of the run. */
  filledBy: string
  /** USDC profit the fill returned to the vault (0 when there is none). */
  profit: number
  /** Lot and bid of this fill at oracle prices on the state the filler saw (USD). */
  lotValue: number | null
  bidValue: number | null
  txHash: string
}

export interface ReplayCheck {
  kind: 'fill-ledger' | 'fill-amounts' | 'share-math' | 'health-factor'
  checked: number
  mismatches: number
}

export interface ReplayResult {
  checks: ReplayCheck[]
  /** The first 50 mismatches with what was predicted and what the chain did. */
  mismatches: { kind: ReplayCheck['kind']; ledger: number; detail: string }[]
}

export interface AuditResult {
  holds: boolean
  invariants: { id: number; name: string; holds: boolean; warning: boolean; detail: string }[]
}

/**
 * Column-oriented per-ledger series (one point every `recordEvery` ledgers, plus every ledger
 * with a liquidation). `market.<CODE>`, `oracle.<CODE>` and `dex.<CODE>` per collateral asset.
 */
export interface Series {
  assets: string[]
  ledger: number[]
  /** Seconds since the run started. */
  time: number[]
  sharePrice: number[]
  totalUsdc: number[]
  activeLiq: number[]
  totalProfit: number[]
  /** Booked profit still locked (not yet in the share price), USDC. Absent in reports written before the vault locked profit. */
  lockedProfit?: number[]
  badDebt: number[]
  openAuctions: number[]
  /** Per asset code. */
  market: Record<string, number[]>
  oracle: Record<string, number[]>
  dex: Record<string, (number | null)[]>
}

export interface RunEvent {
  ledger: number
  kind: 'deposit' | 'withdraw' | 'crash' | 'restart' | 'outage' | 'recovery' | 'slash' | 'auction' | 'fill' | 'oracle'
  text: string
}

/** What a hostile agent tries (sim/README.md, Adversaries). */
export type AttackKind = 'draw-and-run' | 'par-returns' | 'skim' | 'exit-ahead' | 'jit-deposit'

/** One transaction an attack tried: applied, refused by the contract in simulation, or failed on the ledger. */
export interface AttackStep {
  /** The ledger it was sent in (refused: the ledger being built when it was tried). */
  ledger: number
  /** What it was, in words: `draw 1000000 USDC`, `flash_draw to the executor, fill without a sale`. */
  action: string
  result: 'applied' | 'refused' | 'failed'
  /** The contract error that refused it: its number and name (`216 BondTooSmall`). */
  error?: { code: number; name: string }
  /** What went wrong when it was no contract's refusal (a host trap, the network). */
  detail?: string
  /** USDC it moved, when it moved any (the draw, the deposit, the withdrawal). */
  amount?: number
}

export interface AttackResult {
  /** `keeper-3` (a hostile keeper) or `depositor-1` / `jit-1` (a depositor-side adversary). */
  attacker: string
  kind: AttackKind
  /** 1-based, per attacker. */
  attempt: number
  /** What it was trying, in words. */
  description: string
  /** The account that sent it (the operator or depositor). */
  account: string
  /** The ledgers it ran over: its first step to its last (or the event that ended it); null while still open at the end. */
  fromLedger: number
  toLedger: number | null
  /** Every transaction it tried, in order. */
  steps: AttackStep[]
  /** The contract errors that refused its steps (`216 BondTooSmall`), in order; empty when none was refused. */
  refusedBy: string[]
  /**
   * USDC it gained: what it held at the end of the attempt (balances, bond and stake, shares at
   * the vault's books) less what it held at the start, and for a depositor less what it would
   * have held by doing nothing. XLM fees are left out. <= 0: the attack did not pay.
   */
  gain: number
  /**
   * USDC the depositors who took no part lost: their value on the vault's books at the end of
   * the attempt against the books without the attacker's dealings with the vault. <= 0: they
   * lost nothing (negative: they gained, e.g. a slash penalty).
   */
  depositorLoss: number
  /** How it ended, in words (what refused it, who slashed it, whether the victim got out). */
  outcome: string
}

/** The attacks of a run in brief. */
export interface AttackSummary {
  attempts: number
  /** Attempts with at least one step refused by a contract. */
  refused: number
  /** The largest gain of any attempt (USDC). */
  maxGain: number
  /** The largest depositors' loss of any attempt (USDC). */
  maxDepositorLoss: number
}
