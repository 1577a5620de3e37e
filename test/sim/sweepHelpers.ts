/**
 * Shared pieces of the sweep tests: a shipped scenario to sweep, the fake runner's path and
 * temporary output directories.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect } from 'vitest'

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

/** A merged sweep's aggregate.json and aggregate.csv are a one-machine sweep's, byte for byte. */
export function expectSameAggregates(merged: string, oneMachine: string): void {
  for (const file of ['aggregate.json', 'aggregate.csv']) {
    const mergedBytes = readFileSync(join(merged, file))
    const oneBytes = readFileSync(join(oneMachine, file))
    // The text first, so that a difference shows where it is.
    expect(mergedBytes.toString('utf8'), file).toBe(oneBytes.toString('utf8'))
    expect(mergedBytes.equals(oneBytes), file).toBe(true)
  }
}
