/**
 * The end-of-run text table printed to the terminal: the headline figures, one line per
 * keeper, and the audit invariants that failed or warned. Plain text with aligned columns
 * (no colours), so it reads the same in a log file as on a screen.
 */
import { formatXlm } from './competitionFormat.js'
import { formatAmount, formatCount, formatLanes, formatLedger, formatPct, mark, shortAddress } from './format.js'
import { headlineFigures } from './headline.js'
import { liquidatableText, sourceLine } from './sourceSection.js'
import type { Report } from './types.js'

/** Column alignment for `textTable`. */
export type Align = 'left' | 'right'

/**
 * The summary: a title line (scenario, seed, ledgers), a line naming the snapshot or fork the
 * run started from (when it did), a `warning:` line per run warning (a run too short for its
 * auctions), the headline figures, one line per lending pool when the run had several (borrowers,
 * their debt at the start, auctions created / filled / expired / open, fills, missed borrowers,
 * bad debt, the USDC its fills bid and the profit they returned to the vault), the keepers
 * (path, MIN_PROFIT, fee strategy, wins, losses, missed, unprofitable, abandoned, win rate, XLM
 * fees in all and per win, inclusion delay p50/p95 in ledgers, its submission lanes with the
 * transactions each had applied and the TRY_AGAIN_LATER answers it got, own
 * profit, profit returned to the vault, fees the vault paid it, slashes, crashed), the keeper
 * strategies when more than one ran (keepers, auctions won, fills, profit, profit to the vault,
 * failed transactions, lost races, draws still out), the attacks
 * (attacker, kind, attempt, ledgers, the contract errors that refused it, gain, depositors' loss,
 * outcome) when there were any and, when the audit does not hold cleanly, its failing or warning
 * invariants. Ends with a newline.
 */
export function summaryTable(report: Report): string {
  const r = report.run
  const parts: string[] = []
  parts.push(
    `${report.scenario.name}  seed ${report.seed}  ledgers ${formatLedger(r.startLedger)}–${formatLedger(r.endLedger)} ` +
      `(${formatCount(r.ledgers)} simulated, ${formatCount(r.fastForwardedLedgers)} fast-forwarded)` +
      (report.source === undefined ? '' : `\nSource: ${sourceLine(report.source)}; ${liquidatableText(report.source)}`) +
      (report.summary.warnings ?? []).map((w) => `\nwarning: ${w}`).join(''),
  )

  const figures = headlineFigures(report)
  parts.push(
    textTable(
      ['Figure', 'Value'],
      figures.map((f) => [f.alert ? `${f.label} (!)` : f.label, f.value]),
      ['left', 'left'],
    ),
  )

  const pools = report.summary.pools ?? []
  if (pools.length > 1)
    parts.push(
      textTable(
        ['Pool', 'Borrowers', 'Borrowed at start', 'Auctions', 'Filled', 'Expired', 'Open', 'Fills', 'Missed', 'Bad debt', 'Bid paid (USDC)', 'To vault (USDC)'],
        pools.map((p, i) => [
          `${i + 1} ${shortAddress(p.pool)}`,
          formatCount(p.borrowers),
          formatAmount(p.borrowedStart),
          formatCount(p.auctions.created),
          formatCount(p.auctions.filled),
          formatCount(p.auctions.expired),
          formatCount(p.auctions.open),
          formatCount(p.fills),
          formatCount(p.missed),
          formatAmount(p.badDebt),
          formatAmount(p.bidPaid),
          formatAmount(p.vaultProfit),
        ]),
        ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
      ),
    )

  if (report.keepers.length > 0)
    parts.push(
      textTable(
        ['Keeper', 'Path', 'Min profit', 'Fee strategy', 'Wins', 'Fills', 'Losses', 'Missed', 'Unprofitable', 'Abandoned', 'Failed txs', 'Lost races', 'Win rate', 'Fees (XLM)', 'Fees/win', 'Delay p50/p95', 'Dropped', 'Bumps', 'Lanes: txs each', 'Try later', 'Profit (USDC)', 'To vault (USDC)', 'Rewards (USDC)', 'Slashed', 'Crashed'],
        report.keepers.map((k) => [
          k.name,
          k.path,
          formatAmount(k.minProfit),
          k.feeStrategy || '—',
          formatCount(k.wins),
          formatCount(k.fills),
          formatCount(k.losses),
          formatCount(k.missed),
          formatCount(k.unprofitable),
          formatCount(k.abandoned),
          formatCount(k.failedTransactions),
          formatCount(k.lostRaceTransactions),
          formatPct(k.winRate, 1),
          formatXlm(k.feesPaid),
          formatXlm(k.feesPerWin),
          `${formatCount(k.inclusionDelay.p50)}/${formatCount(k.inclusionDelay.p95)}`,
          formatCount(k.droppedTransactions),
          formatCount(k.feeBumps),
          formatLanes(k.lanes),
          formatCount(k.lanes?.tryAgainLater),
          formatAmount(k.profit),
          formatAmount(k.vaultProfit),
          formatAmount(k.rewards),
          formatCount(k.slashed),
          k.crashed ? 'yes' : 'no',
        ]),
        ['left', 'left', 'right', 'left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'left', 'right', 'right', 'right', 'right', 'right', 'left'],
      ),
    )

  const strategies = report.strategies ?? []
  if (strategies.length > 1)
    parts.push(
      textTable(
        ['Strategy', 'Keepers', 'Auctions won', 'Fills', 'Profit (USDC)', 'To vault (USDC)', 'Failed txs', 'Lost races', 'Drawn at end (USDC)'],
        strategies.map((s) => [
          s.strategy,
          s.keepers.join(', '),
          formatCount(s.wins),
          formatCount(s.fills),
          formatAmount(s.profit),
          formatAmount(s.vaultProfit),
          formatCount(s.failedTransactions),
          formatCount(s.lostRaceTransactions),
          formatAmount(s.drawnAtEnd),
        ]),
        ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
      ),
    )

  const attacks = report.attacks ?? []
  if (attacks.length > 0)
    parts.push(
      textTable(
        ['Attacker', 'Kind', 'Try', 'Ledgers', 'Refused by', 'Gain (USDC)', "Depositors' loss (USDC)", 'Outcome'],
        attacks.map((a) => [
          a.attacker,
          a.kind,
          formatCount(a.attempt),
          `${formatLedger(a.fromLedger)}–${a.toLedger === null ? 'end' : formatLedger(a.toLedger)}`,
          a.refusedBy.join(', ') || '—',
          formatAmount(a.gain),
          formatAmount(a.depositorLoss),
          a.outcome,
        ]),
        ['left', 'left', 'right', 'left', 'left', 'right', 'right', 'left'],
      ),
    )

  const notable = report.audit.invariants.filter((i) => !i.holds || i.warning)
  if (notable.length > 0)
    parts.push(
      textTable(
        ['Audit', 'Invariant', 'Detail'],
        notable.map((i) => [`${mark(i.holds)}${i.warning ? ' warn' : ''}`, `${i.id} ${i.name}`, i.detail]),
        ['left', 'left', 'left'],
      ),
    )

  return parts.join('\n\n') + '\n'
}

/**
 * Rows under a header and a dashed rule, columns separated by two spaces and padded to their
 * widest cell (measured in code points, so ✓, ✗, — and → count as one). Trailing spaces are
 * trimmed.
 */
export function textTable(header: string[], rows: string[][], align: Align[]): string {
  const width = header.map((h, c) => Math.max(length(h), ...rows.map((row) => length(row[c] ?? ''))))
  const line = (cells: string[]): string =>
    width
      .map((w, c) => {
        const cell = cells[c] ?? ''
        const pad = ' '.repeat(w - length(cell))
        return align[c] === 'right' ? pad + cell : cell + pad
      })
      .join('  ')
      .trimEnd()
  return [line(header), width.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n')
}

function length(text: string): number {
  return [...text].length
}
