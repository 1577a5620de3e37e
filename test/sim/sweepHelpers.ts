/**
 * Shared pieces of the sweep tests: a shipped scenario to sweep, the fake runner's path and
 * temporary output directories.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const HERE = dirname(fileURLToPath(import.meta.url))
export const REPO = resolve(HERE, '..', '..')

/** A shipped scenario: any valid one will do, the fake runner never simulates it. */
export const SWEEP_SCENARIO = join(REPO, 'sim', 'scenarios', 'calm.yaml')

/** The fake runner module (test/sim/sweepFakeRunner.ts) for `runSweep({ runner })`. */
export const FAKE_RUNNER = join(HERE, 'sweepFakeRunner.ts')

/** A fresh temporary directory and its cleanup. */
export function tempDir(prefix = 'sim-sweep-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}
