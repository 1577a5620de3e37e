import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { checkSnapshotAt, parseSnapshotAt, SnapshotOptionError, Snapshots } from './snapshots.js'

describe('--snapshot-at', () => {
  it('takes steps and end, comma-separated or repeated', () => {
    expect(parseSnapshotAt('0,120,end')).toEqual([0, 120, 'end'])
    expect(parseSnapshotAt(['5', '7,end'])).toEqual([5, 7, 'end'])
  })

  it('names a bad value', () => {
    for (const bad of ['-1', '1.5', 'last', '', '3,,4', '0x10']) {
      expect(() => parseSnapshotAt(bad)).toThrow(SnapshotOptionError)
    }
    expect(() => parseSnapshotAt('12,last')).toThrow(/--snapshot-at "last"/)
  })

  it("refuses a step beyond the run, naming the run's length, and snapshots without a directory", () => {
    expect(() => checkSnapshotAt([260, 'end'], 260, '/tmp/x')).not.toThrow()
    expect(() => checkSnapshotAt([261], 260, '/tmp/x')).toThrow(/261 is beyond the run, which is 260 ledgers long/)
    expect(() => checkSnapshotAt(['end'], 260, undefined)).toThrow(/outDir/)
    expect(() => checkSnapshotAt([], 260, undefined)).not.toThrow()
  })
})

describe('Snapshots', () => {
  let dir: string | undefined
  afterEach(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true })
  })

  it('writes each step at the first close at or after it (fast-forward skips steps), and end after the last ledger', async () => {
    dir = await mkdtemp(join(tmpdir(), 'snapshots-'))
    let latest = 100
    const dumped: string[] = []
    const s = new Snapshots([30, 0, 10, 'end', 10], dir, async (path) => {
      dumped.push(path)
      return latest
    })
    await s.reached(0, 100)
    latest = 105
    await s.reached(5, 105)
    latest = 140 // one fast-forward over steps 6..40
    await s.reached(40, 140)
    latest = 150
    await s.reached(50, 150)
    await s.end(150)
    expect(s.files.map((f) => [f.step, f.ledger])).toEqual([
      [0, 100],
      [10, 140],
      [30, 140],
      ['end', 150],
    ])
    expect(dumped).toEqual(['step-0-ledger-100', 'step-10-ledger-140', 'step-30-ledger-140', 'step-end-ledger-150'].map((n) => join(dir!, 'snapshots', `${n}.json`)))
  })

  it('fails when the node wrote another ledger than the one closed', async () => {
    dir = await mkdtemp(join(tmpdir(), 'snapshots-'))
    const s = new Snapshots(['end'], dir, async () => 7)
    await expect(s.end(8)).rejects.toThrow(/wrote ledger 7, not 8/)
  })
})
