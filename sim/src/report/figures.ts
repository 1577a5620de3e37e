/**
 * The published figures in one place: docs/figures.json holds each figure the READMEs quote
 * once, with the command that measured it, the commit, the date and the machine. The runs that
 * measure them write it (`npm run sim -- run <scenario> --figures FILE`, `npx tsx
 * benchmarks/sim.ts --figures FILE`); the READMEs mark where they quote one with an HTML comment
 * right before the number, `<!-- figure: ID -->38.2 s`, or before a fenced block that copies a
 * text figure, `<!-- figure: ID -->` on the line above the opening fence (every line of the
 * block must be a line of the figure's text). scripts/figures.test.ts checks every marker
 * against the file with `checkQuotes`.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, platform } from 'node:os'
import { dirname } from 'node:path'
import { summaryTable } from './summary.js'
import type { Report } from './types.js'

/** One measured figure. */
export interface Figure {
  /** A number, or a text figure (a summary table) whose lines a README copies. */
  value: number | string
  /** What the number counts: `s`, `%`, `USDC`, `count`, `ledgers`, `text`, or a ratio with its base named. */
  unit: string
  /** The command that measured it, as typed. */
  command: string
  /** `git rev-parse --short HEAD` when it was measured, `+modified` when the tree had changes to tracked files. */
  commit: string
  /** When it was measured (UTC, ISO 8601). */
  date: string
  /** The machine and what else ran on it (cores, load average at the start and at the end). */
  machine: string
}

export interface FiguresFile {
  /** What the file is, for a reader who opens it first. */
  about: string
  figures: Record<string, Figure>
}

const ABOUT =
  'The figures the READMEs quote, one entry each, written by the runs that measure them (sim/src/report/figures.ts). A README marks a quote with <!-- figure: ID --> before the number; scripts/figures.test.ts fails when a marked number differs from the value here.'

/** The figures file at `path`, or an empty one when there is none yet. */
export function readFigures(path: string): FiguresFile {
  if (!existsSync(path)) return { about: ABOUT, figures: {} }
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as FiguresFile
  return { about: parsed.about ?? ABOUT, figures: parsed.figures ?? {} }
}

/** Writes `entries` into the figures file at `path`, replacing those of the same ids; ids stay sorted so diffs stay small. */
export function upsertFigures(path: string, entries: Record<string, Figure>): void {
  const file = readFigures(path)
  const merged = { ...file.figures, ...entries }
  const sorted: Record<string, Figure> = {}
  for (const id of Object.keys(merged).sort()) sorted[id] = merged[id]!
  if (!existsSync(dirname(path))) throw new Error(`figures file ${path}: its folder does not exist`)
  writeFileSync(path, `${JSON.stringify({ about: ABOUT, figures: sorted }, null, 2)}\n`)
}

/** Where and on what a measurement ran: commit, date, machine. `loadStart` is the 1-minute load average when the run began. */
export interface Provenance {
  command: string
  commit: string
  date: string
  machine: string
}

export function provenance(command: string, loadStart: number, cwd = process.cwd()): Provenance {
  let commit = 'unknown'
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd, encoding: 'utf8' }).trim()
    const changed = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd, encoding: 'utf8' }).trim()
    if (changed !== '') commit += '+modified'
  } catch {
    // not a git checkout: the commit stays unknown
  }
  const cores = cpus().length
  const machine = `${cores}-core ${platform()}; 1-min load average ${loadStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end (${cores}.0 = every core busy)`
  return { command, commit, date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), machine }
}

/** The current 1-minute load average, for `provenance`'s `loadStart`. */
export function loadNow(): number {
  return loadavg()[0]!
}

/** Figures with one provenance: `{id: [value, unit]}` → entries. */
export function figuresOf(values: Record<string, [number | string, string]>, p: Provenance): Record<string, Figure> {
  const out: Record<string, Figure> = {}
  for (const [id, [value, unit]] of Object.entries(values)) out[id] = { value, unit, ...p }
  return out
}

/**
 * A sim run's figures under `sim.<scenario>.seed<N>.`: the whole wall time (set-up included),
 * ledgers, the LP return and the vault's figures, auctions, fills, fill delays, the keepers'
 * fees as a share of the vault's profit, replay mismatches, and the summary table as printed
 * (`summary`, a text figure).
 */
export function runFigures(report: Report, wallSeconds: number, p: Provenance): Record<string, Figure> {
  const s = report.summary
  const id = `sim.${report.scenario.name}.seed${report.seed}`
  const round = (v: number, d: number) => Math.round(v * 10 ** d) / 10 ** d
  const values: Record<string, [number | string, string]> = {
    [`${id}.wallSeconds`]: [round(wallSeconds, 1), 's'],
    [`${id}.ledgers`]: [report.run.ledgers, 'ledgers'],
    [`${id}.fastForwarded`]: [report.run.fastForwardedLedgers, 'ledgers'],
    [`${id}.lpReturnPct`]: [round(s.lpReturn * 100, 4), '%'],
    [`${id}.vaultProfit`]: [round(s.vaultProfit, 2), 'USDC'],
    [`${id}.auctionsCreated`]: [s.auctions.created, 'count'],
    [`${id}.auctionsFilled`]: [s.auctions.filled, 'count'],
    [`${id}.fills`]: [s.fills, 'count'],
    [`${id}.failedTransactions`]: [s.failedTransactions, 'count'],
    [`${id}.lostRaces`]: [s.lostRaceTransactions, 'count'],
    [`${id}.replayMismatches`]: [s.replayMismatches, 'count'],
    [`${id}.summary`]: [summaryTable(report), 'text'],
  }
  if (s.keeperRewards !== undefined) values[`${id}.keeperRewards`] = [round(s.keeperRewards, 2), 'USDC']
  if (s.lockedProfitEnd !== undefined) values[`${id}.lockedProfitEnd`] = [round(s.lockedProfitEnd, 2), 'USDC']
  if (s.fees.shareOfVaultProfit !== null) values[`${id}.feesShareOfVaultProfitPct`] = [round(s.fees.shareOfVaultProfit * 100, 4), '% (keepers\' fees in USD / vault profit)']
  if (s.fillDelay.median !== null) values[`${id}.fillDelayP50`] = [s.fillDelay.median, 'ledgers']
  if (s.fillDelay.p95 !== null) values[`${id}.fillDelayP95`] = [s.fillDelay.p95, 'ledgers']
  return figuresOf(values, p)
}

/** A README to check: its path (for messages) and its text. */
export interface QuotingDoc {
  file: string
  text: string
}

/** A marker; one in inline code (right after a backtick) is an example, not a quote. */
const MARKER = /(?<!`)<!--\s*figure:\s*([\w.-]+)\s*-->/g
const NUMBER = /^\s*(-?\d[\d,]*(?:\.\d+)?)/

/**
 * Every marked quote checked against the figures: a number must be the figure rounded to the
 * decimals the README gives (`1,440`, `38`, `38.2` all quote 38.2… or 1440 alike); a marker
 * before a fenced block needs each of the block's lines in the text figure; an unknown id, a
 * marker followed by neither, and two READMEs quoting one figure as different numbers are
 * problems too. Returns them as `file:line: …` lines, none when every quote holds.
 */
export function checkQuotes(docs: QuotingDoc[], figures: Record<string, Figure>): string[] {
  const problems: string[] = []
  const quoted = new Map<string, { where: string; number: number; decimals: number }[]>()
  for (const doc of docs) {
    for (const m of doc.text.matchAll(MARKER)) {
      const id = m[1]!
      const at = m.index! + m[0].length
      const where = `${doc.file}:${doc.text.slice(0, m.index).split('\n').length}`
      const figure = figures[id]
      if (figure === undefined) {
        problems.push(`${where}: figure ${id} is not in the figures file`)
        continue
      }
      const rest = doc.text.slice(at)
      const fence = /^[ \t]*\n[ \t]*(`{3,})[^\n]*\n([\s\S]*?)\n[ \t]*\1/.exec(rest)
      if (fence !== null) {
        const have = new Set(String(figure.value).split('\n').map((l) => l.trimEnd()))
        for (const line of fence[2]!.split('\n')) if (!have.has(line.trimEnd())) problems.push(`${where}: ${id} has no line ${JSON.stringify(line.trimEnd())}`)
        continue
      }
      const n = NUMBER.exec(rest)
      if (n === null) {
        problems.push(`${where}: figure ${id} is marked but no number or fenced block follows the marker`)
        continue
      }
      const text = n[1]!
      if (typeof figure.value !== 'number') {
        problems.push(`${where}: ${id} is a text figure, quoted as the number ${text}`)
        continue
      }
      const decimals = text.includes('.') ? text.length - text.indexOf('.') - 1 : 0
      const number = Number(text.replace(/,/g, ''))
      if (Number(figure.value.toFixed(decimals)) !== number)
        problems.push(`${where}: ${id} is ${figure.value} ${figure.unit} in the figures file, quoted as ${text}`)
      const list = quoted.get(id) ?? []
      list.push({ where, number, decimals })
      quoted.set(id, list)
    }
  }
  // Two quotes of one figure agree when each, rounded to the other's decimals, is the other.
  for (const [id, list] of quoted)
    for (const a of list)
      for (const b of list) {
        const d = Math.min(a.decimals, b.decimals)
        if (a.where < b.where && Number(a.number.toFixed(d)) !== Number(b.number.toFixed(d))) problems.push(`${id} is quoted as ${a.number} (${a.where}) and as ${b.number} (${b.where})`)
      }
  return problems
}
