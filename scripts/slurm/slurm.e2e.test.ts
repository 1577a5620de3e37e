/**
 * deploy/slurm/ on a one-node Slurm cluster this test starts by itself (test/slurm/localCluster.ts:
 * its own munged, slurmctld and slurmd in a temporary directory, on free ports):
 *   1. deploy/slurm/submit.sh submits a small sweep as a job array of 2 shards (1 worker each)
 *      and the merge job that depends on it (afterok)
 *   2. both array tasks and then the merge complete; each shard holds its 2 runs, the merged
 *      directory all 4
 *   3. the same sweep on this machine alone (`npm run sim -- sweep ... --workers 2`): the merged
 *      aggregate.json and aggregate.csv are its bytes
 * Fails, saying to run `bash scripts/setup.sh slurm`, where Debian's slurm-wlm or munge is
 * missing; skips, saying why, when not root (the daemons run as root). Every daemon is stopped
 * and every directory removed in afterAll. Prints the figures at the end.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureSandboxBinary, REPO_ROOT } from '../../sandbox/ts/launch.js'
import { expectSameAggregates } from '../../test/sim/sweepHelpers.js'
import { hasEnded, missingSlurm, ok, run, startLocalCluster, waitFor, type JobRecord, type LocalCluster } from '../../test/slurm/localCluster.js'

const reason = process.getuid?.() !== 0 ? 'not root: slurmctld and slurmd run as root (SlurmUser=root)' : null
if (reason !== null) console.log(`[slurm.e2e] skipped: ${reason}`)

const figures: Array<[string, string]> = []
const figure = (what: string, value: string) => void figures.push([what, value])
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`

/** A small sweep: 2 grid points x 2 seeds of the short crash scenario. */
const SWEEP = ['sim/scenarios/crash-short.yaml', '--set', 'keepers.minProfit=1.01,1.05', '--seeds', '2', '--seed-base', '1']
const RUNS = 4
const SHARDS = 2

describe.skipIf(reason !== null)('Slurm job array and dependent merge (deploy/slurm)', () => {
  let cluster: LocalCluster | undefined
  let work: string | undefined

  beforeAll(async () => {
    const missing = missingSlurm()
    if (missing !== null) throw new Error(missing)
    ensureSandboxBinary()
    const start = Date.now()
    cluster = await startLocalCluster()
    figure(`one-node cluster (munged, slurmctld, slurmd; node ${cluster.node}, ${cluster.cpus} CPUs) to idle`, secs(Date.now() - start))
  }, 180_000)

  afterAll(async () => {
    await cluster?.stop()
    if (work !== undefined) rmSync(work, { recursive: true, force: true })
    if (cluster !== undefined) expect(existsSync(cluster.dir)).toBe(false)
    if (figures.length > 0) console.log(['[slurm.e2e] figures', ...figures.map(([k, v]) => `  ${k}: ${v}`)].join('\n'))
  }, 120_000)

  it("submit.sh: 2 array tasks, then the merge after them; the merged aggregate is one machine's, byte for byte", async () => {
    const c = cluster!
    work = mkdtempSync(join(tmpdir(), 'slurm-sweep-'))
    const out = join(work, 'cluster')
    const oneMachine = join(work, 'one-machine')
    const logTails = () => {
      const logs = join(out, 'logs')
      const files = existsSync(logs) ? readdirSync(logs) : []
      return [...files.map((f) => `--- ${f}\n${readFileSync(join(logs, f), 'utf8').slice(-2000)}`), c.logs()].join('\n')
    }
    const describeJobs = (jobs: JobRecord[]) => jobs.map((j) => `${j.jobId}${j.arrayTaskId === undefined ? '' : `_${j.arrayTaskId}`} ${j.state} ${j.exitCode}`).join(', ')

    const start = Date.now()
    const submitted = await ok(
      'bash',
      [join(REPO_ROOT, 'deploy', 'slurm', 'submit.sh'), '--out', out, '--shards', String(SHARDS), '--workers', '1', '--sbatch', '--time=20', '--parsable', ...SWEEP],
      { env: c.env, cwd: REPO_ROOT, timeoutMs: 60_000 },
    )
    const [arrayId, mergeId] = submitted.stdout.trim().split(' ')
    expect(arrayId, submitted.stdout).toMatch(/^\d+$/)
    expect(mergeId, submitted.stdout).toMatch(/^\d+$/)

    // The merge waits for the array; a failed shard cancels it (kill-on-invalid-dep).
    const merge = await c.jobs(mergeId!)
    expect(merge[0]?.fields.Dependency, describeJobs(merge)).toMatch(new RegExp(`^afterok:${arrayId}(_\\*)?\\(`))

    const tasks = await waitFor(
      'the array tasks to end',
      async () => {
        const jobs = await c.jobs(arrayId!)
        return hasEnded(jobs) && jobs.length === SHARDS ? jobs : undefined
      },
      1_200_000,
      c.exited,
    ).catch((err: Error) => Promise.reject(new Error(`${err.message}\n${logTails()}`)))
    const arrayDone = Date.now()
    figure(`job array: submit to both shards done (${RUNS / SHARDS} runs each, 1 worker, ${SHARDS} tasks side by side)`, secs(arrayDone - start))
    for (const t of tasks) figure(`  task ${t.arrayTaskId}: RunTime (scontrol)`, t.runTime)
    expect(
      tasks.map((t) => [t.arrayTaskId, t.state, t.exitCode, t.numCpus]).sort(),
      logTails(),
    ).toEqual(Array.from({ length: SHARDS }, (_, i) => [String(i), 'COMPLETED', '0:0', '1']))

    const merged = await waitFor('the merge job to end', async () => {
      const jobs = await c.jobs(mergeId!)
      return hasEnded(jobs) ? jobs[0]! : undefined
    }, 600_000, c.exited).catch((err: Error) => Promise.reject(new Error(`${err.message}\n${logTails()}`)))
    figure('merge job: last shard done to merge done (scheduling included)', secs(Date.now() - arrayDone))
    figure('  merge: RunTime (scontrol)', merged.runTime)
    figure('submit to merged', secs(Date.now() - start))
    expect([merged.state, merged.exitCode], logTails()).toEqual(['COMPLETED', '0:0'])
    // The merge started after the last shard ended.
    expect(merged.startTime >= tasks.map((t) => t.endTime).sort().at(-1)!).toBe(true)

    for (let i = 0; i < SHARDS; i++) {
      expect(readdirSync(join(out, `shard-${i}`, 'runs')), `shard-${i}`).toHaveLength(RUNS / SHARDS)
      expect(readFileSync(join(out, 'logs', `sweep-${arrayId}_${i}.log`), 'utf8')).toContain(`shard ${i}/${SHARDS}`)
    }
    expect(readdirSync(join(out, 'merged', 'runs'))).toHaveLength(RUNS)
    expect((await run('squeue', ['-h'], { env: c.env })).stdout.trim()).toBe('')

    const alone = await ok('npm', ['run', '--silent', 'sim', '--', 'sweep', ...SWEEP, '--workers', '2', '--out', oneMachine], {
      env: process.env,
      cwd: REPO_ROOT,
      timeoutMs: 1_200_000,
    })
    figure(`one machine: the same sweep (${RUNS} runs, 2 workers)`, secs(alone.ms))
    expectSameAggregates(join(out, 'merged'), oneMachine)
  }, 1_800_000)
})
