/**
 * Hand-built summary.json contents for the risk figures' tests: the renderers' fixture summary
 * with the fields a test sets, and a keeper line per given keeper.
 */
import type { Summary } from '../../sim/src/report/types.js'
import type { RunSummaryFile } from '../../sim/src/sweep/runFiles.js'
import { reportFixture } from './reportFixture.js'

/** What a test sets per run: summary fields, and per keeper its profit, vault profit and win rate. */
export interface RunSpec {
  seed?: number
  summary?: Partial<Summary>
  keepers?: { profit: number; vaultProfit: number; winRate: number }[]
}

/** A finished run's summary file. */
export function summaryRun(spec: RunSpec): RunSummaryFile {
  const base = reportFixture()
  const keeper = base.keepers[0]!
  return {
    key: `seed=${spec.seed ?? 1}`,
    point: 'base',
    overrides: [],
    seed: spec.seed ?? 1,
    scenarioHash: '',
    summary: { ...base.summary, ...spec.summary },
    keepers: (spec.keepers ?? []).map((k, index) => ({ ...keeper, index, name: `k${index}`, ...k })),
  }
}
