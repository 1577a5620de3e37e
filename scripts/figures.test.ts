import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { checkQuotes, type Figure, readFigures } from '../sim/src/report/figures.js'

// The READMEs' figures come from one file, docs/figures.json, written by the runs that measure
// them (sim/src/report/figures.ts). A marked quote, `<!-- figure: ID -->38.2`, must hold the
// figure the file holds.
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const READMES = ['README.md', 'sim/README.md', 'benchmarks/README.md']
const FIGURES = join(ROOT, 'docs', 'figures.json')

describe('the READMEs quote the figures file', () => {
  const figures = readFigures(FIGURES).figures
  const docs = READMES.map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') }))

  it('every marked number and block is what docs/figures.json holds', () => {
    expect(checkQuotes(docs, figures)).toEqual([])
  })

  it('each README marks its current figures', () => {
    for (const d of docs) expect(d.text, d.file).toMatch(/<!-- figure: [\w.-]+ -->/)
  })

  it('every figure says how, where and when it was measured', () => {
    for (const [id, f] of Object.entries(figures)) {
      expect(f.command, id).toMatch(/^(npm run |npx tsx )/)
      expect(f.commit, id).toMatch(/^[0-9a-f]{7,}(\+modified)?$/)
      expect(f.date, id).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
      expect(f.machine, id).not.toBe('')
      expect(f.unit, id).not.toBe('')
    }
  })
})

/**
 * sim/README.md's Figures table, row by row: a row whose LP return is marked with its run's
 * `sim.<scenario>.seed<N>.lpReturnPct` must give that run's ledgers (fast-forwarded), auctions
 * created / filled, fills / failed txs / lost races, fill delay p50 / p95, keeper rewards,
 * locked profit and replay mismatches, as the figures file holds them.
 */
function checkFiguresTable(text: string, figures: Record<string, Figure>): string[] {
  const problems: string[] = []
  const lines = text.split('\n')
  const head = lines.findIndex((l) => l.startsWith('| scenario | ledgers (fast-forwarded) | LP return |'))
  if (head < 0) return ['sim/README.md: no Figures table']
  const n = (v: string) => Number(v.replace(/,/g, ''))
  for (let i = head + 2; i < lines.length && lines[i]!.startsWith('|'); i++) {
    const cells = lines[i]!.split('|').slice(1, -1).map((c) => c.trim())
    const id = /<!-- figure: (sim\.[\w.-]+)\.lpReturnPct -->/.exec(cells[2] ?? '')?.[1]
    if (id === undefined) {
      problems.push(`sim/README.md:${i + 1}: ${cells[0]} has no marked LP return`)
      continue
    }
    const value = (k: string) => figures[`${id}.${k}`]?.value
    const numbers = (cell: string) => cell.split(/[\s/()]+/).filter((x) => x !== '').map((x) => (x === '—' ? undefined : n(x)))
    const checks: [string, (number | undefined)[], (string | number | undefined)[]][] = [
      ['ledgers (fast-forwarded)', numbers(cells[1]!), [value('ledgers'), value('fastForwarded')]],
      ['auctions created / filled', numbers(cells[3]!).slice(0, 2), [value('auctionsCreated'), value('auctionsFilled')]],
      ['fills / failed txs / lost races', numbers(cells[4]!), [value('fills'), value('failedTransactions'), value('lostRaces')]],
      ['fill delay p50 / p95', cells[5] === '—' ? [undefined, undefined] : numbers(cells[5]!), [value('fillDelayP50'), value('fillDelayP95')]],
      ['keeper rewards', [n(cells[10]!)], [value('keeperRewards') ?? 0]],
      ['locked at end', [n(cells[11]!)], [value('lockedProfitEnd') ?? 0]],
      ['replay mismatches', [n(cells[13]!)], [value('replayMismatches')]],
    ]
    for (const [what, quoted, held] of checks)
      if (JSON.stringify(quoted) !== JSON.stringify(held)) problems.push(`sim/README.md:${i + 1}: ${cells[0]} ${what} is ${JSON.stringify(quoted)}, the figures file holds ${JSON.stringify(held)}`)
  }
  return problems
}

describe("sim/README.md's Figures table", () => {
  const figures = readFigures(FIGURES).figures
  const text = readFileSync(join(ROOT, 'sim/README.md'), 'utf8')

  it('gives every row as its run recorded it', () => {
    expect(checkFiguresTable(text, figures)).toEqual([])
  })

  it('fails a row that differs from its run', () => {
    const row = text.split('\n').find((l) => l.startsWith('| crash-30 |'))!
    const cells = row.split('|')
    cells[5] = ' 99 / 0 / 32 '
    const problems = checkFiguresTable(text.replace(row, cells.join('|')), figures)
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(/crash-30 fills \/ failed txs \/ lost races is \[99,0,32\]/)
  })
})

describe('checkQuotes', () => {
  const at = (value: number | string, unit = 's'): Figure => ({ value, unit, command: 'npm run sim -- run x', commit: 'abc1234', date: '2026-12-07T00:00:00Z', machine: '2-core linux' })
  const figures = { 'sim.x.seed1.wallSeconds': at(38.24), 'sim.x.seed1.ledgers': at(1440, 'ledgers'), 'sim.x.seed1.summary': at('x  seed 1\nLP return   0.2839%\nAudit   ✓ holds\n', 'text') }
  const doc = (text: string, file = 'README.md') => ({ file, text })

  it('passes a number rounded to the decimals quoted, thousands separators included', () => {
    expect(checkQuotes([doc('about <!-- figure: sim.x.seed1.wallSeconds -->38 s, <!-- figure: sim.x.seed1.wallSeconds -->38.2 s, <!-- figure: sim.x.seed1.ledgers -->1,440 ledgers')], figures)).toEqual([])
  })

  it('fails a number the file does not hold, with the file and line', () => {
    expect(checkQuotes([doc('intro\nin about <!-- figure: sim.x.seed1.wallSeconds -->25 s')], figures)).toEqual([
      'README.md:2: sim.x.seed1.wallSeconds is 38.24 s in the figures file, quoted as 25',
    ])
    expect(checkQuotes([doc('<!-- figure: sim.x.seed1.wallSeconds -->38.3 s')], figures)).toHaveLength(1)
  })

  it('fails an unknown id and a marker with no number after it', () => {
    expect(checkQuotes([doc('<!-- figure: sim.y.wallSeconds -->20 s')], figures)).toEqual(['README.md:1: figure sim.y.wallSeconds is not in the figures file'])
    expect(checkQuotes([doc('<!-- figure: sim.x.seed1.wallSeconds --> about 38 s')], figures)[0]).toMatch(/no number or fenced block follows/)
  })

  it('leaves a marker in inline code alone: it shows the syntax', () => {
    expect(checkQuotes([doc('mark a number with `<!-- figure: ID -->` right before it')], figures)).toEqual([])
  })

  it('fails two READMEs that quote one figure differently', () => {
    const problems = checkQuotes([doc('<!-- figure: sim.x.seed1.wallSeconds -->38 s'), doc('<!-- figure: sim.x.seed1.wallSeconds -->20 s', 'sim/README.md')], figures)
    expect(problems).toContain('sim.x.seed1.wallSeconds is quoted as 38 (README.md:1) and as 20 (sim/README.md:1)')
  })

  it('checks a fenced block line by line against a text figure', () => {
    const block = (lines: string) => doc(`Lines:\n<!-- figure: sim.x.seed1.summary -->\n\`\`\`text\n${lines}\n\`\`\`\n`)
    expect(checkQuotes([block('x  seed 1\nAudit   ✓ holds')], figures)).toEqual([])
    expect(checkQuotes([block('x  seed 1\nLP return   0.1728%')], figures)).toEqual(['README.md:2: sim.x.seed1.summary has no line "LP return   0.1728%"'])
  })
})
