/**
 * Where a found world's run started (report.json `source`, sim/src/record/source.ts): the line
 * naming the snapshot or the fork (shared by report.html and the terminal summary) and
 * report.html's "Source" section — the pool's contracts, the oracle taken over, where the
 * borrowers came from, and the real pool's reserves and borrowers at the start.
 */
import type { ReportSource } from '../record/source.js'
import { formatAmount, formatCount, formatPct, formatPrice, MISSING, shortAddress } from './format.js'
import { escapeHtml, htmlTable, type Html } from './htmlTables.js'
import type { Report } from './types.js'

/** Borrowers listed in report.html's Source section, lowest health factor first. */
export const SOURCE_BORROWERS_SHOWN = 50

/** Hex digits of a SHA-256 or wasm hash shown before the ellipsis. */
const HASH_DIGITS = 12

/**
 * One line naming the start: `Snapshot upstream.json (sha256 ab12cd34ef56…, ledger 72)` or
 * `Fork of https://rpc.example at ledger 55,261,759`.
 */
export function sourceLine(source: Pick<ReportSource, 'kind' | 'file' | 'sha256' | 'url' | 'ledger'>): string {
  const ledger = formatCount(source.ledger)
  if (source.kind === 'fork') return `Fork of ${source.url ?? 'an upstream RPC'} at ledger ${ledger}`
  const hash = source.sha256 === undefined ? '' : `sha256 ${shortHash(source.sha256)}, `
  return `Snapshot ${source.file ?? 'file'} (${hash}ledger ${ledger})`
}

/** `events 8, hints 2`: how many borrowers each source named, in the report's order. */
export function borrowerSourcesText(sources: Record<string, number>): string {
  const parts = Object.entries(sources).map(([name, count]) => `${name} ${formatCount(count)}`)
  return parts.length > 0 ? parts.join(', ') : 'none'
}

/** `2 of 11 borrowers liquidatable at the start (health factor under 1)`. */
export function liquidatableText(source: ReportSource): string {
  const n = source.start.borrowers.length
  return `${formatCount(source.start.liquidatable)} of ${formatCount(n)} borrower${n === 1 ? '' : 's'} liquidatable at the start (health factor under 1)`
}

/** report.html's Source section, or '' when the run did not start from a snapshot or a fork. */
export function sourceSection(report: Report): string {
  const s = report.source
  if (s === undefined) return ''
  const rows: [string, string | Html][] = [
    ...(s.kind === 'snapshot' && s.sha256 !== undefined ? [['Snapshot SHA-256', s.sha256] as [string, string]] : []),
    ['Network', s.networkPassphrase],
    ['Pool', s.pool],
    ['Oracle', s.oracle],
    ['Oracle’s original code', s.oracleCode ?? 'not recorded'],
    ['Backstop', s.backstop],
    ['Borrowers from', borrowerSourcesText(s.borrowerSources)],
  ]
  const oracle =
    `The oracle’s code${s.oracleCode === null ? '' : ` (wasm ${shortHash(s.oracleCode)})`} was replaced by the sim’s controllable oracle at the same address: ` +
    'the pool reads it as before, and its prices follow the scenario’s market path.'
  return `<section id="source">
<h2>Source</h2>
<p>${escapeHtml(sourceLine(s))}.</p>
<dl class="meta">
${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${render(v)}</dd>`).join('\n')}
</dl>
<p class="note">${escapeHtml(oracle)}</p>
<h3>Reserves at the start</h3>
${reservesTable(s)}
<h3>Borrowers at the start</h3>
<p><b>${escapeHtml(liquidatableText(s))}.</b> Collateral and liabilities are in the oracle’s base currency at the start’s prices.</p>
${borrowersTable(s)}
</section>`
}

type StartReserve = ReportSource['start']['reserves'][number]
type StartBorrower = ReportSource['start']['borrowers'][number]

function reservesTable(s: ReportSource): string {
  return htmlTable<StartReserve>(
    s.start.reserves,
    [
      { head: 'Reserve', cell: (r) => titled(r.code, r.asset) },
      { head: 'Price', cell: (r) => formatPrice(r.price), num: true },
      { head: 'Supplied', cell: (r) => formatAmount(r.supplied), num: true },
      { head: 'Borrowed', cell: (r) => formatAmount(r.borrowed), num: true },
      { head: 'Utilisation', cell: (r) => formatPct(r.utilisation), num: true },
      { head: 'C-factor', cell: (r) => factor(r.cFactor), num: true },
      { head: 'L-factor', cell: (r) => factor(r.lFactor), num: true },
    ],
    'The pool has no reserves.',
  )
}

function borrowersTable(s: ReportSource): string {
  const all = s.start.borrowers
  const shown = all.slice(0, SOURCE_BORROWERS_SHOWN)
  const table = htmlTable<StartBorrower>(
    shown,
    [
      { head: 'Borrower', cell: (b) => titled(shortAddress(b.address), b.address) },
      { head: 'Health factor', cell: (b) => healthFactor(b.healthFactor), num: true },
      { head: 'Collateral', cell: (b) => formatAmount(b.collateral), num: true },
      { head: 'Liabilities', cell: (b) => formatAmount(b.liabilities), num: true },
    ],
    'No borrowers with liabilities at the start.',
    (b) => (b.healthFactor < 1 ? 'alert' : ''),
  )
  const more = all.length - shown.length
  if (more <= 0) return table
  return `<p class="note">The ${formatCount(shown.length)} lowest health factors; ${formatCount(more)} more borrower${more === 1 ? '' : 's'} not shown.</p>\n${table}`
}

/** A health factor to 4 decimals. */
function healthFactor(hf: number): string {
  return Number.isFinite(hf) ? hf.toFixed(4) : MISSING
}

/** A factor (0..1) with up to 7 decimals, trailing zeros trimmed. */
function factor(x: number): string {
  return Number.isFinite(x) ? x.toFixed(7).replace(/\.?0+$/, '') : MISSING
}

function shortHash(hex: string): string {
  return hex.length > HASH_DIGITS ? `${hex.slice(0, HASH_DIGITS)}…` : hex
}

/** `text`, with `full` as its tooltip when they differ. */
function titled(text: string, full: string): string | Html {
  return text === full ? text : { html: `<span title="${escapeHtml(full)}">${escapeHtml(text)}</span>` }
}

function render(cell: string | Html): string {
  return typeof cell === 'string' ? escapeHtml(cell) : cell.html
}
