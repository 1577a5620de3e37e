import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDirs } from '../../../test/fs/tempDirs.js'
import { compareRunFiles, csvDifference, jsonDifference } from './outputs.js'

const temp = tempDirs('sim-outputs-')

describe('comparing two runs’ output files', () => {
  it('names the first JSON path whose value differs', () => {
    const a = { run: { seed: 1 }, keepers: [{ name: 'keeper-1', feesPaid: 0.5 }, { name: 'keeper-2', feesPaid: 0.3669236 }], 'odd key': 1 }
    expect(jsonDifference(a, structuredClone(a))).toBeNull()
    expect(jsonDifference(a, { ...a, keepers: [a.keepers[0], { name: 'keeper-2', feesPaid: 0.3679422 }] })).toBe('$.keepers[1].feesPaid: 0.3669236 vs 0.3679422')
    expect(jsonDifference(a, { ...a, keepers: [a.keepers[0]] })).toBe('$.keepers: 2 vs 1 items')
    expect(jsonDifference(a, { ...a, 'odd key': 2 })).toBe('$["odd key"]: 1 vs 2')
    expect(jsonDifference({ x: 1 }, { x: 1, y: null })).toBe('$.y: absent vs null')
    expect(jsonDifference({ x: [1] }, { x: { 0: 1 } })).toBe('$.x: [1] vs {"0":1}')
  })

  it('names the first differing CSV line and its column', () => {
    const a = 'step,ledger,price\n0,100,1.5\n1,101,1.6\n'
    expect(csvDifference(a, a)).toBeNull()
    expect(csvDifference(a, 'step,ledger,price\n0,100,1.5\n1,101,1.7\n')).toBe('line 3, column price: "1.6" vs "1.7"')
    expect(csvDifference(a, a + '2,102,1.8\n')).toBe('3 vs 4 lines')
    // a quoted cell holding commas is one cell
    expect(csvDifference('k,text,v\n1,"a,b",2\n', 'k,text,v\n1,"a,b",3\n')).toBe('line 2, column v: "2" vs "3"')
  })

  it('compares report.json, timeseries.csv and report.html of two directories', async () => {
    const [a, b] = [temp(), temp()]
    for (const d of [a, b]) {
      writeFileSync(join(d, 'report.json'), JSON.stringify({ summary: { vaultProfit: d === a ? 1 : 2 } }))
      writeFileSync(join(d, 'timeseries.csv'), 'step,x\n0,1\n')
      writeFileSync(join(d, 'keepers.log'), `wall-clock line ${d}\n`)
    }
    writeFileSync(join(a, 'report.html'), '<p>1</p>')
    expect(await compareRunFiles(a, b)).toEqual([
      { file: 'report.json', detail: '$.summary.vaultProfit: 1 vs 2' },
      { file: 'report.html', detail: `only in ${a}` },
    ])
  })
})
