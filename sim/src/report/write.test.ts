import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { reportFixture } from '../../../test/sim/reportFixture.js'
import { timeseriesCsv } from './csv.js'
import { reportHtml } from './html.js'
import { reportJson, writeRunOutputs } from './write.js'

const root = await mkdtemp(join(tmpdir(), 'run-outputs-'))
afterAll(() => rm(root, { recursive: true, force: true }))

describe('writeRunOutputs', () => {
  it('creates the directory and writes report.json, timeseries.csv and report.html', async () => {
    const report = reportFixture()
    const dir = join(root, 'nested', 'run')
    const paths = await writeRunOutputs(report, dir)
    expect(paths).toEqual({ json: join(dir, 'report.json'), csv: join(dir, 'timeseries.csv'), html: join(dir, 'report.html') })
    const json = await readFile(paths.json, 'utf8')
    expect(json).toBe(JSON.stringify(report, null, 2) + '\n')
    expect(JSON.parse(json)).toEqual(report)
    expect(await readFile(paths.csv, 'utf8')).toBe(timeseriesCsv(report))
    expect((await readFile(paths.html, 'utf8')) === reportHtml(report)).toBe(true)
  })

  it('writes identical bytes for the same report, and for the report read back from report.json', async () => {
    const a = await writeRunOutputs(reportFixture(), join(root, 'a'))
    const b = await writeRunOutputs(reportFixture(), join(root, 'b'))
    const reread = JSON.parse(await readFile(a.json, 'utf8'))
    const c = await writeRunOutputs(reread, join(root, 'c'))
    for (const key of ['json', 'csv', 'html'] as const) {
      const bytes = await readFile(a[key])
      expect(bytes.equals(await readFile(b[key])), key).toBe(true)
      expect(bytes.equals(await readFile(c[key])), `${key} from report.json`).toBe(true)
    }
  })

  it('replaces the files of an earlier run in the same directory', async () => {
    const dir = join(root, 'again')
    await writeRunOutputs(reportFixture(), dir)
    const changed = { ...reportFixture(), seed: 7 }
    const paths = await writeRunOutputs(changed, dir)
    expect(await readFile(paths.json, 'utf8')).toBe(reportJson(changed))
  })
})
