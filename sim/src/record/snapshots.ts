/**
 * Ledger snapshots of a run (`--snapshot-at`): the chain state at chosen steps written as
 * soroban LedgerSnapshot JSON files (`sandbox_dumpSnapshot`), each a soroban-sdk test fixture or a
 * start for `npm run sandbox -- --snapshot FILE`.
 *
 * A step counts ledgers since the start of the run (0 = the world as set up, before the first
 * close). Fast-forward closes several ledgers in one call, so a step's file holds the first close
 * at or after it; `end` is the state after the last ledger. Files are
 * `<outDir>/snapshots/step-<step>-ledger-<sequence>.json`.
 */
import { mkdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'

export type SnapshotStep = number | 'end'

/** A bad `--snapshot-at` / `snapshotAt` value (the CLI's exit 2). */
export class SnapshotOptionError extends Error {
  override name = 'SnapshotOptionError'
}

export interface SnapshotFile {
  step: SnapshotStep
  /** The ledger the file holds (its `sequence_number`). */
  ledger: number
  path: string
}

/** Writes the node's state at its latest ledger to `path`; returns that ledger's sequence. */
export type DumpSnapshot = (path: string) => Promise<number>

/** `--snapshot-at 10,120,end` (the option may also repeat): non-negative integers or `end`. */
export function parseSnapshotAt(values: string | string[]): SnapshotStep[] {
  const parts = (Array.isArray(values) ? values : [values]).flatMap((v) => v.split(','))
  return parts.map((raw) => {
    const s = raw.trim()
    if (s === 'end') return 'end'
    if (!/^\d+$/.test(s)) throw new SnapshotOptionError(`--snapshot-at ${JSON.stringify(raw)}: expected a step (an integer >= 0, ledgers since the start of the run) or end`)
    return Number(s)
  })
}

/** Refuses steps a run of `steps` ledgers never reaches, and snapshots without a run directory. */
export function checkSnapshotAt(at: readonly SnapshotStep[], steps: number, outDir: string | undefined): void {
  for (const s of at) {
    if (s !== 'end' && (!Number.isInteger(s) || s < 0)) throw new SnapshotOptionError(`snapshot step ${String(s)}: expected an integer >= 0 or end`)
    if (s !== 'end' && s > steps) throw new SnapshotOptionError(`snapshot step ${s} is beyond the run, which is ${steps} ledgers long (steps 0–${steps}, or end)`)
  }
  if (at.length > 0 && outDir === undefined) throw new SnapshotOptionError('snapshots are written into the run directory: give an outDir (--out) with snapshotAt')
}

/** The requested steps still to write, and the files written so far. */
export class Snapshots {
  readonly files: SnapshotFile[] = []
  private readonly pending: number[]
  private readonly atEnd: boolean
  private readonly dir: string

  constructor(
    at: readonly SnapshotStep[],
    outDir: string | undefined,
    private readonly dump: DumpSnapshot,
    private readonly onFile: (f: SnapshotFile) => void = () => {},
  ) {
    this.pending = [...new Set(at.filter((s): s is number => s !== 'end'))].sort((a, b) => a - b)
    this.atEnd = at.includes('end')
    this.dir = join(resolve(outDir ?? '.'), 'snapshots')
  }

  /** After a close that brought the run to `step` (ledger `ledger`); also at step 0 before the first close. */
  async reached(step: number, ledger: number): Promise<void> {
    while (this.pending.length > 0 && this.pending[0]! <= step) await this.write(this.pending.shift()!, ledger)
  }

  /** After the run's last ledger. */
  async end(ledger: number): Promise<void> {
    if (this.atEnd) await this.write('end', ledger)
  }

  private async write(step: SnapshotStep, ledger: number): Promise<void> {
    await mkdir(this.dir, { recursive: true })
    const path = join(this.dir, `step-${step}-ledger-${ledger}.json`)
    const written = await this.dump(path)
    if (written !== ledger) throw new Error(`snapshot ${path}: the node wrote ledger ${written}, not ${ledger}`)
    const file = { step, ledger, path }
    this.files.push(file)
    this.onFile(file)
  }
}
