/**
 * The tables of report.html, rendered to static markup on the Node side: they read without
 * the page's script and their text is escaped here, once. Charts are drawn in the browser from
 * the embedded data (see pageScript.ts).
 */
import { formatAmount, formatCount, formatLanes, formatLedger, formatPct, formatSales, mark, MISSING, shortAddress } from './format.js'
import { formatMs, formatXlm } from './competitionFormat.js'
import { headlineFigures } from './headline.js'
import type { AuctionResult, Report } from './types.js'

/** Markup that is inserted as is (already escaped). */
export interface Html {
  html: string
}

export interface Column<T> {
  head: string
  /** Cell text (escaped when inserted) or markup. */
  cell: (row: T) => string | Html
  /** Right-aligned, tabular figures. */
  num?: boolean
}

/** `&`, `<`, `>`, `"` and `'` as character references, for text and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** A table of `rows`, or `empty` as a note when there are none. */
export function htmlTable<T>(rows: readonly T[], columns: readonly Column<T>[], empty: string, rowClass?: (row: T) => string): string {
  if (rows.length === 0) return `<p class="note">${escapeHtml(empty)}</p>`
  const head = columns.map((c) => `<th${c.num ? ' class="num"' : ''}>${escapeHtml(c.head)}</th>`).join('')
  const body = rows
    .map((row) => {
      const cls = rowClass?.(row) ?? ''
      const cells = columns.map((c) => `<td${c.num ? ' class="num"' : ''}>${render(c.cell(row))}</td>`).join('')
      return `<tr${cls ? ` class="${escapeHtml(cls)}"` : ''}>${cells}</tr>`
    })
    .join('\n')
  return `<table>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`
}

/** The headline figures (headline.ts) as a two-column table; problem figures are flagged. */
export function headlineTable(report: Report): string {
  return htmlTable(
    headlineFigures(report),
    [
      { head: 'Figure', cell: (f) => f.label },
      { head: 'Value', cell: (f) => f.value, num: true },
    ],
    'No figures.',
    (f) => (f.alert ? 'alert' : ''),
  )
}

/**
 * Per lending pool of a multi-pool run (`summary.pools`): borrowers and their debt at the start,
 * auctions, fills, missed borrowers, bad debt, what the fills bid and returned to the vault.
 * Pools with bad debt or missed borrowers are flagged.
 */
export function poolsTable(report: Report): string {
  return htmlTable(
    report.summary.pools ?? [],
    [
      { head: 'Pool', cell: (p) => abbreviated(p.pool) },
      { head: 'Borrowers', cell: (p) => formatCount(p.borrowers), num: true },
      { head: 'Borrowed at start (USD)', cell: (p) => formatAmount(p.borrowedStart), num: true },
      { head: 'Auctions', cell: (p) => formatCount(p.auctions.created), num: true },
      { head: 'Filled', cell: (p) => formatCount(p.auctions.filled), num: true },
      { head: 'Expired', cell: (p) => formatCount(p.auctions.expired), num: true },
      { head: 'Open', cell: (p) => formatCount(p.auctions.open), num: true },
      { head: 'Fills', cell: (p) => formatCount(p.fills), num: true },
      { head: 'Missed', cell: (p) => formatCount(p.missed), num: true },
      { head: 'Bad debt (USD)', cell: (p) => formatAmount(p.badDebt), num: true },
      { head: 'Bid paid (USDC)', cell: (p) => formatAmount(p.bidPaid), num: true },
      { head: 'To vault (USDC)', cell: (p) => formatAmount(p.vaultProfit), num: true },
    ],
    'One pool.',
    (p) => (p.badDebt > 0 || p.missed > 0 ? 'alert' : ''),
  )
}

/** Slashes and the scenario's events, in ledger order as recorded; slash rows are flagged. */
export function eventsTable(report: Report): string {
  return htmlTable(
    report.events,
    [
      { head: 'Ledger', cell: (e) => formatLedger(e.ledger), num: true },
      { head: 'Kind', cell: (e) => e.kind },
      { head: 'Event', cell: (e) => e.text },
    ],
    'No scenario events.',
    (e) => (e.kind === 'slash' ? 'alert' : ''),
  )
}

/** Each fill of an auction as `percent % @ledger keeper (+profit)`, comma-separated; a dash when none. */
function fillsHtml(report: Report, a: AuctionResult): string | Html {
  const fills = a.fills ?? []
  if (fills.length === 0) return MISSING
  return {
    html: fills
      .map((f) => `${f.percent} % @${escapeHtml(formatLedger(f.ledger))} ${keeperLabel(report, f.filledBy).html} (+${escapeHtml(formatAmount(f.profit))})`)
      .join(', '),
  }
}

/**
 * One row per auction: ledgers, who filled it first, the delay after the first profitable
 * ledger, lot and bid of that fill, every fill (percent of what was left, ledger, keeper) and
 * the percent of the auction no fill took.
 */
export function auctionsTable(report: Report): string {
  return htmlTable<AuctionResult>(
    report.auctions,
    [
      { head: 'Auction', cell: (a) => a.id },
      { head: 'Kind', cell: (a) => a.kind },
      { head: 'User', cell: (a) => abbreviated(a.user) },
      { head: 'Created', cell: (a) => formatLedger(a.createdLedger), num: true },
      { head: 'First profitable', cell: (a) => formatLedger(a.firstProfitableLedger), num: true },
      { head: 'Filled', cell: (a) => formatLedger(a.filledLedger), num: true },
      { head: 'Filled by', cell: (a) => (a.filledBy === null ? MISSING : keeperLabel(report, a.filledBy)) },
      { head: 'Delay (ledgers)', cell: (a) => formatCount(a.fillDelay), num: true },
      { head: 'First sellable', cell: (a) => formatLedger(a.firstSellableLedger ?? null), num: true },
      { head: 'Delay after sellable', cell: (a) => formatCount(a.fillDelaySale ?? null), num: true },
      { head: 'Lot (USD)', cell: (a) => formatAmount(a.lotValue), num: true },
      { head: 'Bid (USD)', cell: (a) => formatAmount(a.bidValue), num: true },
      { head: 'Fills', cell: (a) => fillsHtml(report, a) },
      { head: 'Left', cell: (a) => (a.remainingPercent === undefined ? MISSING : `${a.remainingPercent} %`), num: true },
      { head: 'Outcome', cell: (a) => a.outcome },
    ],
    'No auctions were created.',
    (a) => (a.outcome === 'expired' ? 'alert' : ''),
  )
}

/**
 * Keeper competition, one row per auction: who won and in which ledger, the delay after the first
 * ledger profitable at the population's lowest MIN_PROFIT, the winning transaction's seeded
 * latency and fee, the profit the fill returned to the vault, and every keeper that sent a fill
 * for it in the order they were applied (the winner in bold).
 */
export function competitionTable(report: Report): string {
  return htmlTable<AuctionResult>(
    report.auctions,
    [
      { head: 'Auction', cell: (a) => a.id },
      { head: 'Winner', cell: (a) => (a.filledBy === null ? MISSING : keeperLabel(report, a.filledBy)) },
      { head: 'Ledger', cell: (a) => formatLedger(a.filledLedger), num: true },
      { head: 'Delay (ledgers)', cell: (a) => formatCount(a.fillDelay), num: true },
      { head: 'Latency', cell: (a) => formatMs(a.fillLatencyMs), num: true },
      { head: 'Fee (XLM)', cell: (a) => formatXlm(a.fillFee), num: true },
      { head: 'Profit to vault (USDC)', cell: (a) => formatAmount(a.fillProfit), num: true },
      { head: 'Contenders', cell: (a) => contendersHtml(report, a) },
    ],
    'No auctions were created.',
    (a) => (a.outcome === 'expired' ? 'alert' : ''),
  )
}

/** Contender names in arrival order, comma-separated, the winner in bold; a dash when none sent a fill. */
function contendersHtml(report: Report, a: AuctionResult): string | Html {
  if (a.contenders.length === 0) return MISSING
  const winner = a.filledBy === null ? undefined : report.keepers.find((k) => k.address === a.filledBy || k.operator === a.filledBy || k.name === a.filledBy)?.name
  return { html: a.contenders.map((c) => (c === winner ? `<b>${escapeHtml(c)}</b>` : escapeHtml(c))).join(', ') }
}

/** One row per keeper: settings, wins / losses / missed / unprofitable / abandoned, failed transactions, lost races, its fills' swaps by route kind, win rate, fees (in all, per win), inclusion delay, lanes (transactions each, TRY_AGAIN_LATER answers), profit, profit to the vault, the fees the vault paid it, slashes, crashes. */
export function keepersTable(report: Report): string {
  return htmlTable(
    report.keepers,
    [
      { head: '#', cell: (k) => String(k.index), num: true },
      { head: 'Keeper', cell: (k) => k.name },
      { head: 'Address', cell: (k) => abbreviated(k.address) },
      { head: 'Operator', cell: (k) => abbreviated(k.operator) },
      { head: 'Path', cell: (k) => k.path },
      { head: 'Min profit', cell: (k) => formatAmount(k.minProfit), num: true },
      { head: 'Poll (ledgers)', cell: (k) => formatCount(k.pollIntervalLedgers), num: true },
      { head: 'Fee strategy', cell: (k) => k.feeStrategy || MISSING },
      { head: 'Wins', cell: (k) => formatCount(k.wins), num: true },
      { head: 'Fills', cell: (k) => formatCount(k.fills), num: true },
      { head: 'Losses', cell: (k) => formatCount(k.losses), num: true },
      { head: 'Missed', cell: (k) => formatCount(k.missed), num: true },
      { head: 'Unprofitable', cell: (k) => formatCount(k.unprofitable), num: true },
      { head: 'Abandoned', cell: (k) => formatCount(k.abandoned), num: true },
      { head: 'Failed txs', cell: (k) => formatCount(k.failedTransactions), num: true },
      { head: 'Lost races', cell: (k) => formatCount(k.lostRaceTransactions), num: true },
      { head: 'Sales by route (swaps)', cell: (k) => formatSales(k.sales) },
      { head: 'Win rate', cell: (k) => formatPct(k.winRate, 1), num: true },
      { head: 'Fees (XLM)', cell: (k) => formatXlm(k.feesPaid), num: true },
      { head: 'Fees per win (XLM)', cell: (k) => formatXlm(k.feesPerWin), num: true },
      { head: 'Inclusion delay p50 / p95 (ledgers)', cell: (k) => `${formatCount(k.inclusionDelay.p50)} / ${formatCount(k.inclusionDelay.p95)}`, num: true },
      { head: 'Dropped txs', cell: (k) => formatCount(k.droppedTransactions), num: true },
      { head: 'Fee bumps', cell: (k) => formatCount(k.feeBumps), num: true },
      { head: 'Lanes: txs each', cell: (k) => formatLanes(k.lanes) },
      { head: 'Try again later', cell: (k) => formatCount(k.lanes?.tryAgainLater), num: true },
      { head: 'Profit (USDC)', cell: (k) => formatAmount(k.profit), num: true },
      { head: 'To vault (USDC)', cell: (k) => formatAmount(k.vaultProfit), num: true },
      { head: 'Rewards (USDC)', cell: (k) => formatAmount(k.rewards), num: true },
      { head: 'Slashed', cell: (k) => formatCount(k.slashed), num: true },
      { head: 'Crashed', cell: (k) => (k.crashed ? 'yes' : 'no') },
    ],
    'No keepers.',
    (k) => (k.slashed > 0 ? 'alert' : ''),
  )
}

/**
 * One row per keeper strategy (report.json `strategies`): its keepers, the auctions they won
 * (first fill), their fills, what they gained, the profit their fills booked for the vault, their
 * failed transactions and lost races, the draws they still held at the end (flagged, as is a
 * loss). Empty (a note) in reports written before strategies.
 */
export function strategiesTable(report: Report): string {
  return htmlTable(
    report.strategies ?? [],
    [
      { head: 'Strategy', cell: (s) => s.strategy },
      { head: 'Keepers', cell: (s) => s.keepers.join(', ') },
      { head: 'Auctions won', cell: (s) => formatCount(s.wins), num: true },
      { head: 'Fills', cell: (s) => formatCount(s.fills), num: true },
      { head: 'Profit (USDC)', cell: (s) => formatAmount(s.profit), num: true },
      { head: 'To vault (USDC)', cell: (s) => formatAmount(s.vaultProfit), num: true },
      { head: 'Failed txs', cell: (s) => formatCount(s.failedTransactions), num: true },
      { head: 'Lost races', cell: (s) => formatCount(s.lostRaceTransactions), num: true },
      { head: 'Drawn at end (USDC)', cell: (s) => formatAmount(s.drawnAtEnd), num: true },
    ],
    'No keeper strategies recorded.',
    (s) => (s.profit < 0 || s.drawnAtEnd > 0 ? 'alert' : ''),
  )
}

/**
 * The attacks: one row per attempt (attacker, kind, attempt, ledgers, what it tried, the contract
 * errors that refused it, gain, depositors' loss, outcome; a gain or loss above zero flagged),
 * then every step each attempt sent.
 */
export function attacksSection(report: Report): string {
  const attacks = report.attacks ?? []
  const table = htmlTable(
    attacks,
    [
      { head: 'Attacker', cell: (a) => a.attacker },
      { head: 'Kind', cell: (a) => a.kind },
      { head: 'Try', cell: (a) => formatCount(a.attempt), num: true },
      { head: 'Ledgers', cell: (a) => `${formatLedger(a.fromLedger)}–${a.toLedger === null ? 'end' : formatLedger(a.toLedger)}`, num: true },
      { head: 'Tried', cell: (a) => a.description },
      { head: 'Refused by', cell: (a) => a.refusedBy.join(', ') || MISSING },
      { head: 'Gain (USDC)', cell: (a) => formatAmount(a.gain), num: true },
      { head: "Depositors' loss (USDC)", cell: (a) => formatAmount(a.depositorLoss), num: true },
      { head: 'Outcome', cell: (a) => a.outcome },
    ],
    'No attacks.',
    (a) => (a.gain > 0 || a.depositorLoss > 0 ? 'alert' : ''),
  )
  const steps = attacks.flatMap((a) => a.steps.map((s) => ({ a, s })))
  const stepTable = htmlTable(
    steps,
    [
      { head: 'Attacker', cell: ({ a }) => `${a.attacker} #${a.attempt}` },
      { head: 'Ledger', cell: ({ s }) => formatLedger(s.ledger), num: true },
      { head: 'Step', cell: ({ s }) => s.action },
      { head: 'Result', cell: ({ s }) => s.result },
      { head: 'Error', cell: ({ s }) => (s.error === undefined ? (s.detail ?? MISSING) : `${s.error.code} ${s.error.name}`) },
    ],
    'No steps.',
    ({ s }) => (s.result === 'applied' ? '' : 'warn'),
  )
  return `${table}
<h3>Steps</h3>
${stepTable}`
}

/** The core replay checks (kind, checked, mismatches) and the recorded mismatches. */
export function replaySection(report: Report): string {
  const checks = htmlTable(
    report.replay.checks,
    [
      { head: 'Check', cell: (c) => c.kind },
      { head: 'Checked', cell: (c) => formatCount(c.checked), num: true },
      { head: 'Mismatches', cell: (c) => formatCount(c.mismatches), num: true },
      { head: '', cell: (c) => markHtml(c.mismatches === 0) },
    ],
    'No replay checks were run.',
    (c) => (c.mismatches > 0 ? 'alert' : ''),
  )
  const total = report.replay.checks.reduce((sum, c) => sum + c.mismatches, 0)
  const listed = report.replay.mismatches.length
  const heading =
    total > listed ? `<h3>Mismatches (the first ${listed} of ${total})</h3>` : `<h3>Mismatches</h3>`
  const mismatches = htmlTable(
    report.replay.mismatches,
    [
      { head: 'Check', cell: (m) => m.kind },
      { head: 'Ledger', cell: (m) => formatLedger(m.ledger), num: true },
      { head: 'Predicted vs chain', cell: (m) => m.detail },
    ],
    'No mismatches: the core predicted every checked fill, share and health factor.',
  )
  return `${checks}\n${heading}\n${mismatches}`
}

/** The invariant audit: ✓/✗ per invariant, warnings, and the detail text. */
export function auditTable(report: Report): string {
  const overall = `<p>${render(markHtml(report.audit.holds))} ${report.audit.holds ? 'The audit holds.' : 'The audit does not hold.'}</p>`
  const table = htmlTable(
    report.audit.invariants,
    [
      { head: '#', cell: (i) => String(i.id), num: true },
      { head: 'Invariant', cell: (i) => i.name },
      { head: 'Holds', cell: (i) => markHtml(i.holds) },
      { head: 'Warning', cell: (i) => (i.warning ? 'warning' : '') },
      { head: 'Detail', cell: (i) => i.detail },
    ],
    'No invariants were audited.',
    (i) => (!i.holds ? 'alert' : i.warning ? 'warn' : ''),
  )
  return `${overall}\n${table}`
}

/** A keeper's name when the address (or operator, or name) is one of the run's keepers, else the address shortened. */
export function keeperLabel(report: Report, who: string): Html {
  const k = report.keepers.find((k) => k.address === who || k.operator === who || k.name === who)
  return k === undefined ? abbreviated(who) : { html: `<span title="${escapeHtml(who)}">${escapeHtml(k.name)}</span>` }
}

function abbreviated(address: string): Html {
  const short = shortAddress(address)
  return short === address ? { html: escapeHtml(address) } : { html: `<span title="${escapeHtml(address)}">${escapeHtml(short)}</span>` }
}

function markHtml(ok: boolean): Html {
  return { html: `<span class="${ok ? 'ok' : 'bad'}">${mark(ok)}</span>` }
}

function render(cell: string | Html): string {
  return typeof cell === 'string' ? escapeHtml(cell) : cell.html
}
