/**
 * A sweep worker process (forked by pool.ts, TypeScript through tsx). It runs the jobs the
 * parent sends, one at a time: `runScenario` into the job's run directory (report.json,
 * timeseries.csv, report.html, keepers.log, and trace.jsonl when the job asks for the
 * determinism trace), then summary.json — or error.json when the run
 * throws — and answers with the summary only. It exits when the parent disconnects.
 *
 * The runner is sim/src/run.ts unless SIM_SWEEP_RUNNER names another module exporting
 * `runScenario` with the same signature (the sweep tests use a fast fake one).
 */
import { existsSync } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { TraceRecorder } from '../determinism/recorder.js'
import { TRACE_FILE } from '../determinism/traceFile.js'
import { writeRunOutputs } from '../report/write.js'
import type { RunOptions } from '../run.js'
import type { Report } from '../report/types.js'
import { RUNNER_ENV, type RunJobMessage, type WorkerMessage } from './protocol.js'
import { clearRunRecord, identityOf, summaryFileOf, writeRunError, writeRunSummary, type RunErrorFile } from './runFiles.js'

type Runner = (opts: RunOptions) => Promise<Report>

let runner: Promise<Runner> | undefined

/** Imports the runner once per worker (the real one pulls in the SDK and the world builders). */
function loadRunner(): Promise<Runner> {
  runner ??= (async () => {
    const custom = process.env[RUNNER_ENV]
    const mod = (custom ? await import(pathToFileURL(custom).href) : await import('../run.js')) as { runScenario?: Runner }
    if (typeof mod.runScenario !== 'function') throw new Error(`${custom ?? 'sim/src/run.ts'} does not export runScenario`)
    return mod.runScenario
  })()
  return runner
}

/** Runs one job and records its outcome in the run directory; returns the message for the parent. */
export async function runJob(msg: RunJobMessage): Promise<WorkerMessage> {
  const { job, loaded, runDir } = msg
  await rm(join(runDir, TRACE_FILE), { force: true })
  await mkdir(runDir, { recursive: true })
  await clearRunRecord(runDir)
  // A report left by an earlier attempt would hide a runner that writes none (see below).
  await rm(join(runDir, 'report.json'), { force: true })
  try {
    const runScenario = await loadRunner()
    const report = await runScenario({ loaded, seed: job.seed, outDir: runDir, ...(msg.trace === true ? { trace: new TraceRecorder() } : {}) })
    // runScenario writes the run directory when given outDir; a runner that does not is covered here.
    if (!existsSync(join(runDir, 'report.json'))) await writeRunOutputs(report, runDir)
    const file = summaryFileOf(job, report)
    await writeRunSummary(runDir, file)
    return { type: 'done', key: job.key, file }
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err))
    const file: RunErrorFile = { ...identityOf(job), kind: 'error', message: e.message, ...(e.stack !== undefined ? { stack: e.stack } : {}) }
    await writeRunError(runDir, file)
    return { type: 'failed', key: job.key, file }
  }
}

if (process.send !== undefined) {
  process.on('message', (msg: RunJobMessage) => {
    if (msg.type !== 'run') return
    void runJob(msg).then(
      (reply) => process.send!(reply),
      (err: unknown) => {
        // Only writing error.json itself can fail here; let the parent record it as a crash.
        process.stderr.write(`sweep worker: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
        process.exit(1)
      },
    )
  })
  process.on('disconnect', () => process.exit(0))
}
