/**
 * One simulation run: a fresh sandbox, the scenario's world, the lockstep loop, the core replay,
 * the audit; returns the report (and writes the run directory when `outDir` is given).
 */
import type { LoadedScenario } from './scenario/load.js'
import type { Report } from './report/types.js'

export interface RunOptions {
  loaded: LoadedScenario
  seed: number
  /** Write report.json, timeseries.csv and report.html here. */
  outDir?: string
  /** Called after every simulated ledger (progress bars). */
  onProgress?: (done: number, total: number) => void
  /** Progress lines (default: silent). */
  log?: (line: string) => void
}

export async function runScenario(_opts: RunOptions): Promise<Report> {
  throw new Error('runScenario: not implemented yet')
}
