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
