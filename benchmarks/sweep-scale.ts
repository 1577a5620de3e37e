/**
 * Sweep-at-scale benchmark (sim/src/sweep): one scenario over many seeds on worker processes,
 * as a researcher runs "a thousand crashes".
 *
 *   runs per hour                 finished runs / wall hours, the whole sweep (aggregate included)
 *   simulated minutes per wall    runs × simulated minutes per run / wall minutes
 *   RSS                           the sweep process and its workers (each worker runs one
 *                                 sandbox node at a time, counted with it): when the 10th run
 *                                 finishes and when the last but two does (both workers still at
 *                                 work), plus the peak of a sample every second; flat memory means
 *                                 the late figure is close to the early one
 *
 *   shards                        the same scenario over --shard-runs seeds (default 20) once
 *                                 whole and once as two shards (--shard 0/2 and 1/2) merged:
 *                                 the aggregate and the runs table must be the same bytes
 *
 * Run: npx tsx benchmarks/sweep-scale.ts [--runs 1000] [--workers 2] [--scenario crash-bench] [--shard-runs 20]
 * Output directories: target/bench/sweep-scale/ and target/bench/sweep-scale-shard-check/
 * (both removed first; --keep keeps the main one to resume an interrupted
 * benchmark sweep instead, which the timing then does not describe). Prints one table and a final
 * JSON line; exits non-zero when runs fail or the shard check finds different bytes.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { REPO_ROOT } from '../sandbox/ts/launch.js'
import { stepsOf } from '../sim/src/run.js'
import { loadScenario } from '../sim/src/scenario/load.js'
import { textTable } from '../sim/src/report/summary.js'
import { mergeSweeps, runSweep } from '../sim/src/sweep/index.js'

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback
}

const log = (line: string) => process.stderr.write(`${line}\n`)
const mb = (kb: number) => Math.round(kb / 1024)

/** Resident memory (kB) of a process from /proc. */
function rssKb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m ? Number(m[1]) : 0
  } catch {
    return 0
  }
}

/** Every process below `root` (children, grandchildren, ...). */
function descendants(root: number): number[] {
  const parent = new Map<number, number>()
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8')
      // pid (comm) state ppid ...: the command may hold spaces, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      parent.set(Number(d), ppid)
    } catch {
      // the process ended while listing
    }
  }
  const out: number[] = []
  const queue = [root]
  while (queue.length > 0) {
    const p = queue.shift()!
    for (const [child, pp] of parent) if (pp === p) (out.push(child), queue.push(child))
  }
  return out
}

interface Sample {
  parentKb: number
  totalKb: number
}

function sample(): Sample {
  const parentKb = rssKb(process.pid)
  return { parentKb, totalKb: parentKb + descendants(process.pid).reduce((t, p) => t + rssKb(p), 0) }
}

/**
 * What a merge must reproduce. The auctions and keepers tables are left out here: they carry the
 * XLM fees, which depend on the keepers' submission lanes (sim/README.md, Determinism), so two
 * executions of one seed may differ there; merge.test.ts checks those tables' bytes on copies.
 */
const COMPARED = ['aggregate.json', 'aggregate.csv', 'aggregate.html', 'runs.parquet', 'runs.csv']

/** One machine against two shards merged, on real runs: the files that differ (none expected). */
async function shardCheck(file: string, seeds: number, workers: number, out: string): Promise<string[]> {
  const quiet = { progress: 'none' as const, log: () => {} }
  await runSweep({ file, seeds, workers, out: join(out, 'whole'), ...quiet })
  for (const i of [0, 1]) await runSweep({ file, seeds, workers, out: join(out, `shard-${i}`), shard: `${i}/2`, ...quiet })
  await mergeSweeps([join(out, 'shard-0'), join(out, 'shard-1')], join(out, 'merged'), { log: () => {} })
  const differ: string[] = []
  for (const f of COMPARED) {
    const [a, b] = await Promise.all([readFile(join(out, 'whole', f)), readFile(join(out, 'merged', f))])
    if (!a.equals(b)) differ.push(f)
  }
  return differ
}

async function main(): Promise<void> {
  const runs = Number(arg('runs', '1000'))
  const workers = Number(arg('workers', '2'))
  const name = arg('scenario', 'crash-bench')
  const file = join(REPO_ROOT, 'sim', 'scenarios', `${name}.yaml`)
  const out = join(REPO_ROOT, 'target', 'bench', 'sweep-scale')
  if (!process.argv.includes('--keep')) await rm(out, { recursive: true, force: true })
  await rm(`${out}-shard-check`, { recursive: true, force: true })
  const loaded = loadScenario(file)
  const simMinutesPerRun = (stepsOf(loaded) * loaded.scenario.run.ledgerSeconds) / 60

  const shardRuns = Number(arg('shard-runs', '20'))
  let differ: string[] | null = null
  if (shardRuns > 0) {
    log(`shard check: ${shardRuns} runs whole, then as two shards merged`)
    differ = await shardCheck(file, shardRuns, workers, `${out}-shard-check`)
  }
  if (differ !== null && differ.length > 0) log(`shard check: ${differ.join(', ')} differ`)

  let finished = 0
  let at10: Sample | undefined
  let peak: Sample = { parentKb: 0, totalKb: 0 }
  let late: Sample | undefined
  const sampler = setInterval(() => {
    const now = sample()
    peak = { parentKb: Math.max(peak.parentKb, now.parentKb), totalKb: Math.max(peak.totalKb, now.totalKb) }
  }, 1000)
  // Progress lines ("[  10/1000] key ok (3.2 s)") tell when the 10th and the last run finish.
  const stream = {
    write(chunk: string): boolean {
      process.stderr.write(chunk)
      for (const line of chunk.split('\n')) {
        if (!/^\[\s*\d+\/\d+\]/.test(line)) continue
        finished++
        if (finished === 10) at10 = sample()
        // Two runs before the end both workers are still at work (at the very end they exit).
        if (finished === runs - 2) late = sample()
      }
      return true
    },
  } as unknown as NodeJS.WritableStream
  log(`${name}: ${runs} runs of ${simMinutesPerRun} simulated minutes on ${workers} worker(s) → ${out}`)
  const t0 = performance.now()
  const result = await runSweep({ file, seeds: runs, workers, out, progress: 'lines', stream, log })
  const wallMs = performance.now() - t0
  clearInterval(sampler)
  const done = result.aggregate.points.reduce((n, p) => n + p.runs, 0)
  const end = late ?? sample()
  const runsPerHour = Math.round(done / (wallMs / 3_600_000))
  const simPerWall = Math.round(((done * simMinutesPerRun) / (wallMs / 60_000)) * 10) / 10
  const rows = [
    ['runs finished / failed', `${done} / ${result.failed.length}`],
    ['wall time', `${Math.round(wallMs / 1000)} s`],
    ['runs per hour', String(runsPerHour)],
    ['simulated minutes per wall minute', String(simPerWall)],
    ['RSS at run 10 (sweep process / with workers)', at10 ? `${mb(at10.parentKb)} / ${mb(at10.totalKb)} MB` : '—'],
    [`RSS at run ${runs - 2} (sweep process / with workers)`, `${mb(end.parentKb)} / ${mb(end.totalKb)} MB`],
    ['peak RSS (sweep process / with workers)', `${mb(peak.parentKb)} / ${mb(peak.totalKb)} MB`],
    ...(differ === null ? [] : [[`${shardRuns} runs: two shards merged vs one machine`, differ.length === 0 ? 'same bytes' : `differ: ${differ.join(', ')}`]]),
  ]
  process.stdout.write(textTable(['figure', 'value'], rows, ['left', 'right']) + '\n')
  const json = {
    scenario: name,
    runs: done,
    failed: result.failed.length,
    workers,
    wallSeconds: Math.round(wallMs / 1000),
    runsPerHour,
    simulatedMinutesPerWallMinute: simPerWall,
    shardCheck: differ === null ? null : { runs: shardRuns, identical: differ.length === 0, differ },
    rssMb: { at10: at10 ? { sweep: mb(at10.parentKb), withWorkers: mb(at10.totalKb) } : null, atRun: { run: runs - 2, sweep: mb(end.parentKb), withWorkers: mb(end.totalKb) }, peak: { sweep: mb(peak.parentKb), withWorkers: mb(peak.totalKb) } },
  }
  process.stdout.write(JSON.stringify(json) + '\n')
  process.exitCode = result.failed.length > 0 || (differ !== null && differ.length > 0) ? 1 : 0
}

await main()
