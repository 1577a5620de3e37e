/**
 * `run <scenario> --check-determinism`: the seed runs twice, both traced — the first into the
 * run directory (with its trace.jsonl), the second into a temporary directory — and the two
 * are compared: the traces (first differing ledger and what differs there) and the output files.
 * The temporary directory is removed when the runs agree and kept for inspection when not.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Report } from '../report/types.js'
import { runScenario, type RunOptions } from '../run.js'
import { describeTraces, sideOf } from './compare.js'
import { compareRunFiles, type FileDifference } from './outputs.js'
import { TraceRecorder } from './recorder.js'

export interface RunCheckOptions {
  loaded: RunOptions['loaded']
  seed: number
  /** The first run's directory. */
  outDir: string
  /** Where the second run's temporary directory goes (default os.tmpdir()). */
  tmpRoot?: string
  log?: (line: string) => void
  /** Progress of run 1 or 2. */
  onProgress?: (run: 1 | 2, done: number, total: number) => void
  /** Extra options of the second run only (tests inject a divergence here). */
  second?: Pick<RunOptions, 'requestFault'>
}

export interface RunCheckResult {
  ok: boolean
  /** The first run's report. */
  report: Report
  ledgers: number
  head: string
  /** What differs in the traces (null: nothing). */
  trace: string | null
  files: FileDifference[]
  /** The second run's directory (removed when ok). */
  secondDir: string
  /** Wall time of each run (ms). */
  wallMs: [number, number]
}

export async function checkRunDeterminism(o: RunCheckOptions): Promise<RunCheckResult> {
  const secondDir = await mkdtemp(join(o.tmpRoot ?? tmpdir(), 'sim-determinism-'))
  const runs: { trace: TraceRecorder; report: Report; ms: number }[] = []
  for (const n of [1, 2] as const) {
    const trace = new TraceRecorder()
    const t0 = performance.now()
    const report = await runScenario({
      loaded: o.loaded,
      seed: o.seed,
      outDir: n === 1 ? o.outDir : secondDir,
      trace,
      ...(o.log === undefined ? {} : { log: o.log }),
      ...(o.onProgress === undefined ? {} : { onProgress: (done: number, total: number) => o.onProgress!(n, done, total) }),
      ...(n === 2 ? o.second : {}),
    })
    runs.push({ trace, report, ms: performance.now() - t0 })
  }
  const [a, b] = runs as [(typeof runs)[0], (typeof runs)[0]]
  const trace = describeTraces(sideOf('run 1', a.trace), sideOf('run 2', b.trace))
  const files = await compareRunFiles(o.outDir, secondDir)
  const ok = trace === null && files.length === 0
  if (ok) await rm(secondDir, { recursive: true, force: true })
  return { ok, report: a.report, ledgers: a.trace.ledgers, head: a.trace.chainHead, trace, files, secondDir, wallMs: [a.ms, b.ms] }
}

/** The check's outcome as printed: one line when the runs agree, the differences when not. */
export function describeRunCheck(r: RunCheckResult): string {
  if (r.ok) return `deterministic: 2 runs, ${r.ledgers} ledgers, trace head ${r.head}`
  const lines = ['NOT deterministic: the two runs of this seed differ']
  if (r.trace !== null) lines.push(r.trace)
  else lines.push('the traces are identical')
  for (const f of r.files) lines.push(`${f.file} differs: ${f.detail}`)
  if (r.files.length === 0) lines.push('report.json, timeseries.csv and report.html are identical')
  lines.push(`second run kept in ${r.secondDir}`)
  return lines.join('\n')
}
