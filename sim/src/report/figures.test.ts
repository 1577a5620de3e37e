import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { reportFixture } from '../../../test/sim/reportFixture.js'
import { figuresOf, provenance, readFigures, runFigures, upsertFigures } from './figures.js'
import { summaryTable } from './summary.js'

const dir = mkdtempSync(join(tmpdir(), 'figures-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('figures file', () => {
  const p = { command: 'npm run sim -- run x', commit: 'abc1234', date: '2026-12-07T00:00:00Z', machine: '2-core linux' }

  it("holds a run's figures under sim.<scenario>.seed<N>, the summary table as printed among them", () => {
    const report = reportFixture()
    const f = runFigures(report, 17.24, p)
    const id = 'sim.cascade <small>.seed42'
    expect(f[`${id}.wallSeconds`]).toEqual({ value: 17.2, unit: 's', ...p })
    expect(f[`${id}.lpReturnPct`]!.value).toBe(0.1235)
    expect(f[`${id}.ledgers`]!.value).toBe(720)
    expect(f[`${id}.summary`]!.value).toBe(summaryTable(report))
  })

  it('upserts: a new measurement replaces the entry of the same id, others stay, ids sorted', () => {
    const file = join(dir, 'figures.json')
    upsertFigures(file, figuresOf({ 'b.x': [1, 's'], 'a.y': [2, 'count'] }, p))
    upsertFigures(file, figuresOf({ 'b.x': [3, 's'] }, { ...p, commit: 'def5678' }))
    const read = readFigures(file)
    expect(Object.keys(read.figures)).toEqual(['a.y', 'b.x'])
    expect(read.figures['b.x']).toMatchObject({ value: 3, commit: 'def5678' })
    expect(read.figures['a.y']).toMatchObject({ value: 2, commit: 'abc1234' })
    expect(readFileSync(file, 'utf8')).toMatch(/^\{\n {2}"about": /)
  })

  it('says where it ran: the commit of the checkout, the date and the machine with its load', () => {
    const q = provenance('npm run sim -- run crash-30', 1.5)
    expect(q.commit).toMatch(/^([0-9a-f]{7,}(\+modified)?|unknown)$/)
    expect(q.date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    expect(q.machine).toMatch(/^\d+-core \w+; 1-min load average 1\.5 at the start, [\d.]+ at the end/)
  })
})
