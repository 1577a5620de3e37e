/**
 * A one-node Slurm cluster in a temporary directory, for checking deploy/slurm/ on one machine:
 * its own munge key and munged (own socket, pid and seed files), a generated slurm.conf (this
 * machine as the only node, with the CPUs and memory `slurmd -C` finds, one partition, process
 * tracking through /proc and no cgroups, no accounting, two free ports), and slurmctld and slurmd
 * in the foreground as children of this process. Nothing is read from or written to /etc/slurm,
 * /etc/munge, /run or /var. `stop()` cancels the jobs left, stops the three daemons and removes
 * the directory. Runs as root (SlurmUser and SlurmdUser root); installs nothing: the packages
 * come from `bash scripts/setup.sh slurm`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmodSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'
import { runCaptured, type Run } from '../process/captured.js'
import { waitFor } from '../until.js'

/** The programs the cluster and the submit script need, with the Debian package holding each. */
const PROGRAMS: Array<[string, string]> = [
  ['munged', 'munge'],
  ['slurmctld', 'slurmctld'],
  ['slurmd', 'slurmd'],
  ['sbatch', 'slurm-client'],
  ['squeue', 'slurm-client'],
  ['sinfo', 'slurm-client'],
  ['scontrol', 'slurm-client'],
  ['scancel', 'slurm-client'],
]

function which(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0
}

/** Why the cluster cannot start here (programs missing), or null. */
export function missingSlurm(): string | null {
  const missing = PROGRAMS.filter(([cmd]) => !which(cmd))
  if (missing.length === 0) return null
  const packages = [...new Set(missing.map(([, pkg]) => pkg))]
  return `${missing.map(([cmd]) => cmd).join(', ')} not found (Debian packages ${packages.join(', ')}): run bash scripts/setup.sh slurm`
}

export type { Run }

/** `cmd args` with its output captured (see `runCaptured`). */
export function run(cmd: string, args: string[], opts: { env: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number }): Promise<Run> {
  return runCaptured(cmd, args, opts)
}

/** A command that must succeed, or an error with both streams' tails. */
export async function ok(cmd: string, args: string[], opts: Parameters<typeof run>[2]): Promise<Run> {
  const r = await run(cmd, args, opts)
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.code}\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`)
  return r
}

export { waitFor }

/** Two distinct TCP ports free on this machine right now. */
async function freePorts(n: number): Promise<number[]> {
  const servers: Server[] = []
  try {
    const ports: number[] = []
    for (let i = 0; i < n; i++) {
      const srv = createServer()
      servers.push(srv)
      ports.push(
        await new Promise<number>((resolve, reject) => {
          srv.once('error', reject)
          srv.listen(0, '127.0.0.1', () => {
            const a = srv.address()
            resolve(typeof a === 'object' && a ? a.port : 0)
          })
        }),
      )
    }
    return ports
  } finally {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))))
  }
}

/** This process's environment without Slurm's job and client variables (as inside an allocation), plus SLURM_CONF. */
function clusterEnv(conf: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) if (!/^(SLURM|SBATCH|SALLOC|SRUN|SQUEUE|SINFO|SCONTROL|SCANCEL)_/.test(k)) env[k] = v
  return { ...env, SLURM_CONF: conf }
}

/** Job states after which a job no longer runs (squeue's long names). */
const ENDED = new Set(['COMPLETED', 'FAILED', 'CANCELLED', 'TIMEOUT', 'NODE_FAIL', 'OUT_OF_MEMORY', 'PREEMPTED', 'BOOT_FAIL', 'DEADLINE'])

export interface JobRecord {
  jobId: string
  /** The array index of a task, or undefined for a job that is no array (or its still pending remainder, "0-1"). */
  arrayTaskId: string | undefined
  state: string
  exitCode: string
  startTime: string
  endTime: string
  runTime: string
  numCpus: string
  fields: Record<string, string>
}

/** `scontrol -o show job ID`: one record per job, or per array task once it has started. */
export function parseJobs(text: string): JobRecord[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('JobId='))
    .map((line) => {
      const fields: Record<string, string> = {}
      for (const m of line.matchAll(/(?:^|\s)([A-Za-z:/]+)=(\S*)/g)) if (!(m[1]! in fields)) fields[m[1]!] = m[2]!
      return {
        jobId: fields.JobId ?? '',
        arrayTaskId: fields.ArrayTaskId,
        state: fields.JobState ?? '',
        exitCode: fields.ExitCode ?? '',
        startTime: fields.StartTime ?? '',
        endTime: fields.EndTime ?? '',
        runTime: fields.RunTime ?? '',
        numCpus: fields.NumCPUs ?? '',
        fields,
      }
    })
}

export const hasEnded = (jobs: JobRecord[]) => jobs.length > 0 && jobs.every((j) => ENDED.has(j.state))

interface Daemon {
  name: string
  child: ChildProcess
  log: string
  exited: Promise<void>
  error?: Error
}

export interface LocalCluster {
  dir: string
  conf: string
  node: string
  cpus: number
  /** The environment for sbatch, squeue, scontrol …: SLURM_CONF pointing at this cluster. */
  env: NodeJS.ProcessEnv
  /** `scontrol -o show job ID` parsed. */
  jobs(id: string): Promise<JobRecord[]>
  /** The daemons' logs' tails, for failure messages. */
  logs(chars?: number): string
  /** Which daemon has exited, said, or undefined while all three run. */
  exited(): string | undefined
  stop(): Promise<void>
}

export interface LocalClusterOptions {
  /** Seconds a finished job stays in slurmctld's memory (scontrol show job); default 3600. */
  minJobAge?: number
}

/** Starts munged, slurmctld and slurmd in a new temporary directory and waits until the node is idle. */
export async function startLocalCluster(opts: LocalClusterOptions = {}): Promise<LocalCluster> {
  const missing = missingSlurm()
  if (missing !== null) throw new Error(missing)
  if (process.getuid?.() !== 0) throw new Error('the local Slurm cluster runs its daemons as root (SlurmUser=root)')

  const dir = mkdtempSync(join(tmpdir(), 'slurm-cluster-'))
  // munged wants every directory above its socket searchable by all and none writable by others.
  chmodSync(dir, 0o755)
  for (const d of ['munge', 'state', 'spool', 'log']) mkdirSync(join(dir, d), { mode: 0o755 })
  const daemons: Daemon[] = []
  const ended = (d: Daemon) => d.error !== undefined || d.child.exitCode !== null || d.child.signalCode !== null
  const killAll = () => {
    for (const d of daemons) if (!ended(d)) d.child.kill('SIGKILL')
  }
  // A test runner that exits without running afterAll still takes its daemons with it.
  process.once('exit', killAll)

  const start = (name: string, cmd: string, args: string[]): Daemon => {
    const log = join(dir, 'log', `${name}.out`)
    const fd = openSync(log, 'a')
    const child = spawn(cmd, args, { cwd: dir, env: clusterEnv(join(dir, 'slurm.conf')), stdio: ['ignore', fd, fd] })
    closeSync(fd)
    const d: Daemon = { name, child, log, exited: Promise.resolve() }
    // A program that cannot be started emits 'error' and no 'exit'.
    d.exited = new Promise<void>((resolve) => {
      child.once('exit', () => resolve())
      child.once('error', (err) => {
        d.error = err
        resolve()
      })
    })
    daemons.push(d)
    return d
  }
  const tail = (file: string, chars: number) => (existsSync(file) ? readFileSync(file, 'utf8').slice(-chars) : '')
  const logs = (chars = 2000) =>
    ['munged.out', 'slurmctld.out', 'slurmctld.log', 'slurmd.out', 'slurmd.log']
      .map((f) => `--- ${f}\n${tail(join(dir, 'log', f), chars)}`)
      .join('\n')
  /** The first of the daemons started that has exited, said, or undefined. */
  const whichExited = () => {
    const d = daemons.find(ended)
    return d === undefined ? undefined : `${d.name} ${d.error ? `did not start: ${d.error.message}` : `exited (${d.child.exitCode ?? d.child.signalCode})`}`
  }

  const stopDaemon = async (d: Daemon) => {
    if (ended(d)) return
    d.child.kill('SIGTERM')
    const timer = setTimeout(() => d.child.kill('SIGKILL'), 15_000)
    await d.exited
    clearTimeout(timer)
  }

  const conf = join(dir, 'slurm.conf')
  const env = clusterEnv(conf)
  const jobs = async (id: string) => parseJobs((await ok('scontrol', ['-o', 'show', 'job', id], { env })).stdout)

  const stop = async () => {
    try {
      const ctld = daemons.find((d) => d.name === 'slurmctld')
      if (ctld && !ended(ctld)) {
        // Jobs still queued or running are cancelled, and their processes gone, before slurmd stops.
        await run('scancel', ['--user', userInfo().username], { env, timeoutMs: 30_000 })
        await waitFor('the queue to empty', async () => ((await run('squeue', ['-h'], { env, timeoutMs: 10_000 })).stdout.trim() === '' ? true : undefined), 60_000).catch(
          () => undefined,
        )
      }
      for (const name of ['slurmd', 'slurmctld', 'munged']) {
        const d = daemons.find((x) => x.name === name)
        if (d) await stopDaemon(d)
      }
    } finally {
      killAll()
      process.removeListener('exit', killAll)
      rmSync(dir, { recursive: true, force: true })
    }
  }

  try {
    // munge: a key of this cluster only, and munged on its own socket.
    const key = join(dir, 'munge', 'munge.key')
    writeFileSync(key, randomBytes(128), { mode: 0o400 })
    const socket = join(dir, 'munge', 'munge.socket')
    start('munged', 'munged', [
      '--foreground',
      `--key-file=${key}`,
      `--socket=${socket}`,
      `--pid-file=${join(dir, 'munge', 'munged.pid')}`,
      `--seed-file=${join(dir, 'munge', 'munged.seed')}`,
      `--log-file=${join(dir, 'log', 'munged.log')}`,
    ])
    await waitFor('munged to open its socket', async () => (existsSync(socket) ? true : undefined), 30_000, whichExited)

    // This machine as `slurmd -C` sees it: NodeName=<host> CPUs= Boards= SocketsPerBoard= CoresPerSocket= ThreadsPerCore= RealMemory=
    const hw = spawnSync('slurmd', ['-C'], { encoding: 'utf8', env: clusterEnv(conf) })
    const nodeLine = hw.stdout.split('\n').find((l) => l.startsWith('NodeName='))
    if (hw.status !== 0 || nodeLine === undefined) throw new Error(`slurmd -C failed (exit ${hw.status}): ${hw.stderr}${hw.stdout}`)
    const node = /^NodeName=(\S+)/.exec(nodeLine)![1]!
    const cpus = Number(/\bCPUs=(\d+)/.exec(nodeLine)?.[1] ?? 1)
    const [ctldPort, slurmdPort] = await freePorts(2)
    writeFileSync(
      conf,
      [
        `ClusterName=simsweep${process.pid}`,
        `SlurmctldHost=${node}(127.0.0.1)`,
        `SlurmctldPort=${ctldPort}`,
        `SlurmdPort=${slurmdPort}`,
        'SlurmUser=root',
        'SlurmdUser=root',
        'AuthType=auth/munge',
        'CredType=cred/munge',
        `AuthInfo=socket=${socket}`,
        `StateSaveLocation=${join(dir, 'state')}`,
        `SlurmdSpoolDir=${join(dir, 'spool')}`,
        `SlurmctldPidFile=${join(dir, 'slurmctld.pid')}`,
        `SlurmdPidFile=${join(dir, 'slurmd.pid')}`,
        `SlurmctldLogFile=${join(dir, 'log', 'slurmctld.log')}`,
        `SlurmdLogFile=${join(dir, 'log', 'slurmd.log')}`,
        // Processes tracked through /proc, no task binding: no cgroups needed.
        'ProctrackType=proctrack/linuxproc',
        'TaskPlugin=task/none',
        'JobAcctGatherType=jobacct_gather/none',
        'AccountingStorageType=accounting_storage/none',
        'JobCompType=jobcomp/none',
        'MpiDefault=none',
        'SchedulerType=sched/backfill',
        // CPUs are the consumable: array tasks asking for one CPU each run side by side.
        'SelectType=select/cons_tres',
        'SelectTypeParameters=CR_CPU',
        'ReturnToService=2',
        'MailProg=/bin/true',
        `MinJobAge=${opts.minJobAge ?? 3600}`,
        `${nodeLine} NodeAddr=127.0.0.1 State=UNKNOWN`,
        `PartitionName=sweep Nodes=${node} Default=YES MaxTime=INFINITE State=UP`,
        '',
      ].join('\n'),
    )

    start('slurmctld', 'slurmctld', ['-D', '-f', conf])
    await waitFor('slurmctld to answer', async () => ((await run('scontrol', ['ping'], { env, timeoutMs: 10_000 })).stdout.includes('is UP') ? true : undefined), 60_000, whichExited)
    start('slurmd', 'slurmd', ['-D', '-f', conf, '-N', node])
    const idle = async () => ((await run('sinfo', ['-h', '-N', '-o', '%t'], { env, timeoutMs: 10_000 })).stdout.trim() === 'idle' ? true : undefined)
    await waitFor(`node ${node} idle`, idle, 60_000, whichExited)
    return { dir, conf, node, cpus, env, jobs, logs, exited: whichExited, stop }
  } catch (err) {
    const message = `${err instanceof Error ? err.message : String(err)}\n${logs()}`
    await stop()
    throw new Error(message)
  }
}
