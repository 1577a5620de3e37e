/**
 * The auditor's report as text: a header naming what was audited, one table row per invariant
 * (✓ holds, ⚠ holds with a warning, ✗ broken; the figures compared), then for every ✗ and ⚠ its
 * detail and the accounts and amounts involved, and a closing verdict line. No colours, so it
 * reads the same in a log file as on a terminal.
 */
import Table from 'cli-table3'
import type { AuditReport, InvariantResult } from '../types.js'

export interface ReportContext {
  rpcUrl: string
  vault: string
  registry: string
}

export const mark = (r: InvariantResult): string => (!r.holds ? '✗' : r.warning ? '⚠' : '✓')

const PLAIN = { head: [] as string[], border: [] as string[] }

/** `name  value` lines with the names padded to one width. */
function figureLines(figures: Record<string, string>): string {
  const names = Object.keys(figures)
  const w = Math.max(0, ...names.map((n) => n.length))
  return names.map((n) => `${n.padEnd(w)}  ${figures[n]}`).join('\n')
}

/** The one-line verdict: which invariants broke or warned, or that all hold. */
export function verdict(report: AuditReport): string {
  const broken = report.invariants.filter((r) => !r.holds)
  const warned = report.invariants.filter((r) => r.holds && r.warning)
  const warnings = warned.length === 0 ? '' : `; ${warned.length} warning${warned.length === 1 ? '' : 's'} (${warned.map((r) => r.id).join(', ')})`
  if (broken.length === 0) return `✓ all ${report.invariants.length} invariants hold at ledger ${report.ledger}${warnings}`
  return `✗ ${broken.length} of ${report.invariants.length} invariants broken at ledger ${report.ledger}: ${broken.map((r) => `${r.id} (${r.name})`).join(', ')}${warnings}`
}

/** The whole report as text, `width` columns wide at most (ends with a newline). */
export function renderReport(report: AuditReport, ctx: ReportContext, width = 120): string {
  const total = Math.max(100, Math.min(width, 180))
  // status, id, invariant, figures: the borders take 5 columns and the padding 2 per column.
  // The figures column fits a name and a contract address (56 characters) on one line.
  const invariantWidth = Math.max(30, total - 5 - 3 - 4 - 78)
  const figuresWidth = total - 5 - 3 - 4 - invariantWidth
  const table = new Table({
    head: ['', '#', 'Invariant', 'Figures compared'],
    colWidths: [3, 4, invariantWidth, figuresWidth],
    wordWrap: true,
    style: PLAIN,
  })
  for (const r of report.invariants) table.push([mark(r), String(r.id), r.name, figureLines(r.figures)])

  const parts = [`Audit of vault ${ctx.vault} and registry ${ctx.registry} at ledger ${report.ledger} (${ctx.rpcUrl})`, table.toString()]
  for (const r of report.invariants) {
    if (r.holds && !r.warning) continue
    parts.push(`${mark(r)} ${r.id} ${r.name}: ${r.detail}`)
    if (r.offenders.length === 0) continue
    const noteWidth = Math.max(30, total - 60 - 24 - 4)
    const offenders = new Table({ head: ['Account', 'Amount', 'Note'], colWidths: [60, 24, noteWidth], wordWrap: true, style: PLAIN })
    for (const o of r.offenders) offenders.push([o.account, { content: o.amount, hAlign: 'right' }, o.note ?? ''])
    parts.push(offenders.toString())
  }
  parts.push(verdict(report))
  return `${parts.join('\n')}\n`
}
