/**
 * Determinism on the sandbox: the same seed gives the same bytes whatever the machine is doing.
 *
 * Three multi-keeper scenarios, shortened to just past their first wave of liquidations (so the
 * keepers still compete for the same auctions, or one takes over from a crashed one), and the
 * 2.5 s-ledger scenario in full, each run
 * twice — once with the machine otherwise idle, once with every core kept busy by burner
 * processes — must write byte-identical report.json, timeseries.csv and report.html (whose
 * tables are drawn from the report). A failure message names the differing files (first JSON
 * path, CSV line) and where the two runs' determinism traces first part.
 *
 * And a small sweep (crash-short, 2 grid points × 2 seeds) on 1 worker and on 2 workers must
 * write byte-identical aggregate files and tables.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../../sandbox/ts/launch.js'
import { tempDirs } from '../../../test/fs/tempDirs.js'
import { withCpuLoad } from '../../../test/sim/cpuLoad.js'
import type { Report } from '../report/types.js'
import { runScenario } from '../run.js'
import { loadScenario } from '../scenario/load.js'
import { runSweep } from '../sweep/sweep.js'
import { describeTraces, sideOf } from './compare.js'
import { compareRunFiles } from './outputs.js'
import { TraceRecorder } from './recorder.js'

const temp = tempDirs('sim-determinism-e2e-')
const scenario = (name: string) => join(REPO_ROOT, 'sim', 'scenarios', `${name}.yaml`)

interface Case {
  name: string
  /** Ledgers simulated: the first wave of fills ends around ledger 360–385 of each. */
  ledgers: number
  /** The shortened run still shows what the scenario is about. */
  check: (r: Report) => void
}

const filled = (r: Report) => r.auctions.filter((a) => a.outcome === 'filled')

const CASES: Case[] = [
  {
    name: 'capital-starved',
    ledgers: 400,
    check: (r) => {
      // 16 fills in one wave, three keepers winning, every fill contested
      expect(filled(r).length).toBeGreaterThanOrEqual(10)
      expect(new Set(filled(r).map((a) => a.filledBy)).size).toBeGreaterThanOrEqual(2)
      expect(filled(r).filter((a) => a.contenders.length > 1).length).toBeGreaterThanOrEqual(5)
    },
  },
  {
    name: 'competition',
    ledgers: 400,
    check: (r) => {
      expect(filled(r).length).toBeGreaterThanOrEqual(4)
      expect(new Set(filled(r).map((a) => a.filledBy)).size).toBeGreaterThanOrEqual(2)
      // all but one contested (seed 1 on the flash-draw vault: one auction's other keepers fired a ledger late)
      expect(filled(r).filter((a) => a.contenders.length > 1).length).toBeGreaterThanOrEqual(filled(r).length - 1)
    },
  },
  {
    name: 'keeper-crash',
    ledgers: 410,
    check: (r) => {
      // keeper-1 dies holding drawn capital; keeper-2 fills what is left
      expect(r.events.some((e) => e.kind === 'crash' && e.text.startsWith('keeper-1'))).toBe(true)
      expect(filled(r).length).toBeGreaterThanOrEqual(2)
      expect(filled(r).every((a) => a.filledBy === 'keeper-2')).toBe(true)
    },
  },
  {
    // 2.5 s ledgers (CAP-70): close times +2 s, +3 s ..., durations into ledgers at 2.5 s.
    name: 'crash-fast-ledgers',
    ledgers: 480,
    check: (r) => {
      expect(r.run.ledgerSeconds).toBe(2.5)
      expect(filled(r).length).toBeGreaterThanOrEqual(2)
    },
  },
]

async function traced(name: string, ledgers: number, outDir: string): Promise<{ report: Report; trace: TraceRecorder }> {
  const { ledgerSeconds } = loadScenario(scenario(name)).scenario.run
  const loaded = loadScenario(scenario(name), [{ path: 'run.duration', value: ledgers * ledgerSeconds }])
  const trace = new TraceRecorder()
  const report = await runScenario({ loaded, seed: loaded.scenario.run.seed, outDir, trace })
  return { report, trace }
}

describe('the same seed gives the same bytes, on an idle machine and with every core busy', () => {
  for (const c of CASES) {
    it(`${c.name} (${c.ledgers} ledgers): report.json, timeseries.csv and report.html`, { timeout: 240_000 }, async () => {
      const [idleDir, loadedDir] = [temp(), temp()]
      const idle = await traced(c.name, c.ledgers, idleDir)
      c.check(idle.report)
      const busy = await withCpuLoad(() => traced(c.name, c.ledgers, loadedDir))
      const files = await compareRunFiles(idleDir, loadedDir)
      const trace = describeTraces(sideOf('idle run', idle.trace), sideOf('loaded run', busy.trace))
      const why = [...files.map((f) => `${f.file}: ${f.detail}`), trace ?? 'the traces are identical'].join('\n')
      expect(files, why).toEqual([])
    })
  }
})

describe('a sweep gives the same aggregate on 1 and on 2 workers', () => {
  const FILES = ['aggregate.json', 'aggregate.csv', 'aggregate.html', ...['runs', 'auctions', 'keepers'].flatMap((t) => [`${t}.csv`, `${t}.parquet`])]

  it('crash-short, keepers.minProfit=1.01,1.03 × 2 seeds', { timeout: 240_000 }, async () => {
    const dirs = [temp(), temp()]
    for (const [i, workers] of [1, 2].entries()) {
      const r = await runSweep({ file: scenario('crash-short'), sets: ['keepers.minProfit=1.01,1.03'], seeds: 2, workers, out: dirs[i]!, progress: 'none' })
      expect(r.failed).toEqual([])
    }
    const differing: string[] = []
    for (const f of FILES) {
      const [a, b] = await Promise.all(dirs.map((d) => readFile(join(d, f))))
      if (!a!.equals(b!)) differing.push(f)
    }
    const why = await compareRunFiles(dirs[0]!, dirs[1]!, FILES.filter((f) => !f.endsWith('.parquet')))
    expect(differing, why.map((d) => `${d.file}: ${d.detail}`).join('\n')).toEqual([])
  })
})
