/**
 * `sweep … --check-determinism N`: after the sweep, N of its finished runs — a sample seeded by
 * the sweep's seed base, so the same sweep checks the same runs — run again in this process,
 * traced, each into a temporary directory, and are compared with what the sweep stored in
 * `runs/<key>/`: trace.jsonl (first differing ledger and what differs there) and the output
 * files. A re-run that agrees is removed; one that does not is kept for inspection.
 */
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Report } from '../report/types.js'
import { writeRunOutputs } from '../report/write.js'
import type { RunOptions } from '../run.js'
import type { LoadedScenario } from '../scenario/load.js'
import type { SweepJob } from '../sweep/grid.js'
import { runDir } from '../sweep/runFiles.js'
import { describeTraces, sideOf, storedSide } from './compare.js'
import { compareRunFiles, type FileDifference } from './outputs.js'
import { TraceRecorder } from './recorder.js'
import { sha256 } from './trace.js'
import { readTrace, TRACE_FILE } from './traceFile.js'

export interface SweepCheckOptions {
  outDir: string
  /** The jobs that finished in `outDir` (the sample is drawn from these). */
  finished: readonly SweepJob[]
  loaded: readonly LoadedScenario[]
  count: number
  /** Seeds the sample (the sweep's seed base). */
  sampleSeed: number
  /** A module exporting `runScenario` (default sim/src/run.ts). */
  runner?: string
  tmpRoot?: string
  log?: (line: string) => void
}

export interface JobCheck {
  job: SweepJob
  ok: boolean
  /** What differs in the traces (null: nothing, or no stored trace). */
  trace: string | null
  files: FileDifference[]
  /** Why the traces were not compared, when they were not. */
  note?: string
  /** The re-run's directory (removed when ok). */
  dir: string
}

export interface SweepCheckResult {
  ok: boolean
  checks: JobCheck[]
}

/** `count` jobs in job order, chosen by the SHA-256 of seed and job key. */
export function sampleJobs(jobs: readonly SweepJob[], count: number, seed: number): SweepJob[] {
  const ranked = [...jobs].sort((a, b) => {
    const [ha, hb] = [sha256(`${seed}:${a.key}`), sha256(`${seed}:${b.key}`)]
    return ha < hb ? -1 : ha > hb ? 1 : 0
  })
  return ranked.slice(0, count).sort((a, b) => a.index - b.index)
}

type Runner = (opts: RunOptions) => Promise<Report>

async function loadRunner(module: string | undefined): Promise<Runner> {
  const mod = (module !== undefined ? await import(pathToFileURL(module).href) : await import('../run.js')) as { runScenario?: Runner }
  if (typeof mod.runScenario !== 'function') throw new Error(`${module ?? 'sim/src/run.ts'} does not export runScenario`)
  return mod.runScenario
}

export async function checkSweepDeterminism(o: SweepCheckOptions): Promise<SweepCheckResult> {
  const log = o.log ?? (() => {})
  const runScenario = await loadRunner(o.runner)
  const sample = sampleJobs(o.finished, o.count, o.sampleSeed)
  log(`determinism check: running ${sample.length} of ${o.finished.length} finished run(s) again: ${sample.map((j) => j.key).join(', ')}`)
  const checks: JobCheck[] = []
  for (const job of sample) {
    const stored = runDir(o.outDir, job.key)
    const dir = await mkdtemp(join(o.tmpRoot ?? tmpdir(), 'sim-determinism-'))
    const trace = new TraceRecorder()
    const report = await runScenario({ loaded: o.loaded[job.point.index]!, seed: job.seed, outDir: dir, trace })
    // As the sweep's worker does for a runner that writes no outputs itself.
    if (!existsSync(join(dir, 'report.json'))) await writeRunOutputs(report, dir)
    const files = await compareRunFiles(stored, dir)
    let traceDiff: string | null = null
    let note: string | undefined
    if (trace.records.length === 0) note = 'the runner recorded no trace: outputs compared only'
    else if (!existsSync(join(stored, TRACE_FILE))) note = `the sweep's run directory has no ${TRACE_FILE} (the sweep ran it without --check-determinism): outputs compared only`
    else traceDiff = describeTraces(storedSide("sweep's run", await readTrace(join(stored, TRACE_FILE))), sideOf('re-run', trace))
    const ok = traceDiff === null && files.length === 0
    if (ok) await rm(dir, { recursive: true, force: true })
    checks.push({ job, ok, trace: traceDiff, files, dir, ...(note === undefined ? {} : { note }) })
    log(`  ${job.key}: ${ok ? 'same' : 'DIFFERS'}`)
  }
  return { ok: checks.every((c) => c.ok), checks }
}

/** The check's outcome as printed: one line when every re-run agrees, each difference when not. */
export function describeSweepCheck(r: SweepCheckResult): string {
  const keys = r.checks.map((c) => c.job.key).join(', ')
  const notes = [...new Set(r.checks.flatMap((c) => (c.note === undefined ? [] : [c.note])))]
  if (r.ok) return [`deterministic: ${r.checks.length} run(s) re-run (${keys}), traces and outputs identical to the sweep's`, ...notes].join('\n')
  const lines = [`NOT deterministic: ${r.checks.filter((c) => !c.ok).length} of ${r.checks.length} re-run(s) differ from the sweep's runs`]
  for (const c of r.checks.filter((x) => !x.ok)) {
    lines.push(`job ${c.job.key} (${c.job.point.id}, seed ${c.job.seed}):`)
    if (c.trace !== null) lines.push(...c.trace.split('\n').map((l) => `  ${l}`))
    if (c.note !== undefined) lines.push(`  ${c.note}`)
    for (const f of c.files) lines.push(`  ${f.file} differs: ${f.detail}`)
    lines.push(`  re-run kept in ${c.dir}`)
  }
  return lines.join('\n')
}
