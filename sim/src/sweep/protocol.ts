/**
 * Messages between the sweep's parent process (pool.ts) and its worker processes (worker.ts),
 * over the `child_process.fork` IPC channel with structured-clone serialization. A worker runs
 * one job at a time and answers with the run's small summary, never the report.
 */
import type { LoadedScenario } from '../scenario/load.js'
import type { SweepJob } from './grid.js'
import type { RunErrorFile, RunSummaryFile } from './runFiles.js'

/** The environment variable naming a module to run jobs with instead of sim/src/run.ts. */
export const RUNNER_ENV = 'SIM_SWEEP_RUNNER'

/** Parent → worker: run this job and write its directory. */
export interface RunJobMessage {
  type: 'run'
  job: SweepJob
  loaded: LoadedScenario
  /** `<out>/runs/<job key>`. */
  runDir: string
  /** Record the run's determinism trace too (`<runDir>/trace.jsonl`). */
  trace?: boolean
}

/** Worker → parent: the job finished; summary.json is written. */
export interface JobDoneMessage {
  type: 'done'
  key: string
  file: RunSummaryFile
}

/** Worker → parent: the run threw; error.json is written. */
export interface JobFailedMessage {
  type: 'failed'
  key: string
  file: RunErrorFile
}

export type WorkerMessage = JobDoneMessage | JobFailedMessage
