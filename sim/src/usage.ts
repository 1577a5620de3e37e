/**
 * `npm run sim` on the command line: the `run` and `list` commands' options and usage (the
 * `sweep` and `merge` ones are in sweepCli.ts). Each command prints its text on `--help` / `-h`.
 */
import type { ParseArgsOptionsConfig } from 'node:util'
import { MERGE_SYNOPSIS, SWEEP_SYNOPSIS } from './sweepCli.js'

export const RUN_OPTIONS = {
  seed: { type: 'string' },
  out: { type: 'string' },
  set: { type: 'string', multiple: true },
  'snapshot-at': { type: 'string', multiple: true },
  'check-determinism': { type: 'boolean' },
  snapshot: { type: 'string' },
  'fork-url': { type: 'string' },
  figures: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsOptionsConfig

const RUN_SYNOPSIS = 'npm run sim -- run <scenario> [options]'
const LIST_SYNOPSIS = 'npm run sim -- list'

export const RUN_USAGE = `usage: ${RUN_SYNOPSIS}

Runs one seeded scenario against a fresh sandbox and writes report.json, report.html,
timeseries.csv and keepers.log. <scenario> is a YAML file or the name of a shipped one
(npm run sim -- list).

options:
  --seed N                  the seed (default: the scenario's run.seed, 1 when it gives none)
  --out DIR                 where the run is written (default runs/<name>-seed<N>: the scenario's
                            name and the seed, e.g. runs/crash-30-seed7)
  --set path=value          override one scenario field, e.g. --set keepers.count=5 (repeatable;
                            default: none)
  --snapshot-at STEP[,STEP...|end]
                            also write the chain state at these steps (ledgers since the start;
                            repeatable; default: none)
  --check-determinism       run the seed twice and compare the runs (exit 1 on a difference;
                            default: off)
  --snapshot FILE           start a found world from this LedgerSnapshot file (default: the
                            scenario's world.from)
  --fork-url URL            start a found world by forking this RPC (default: the scenario's
                            world.from)
  --figures FILE            also record the run's figures (wall time, LP return, auctions, fills,
                            the summary table) in this figures file, e.g. docs/figures.json, with
                            the command, commit, date and machine (the scenario as shipped: not
                            with --set; default: none)
  -h, --help                this text

exit status: 0 done, 1 the replay or the audit failed (or the runs differ), 2 bad input

example:
  npm run sim -- run crash-30 --seed 7 --out runs/crash-30 --set keepers.count=5`

export const LIST_USAGE = `usage: ${LIST_SYNOPSIS}

Lists the shipped scenarios (sim/scenarios/*.yaml) with the first line of each description.
No options besides -h, --help.

example:
  npm run sim -- list`

export const SIM_USAGE = `usage: ${RUN_SYNOPSIS}
       ${LIST_SYNOPSIS}
       ${SWEEP_SYNOPSIS}
       ${MERGE_SYNOPSIS}

commands:
  run     one seeded scenario, with its report (runs/<name>-seed<N> by default)
  list    the shipped scenarios
  sweep   a scenario over a grid of --set values and seeds, with aggregate figures
  merge   the shards of a sweep into one aggregate

npm run sim -- <command> --help shows a command's options and their defaults.

example:
  npm run sim -- run crash-30 --seed 7`
