/**
 * Auditor benchmark (src/audit): the audit of a vault with 1,000 real depositors, which must
 * finish in under 10 s on a 2-core machine.
 *
 *   world set-up        a fresh sandbox (1 s ledgers) and `deployWorld` with 1,000 depositors
 *                       (10k USDC each, deposited through the vault), then a few withdrawals, a
 *                       late deposit and two keeper draws returned with profit; the node runs with
 *                       `--instant` during set-up (a ledger closes as soon as a transaction is
 *                       accepted, so each submission's first poll finds it applied) and without
 *                       it afterwards (--no-instant keeps the interval throughout, for comparison);
 *                       each of deployWorld's phases is timed from its progress lines
 *   library             `audit(world.chain, addresses)`: the first run in the process (cold,
 *                       with every RPC request counted by method through a wrapper around
 *                       rpc.Server), then one warm-up and --reps timed runs (min / median / max
 *                       ms); the same through the RPC URL; concurrency 4 / 8 / 16 / 32 in one
 *                       table; per series the depositors invariant 6 saw, whether every report
 *                       holds, and the CPU time per run of this process and of the sandbox node
 *                       (where the time goes: the node answers one request at a time)
 *   command             `node --import tsx src/audit/cli.ts --addresses FILE --json` as a whole
 *                       process (--cli-runs after one warm-up): wall min / median / max, exit codes
 *                       (0 all hold, 1 broken, 2 unreadable), the audit's own time from the JSON
 *                       (`durationMs`), and the same command on a missing file (exit 2 after
 *                       loading every module: the start-up cost)
 *
 * Run: npx tsx benchmarks/audit.ts   (options: --depositors 1000 --reps 5 --cli-runs 5 --seed 11
 *      --ledger-interval 1 --no-instant; npm run bench -- audit)
 * The addresses file is written to target/bench/audit/addresses.json. Prints one table per part
 * and a final JSON line; exits non-zero when a report does not hold, the CLI does not exit 0, or
 * an audit of the default configuration (or the CLI's median) takes 10 s or more.
 */
import { spawn } from 'node:child_process'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { rpc } from '@stellar/stellar-sdk'
import { REPO_ROOT, startSandbox, type Sandbox } from '../sandbox/ts/launch.js'
import { textTable } from '../sim/src/report/summary.js'
import { audit, type AuditAddresses, type AuditOptions, type AuditReport, type AuditTarget } from '../src/audit/index.js'
import { addr, i128, invoke } from '../src/chain/index.js'
import { VaultContract } from '../src/keeper/clients/vault.js'
import { deployWorld, type World } from '../src/world/index.js'

const UNIT = 10_000_000n
const GOAL_MS = 10_000

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback
}

const log = (line: string) => process.stderr.write(`${line}\n`)
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b)
const median = (xs: number[]) => {
  const s = sorted(xs)
  const m = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}
const ms = (x: number) => x.toFixed(0)
const secs = (x: number) => (x / 1000).toFixed(1)

/** rpc.Server whose every request is counted by method. */
function countingServer(inner: rpc.Server): { server: rpc.Server; counts: Map<string, number> } {
  const counts = new Map<string, number>()
  const server = new Proxy(inner, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown
      if (typeof v !== 'function') return v
      const f = v as (...x: unknown[]) => unknown
      if (typeof prop !== 'string' || prop === 'constructor') return f.bind(target)
      return (...a: unknown[]) => {
        counts.set(prop, (counts.get(prop) ?? 0) + 1)
        return f.apply(target, a)
      }
    },
  })
  return { server, counts }
}

/** CPU time (ms, user + system) of a process from /proc; 0 when it cannot be read. */
function cpuMsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // fields[0] is the state (stat field 3): utime and stime are stat fields 14 and 15.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
  } catch {
    return 0
  }
}

/** The sandbox node this process started (a child named `sandbox`). */
function sandboxPid(): number | undefined {
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8')
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (ppid === process.pid && comm === 'sandbox') return Number(d)
    } catch {
      // the process ended while listing
    }
  }
  return undefined
}

const byId = (r: AuditReport, id: number) => r.invariants.find((i) => i.id === id)

interface Series {
  label: string
  times: number[]
  depositors: string
  holds: boolean
  /** CPU ms per run: this process, the sandbox node. */
  clientCpu: number
  nodeCpu: number
}

/** `reps` timed audits after `warmup` untimed ones. */
async function timeAudits(
  label: string,
  target: AuditTarget,
  addresses: AuditAddresses,
  opts: AuditOptions,
  reps: number,
  node: number | undefined,
  warmup = 0,
): Promise<Series> {
  for (let i = 0; i < warmup; i++) await audit(target, addresses, opts)
  const times: number[] = []
  let holds = true
  let depositors = ''
  const cpu0 = process.cpuUsage()
  const node0 = node === undefined ? 0 : cpuMsOf(node)
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now()
    const report = await audit(target, addresses, opts)
    times.push(performance.now() - t0)
    holds &&= report.holds
    depositors = byId(report, 6)?.figures.depositors ?? '?'
    if (!report.holds) {
      for (const r of report.invariants.filter((x) => !x.holds)) log(`${label}: invariant ${r.id} broken: ${r.detail}`)
    }
  }
  const cpu = process.cpuUsage(cpu0)
  const nodeCpu = node === undefined ? NaN : (cpuMsOf(node) - node0) / reps
  log(`${label}: ${times.map(ms).join(', ')} ms`)
  return { label, times, depositors, holds, clientCpu: (cpu.user + cpu.system) / 1000 / reps, nodeCpu }
}

/** The world's extra history: withdrawals (partial and whole), a late deposit, two draws returned with profit. */
async function addHistory(world: World, vault: VaultContract): Promise<string[]> {
  const done: string[] = []
  const d = world.depositors
  const vaultId = world.service!.vault
  if (d.length < 8) throw new RangeError('the benchmark needs at least 8 depositors')
  // Spread over the list when there are 1,000 or more depositors.
  const [a, b, c, e] = d.length >= 1_000 ? [3, 97, 501, 998] : [3, 4, 5, 6]
  for (const [i, part] of [
    [a, 2n],
    [b, 3n],
    [c, 1n],
    [e, 4n],
  ] as const) {
    const who = d[i]!
    const shares = (await vault.getDepositor(who.publicKey())).shares
    await invoke(world.chain, who, vaultId, 'withdraw', [addr(who.publicKey()), i128(shares / part)])
  }
  done.push('4 withdrawals (one whole)')
  await world.mint('USDC', d[7]!.publicKey(), 25_000n * UNIT)
  await vault.deposit(d[7]!, 25_000n * UNIT)
  done.push('1 further deposit')
  const [k0, k1] = world.keepers
  await vault.draw(k0!, 50_000n * UNIT)
  const p0 = await vault.returnProceeds(k0!, 51_234_5678901n, 40)
  await vault.draw(k1!, 12_000n * UNIT)
  const p1 = await vault.returnProceeds(k1!, 12_321n * UNIT, 120)
  done.push(`2 draws returned with ${(Number(p0 + p1) / 1e7).toFixed(2)} USDC profit`)
  return done
}

interface CliRun {
  wallMs: number
  code: number | null
  stdout: string
  stderr: string
}

function runCli(cli: string, addressesFile: string): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now()
    const child = spawn(process.execPath, ['--import', 'tsx', cli, '--addresses', addressesFile, '--json'], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()))
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()))
    child.once('error', reject)
    child.once('close', (code) => resolve({ wallMs: performance.now() - t0, code, stdout, stderr }))
  })
}

/** `holds` and `durationMs` (the audit inside the process) of the CLI's JSON document, when present. */
function cliDocument(stdout: string): { holds: string; durationMs: number | undefined } {
  try {
    const doc = JSON.parse(stdout) as { holds?: unknown; durationMs?: unknown }
    return {
      holds: typeof doc.holds === 'boolean' ? String(doc.holds) : '—',
      durationMs: typeof doc.durationMs === 'number' ? doc.durationMs : undefined,
    }
  } catch {
    return { holds: '—', durationMs: undefined }
  }
}

/** min / median / max of a series, as table cells. */
const spread = (xs: number[]) => {
  const t = sorted(xs)
  return [ms(t[0]!), ms(median(t)), ms(t[t.length - 1]!)]
}

async function main(): Promise<void> {
  const nDepositors = Number(arg('depositors', '1000'))
  const reps = Number(arg('reps', '5'))
  const cliRuns = Number(arg('cli-runs', '5'))
  const seed = Number(arg('seed', '11'))
  const interval = Number(arg('ledger-interval', '1'))
  const instant = !process.argv.includes('--no-instant')
  const addressesFile = join(REPO_ROOT, 'target', 'bench', 'audit', 'addresses.json')
  const failures: string[] = []

  const started = performance.now()
  const sandbox: Sandbox = await startSandbox({ port: 0, ledgerIntervalSeconds: interval, instant })
  try {
    const node = sandboxPid()
    log(`deploying a world with ${nDepositors} depositors (${instant ? 'instant ledgers' : `${interval} s ledgers`})...`)
    const phases: [string, number][] = []
    const t0 = performance.now()
    const world = await deployWorld(sandbox, {
      seed,
      depositors: nDepositors,
      depositAmount: 10_000n * UNIT,
      borrowers: 2,
      keepers: 2,
      keeperUsdc: 20_000n * UNIT,
      addressesFile,
      log: (line) => phases.push([line, performance.now()]),
    })
    const worldMs = performance.now() - t0
    const addresses: AuditAddresses = { vault: world.service!.vault, registry: world.service!.registry, usdc: world.usdc.contract }
    const vault = new VaultContract(world.chain, addresses.vault)
    const t1 = performance.now()
    const history = await addHistory(world, vault)
    const historyMs = performance.now() - t1
    if (instant) await sandbox.call('sandbox_setInstant', { enabled: false })
    // deployWorld's progress lines start its phases: each phase lasts until the next line.
    const phaseRows = phases.slice(0, -1).map(([name, t], i) => [`  ${name}`, `${secs(phases[i + 1]![1] - t)} s`])
    const at = (name: string) => phases.find(([l]) => l === name)?.[1] ?? NaN
    // The service phase: vault and registry deployed and linked, every deposit, keeper registrations.
    const serviceMs = at('world ready') - at('service vault and registry')
    const state = await vault.getState()
    const latest = await sandbox.server.getLatestLedger()
    log(`world ready in ${secs(worldMs)} s; ${history.join(', ')}`)

    const setupRows = [
      ['sandbox ledgers during set-up', instant ? `instant (a ledger per transaction), then ${interval} s` : `${interval} s`],
      [`deployWorld, ${nDepositors} depositors (phases below)`, `${secs(worldMs)} s`],
      ...phaseRows,
      [`then: ${history.join(', ')}`, `${secs(historyMs)} s`],
      ['vault total_usdc / total_shares', `${(Number(state.totalUsdc) / 1e7).toFixed(2)} / ${(Number(state.totalShares) / 1e7).toFixed(2)}`],
      ['ledgers on the node', String(latest.sequence)],
    ]
    process.stdout.write(`\nworld set-up (seed ${seed})\n${textTable(['step', 'time'], setupRows, ['left', 'right'])}\n`)

    // The first audit in this process (the code not yet optimised by the JIT, as in a fresh CLI
    // process), with every RPC request counted at the client.
    const counting = countingServer(sandbox.server)
    const tc = performance.now()
    const countedReport = await audit({ server: counting.server, networkPassphrase: sandbox.networkPassphrase }, addresses)
    const firstMs = performance.now() - tc
    if (!countedReport.holds) failures.push('first audit: report does not hold')
    if (firstMs >= GOAL_MS) failures.push(`first audit: ${ms(firstMs)} ms, goal < ${GOAL_MS} ms`)
    const requests = [...counting.counts.entries()].sort((a, b) => b[1] - a[1])
    const totalRequests = requests.reduce((n, [, c]) => n + c, 0)
    const simulations = counting.counts.get('simulateTransaction') ?? 0
    const events = byId(countedReport, 5)?.figures ?? {}

    const series: Series[] = []
    series.push(await timeAudits('audit(world.chain), concurrency 8 (default)', world.chain, addresses, {}, reps, node, 1))
    series.push(await timeAudits('audit(rpc url), concurrency 8 (default)', sandbox.rpcUrl, addresses, {}, reps, node))
    for (const c of [4, 8, 16, 32]) {
      series.push(await timeAudits(`audit(world.chain), concurrency ${c}`, world.chain, addresses, { concurrency: c }, reps, node))
    }
    const defaults = series.slice(0, 2)
    for (const s of series) if (!s.holds) failures.push(`${s.label}: report does not hold`)
    for (const s of defaults) {
      if (Math.max(...s.times) >= GOAL_MS) failures.push(`${s.label}: ${ms(Math.max(...s.times))} ms, goal < ${GOAL_MS} ms`)
      if (s.depositors !== String(nDepositors)) failures.push(`${s.label}: invariant 6 saw ${s.depositors} depositors, expected ${nDepositors}`)
    }

    const rows = [
      [
        'first audit in the process (requests counted)',
        ...spread([firstMs]),
        byId(countedReport, 6)?.figures.depositors ?? '?',
        String(countedReport.holds),
        '—',
        '—',
      ],
    ]
    rows.push(...series.map((s) => {
      return [
        s.label,
        ...spread(s.times),
        s.depositors,
        String(s.holds),
        ms(s.clientCpu),
        Number.isNaN(s.nodeCpu) ? '—' : ms(s.nodeCpu),
      ]
    }))
    process.stdout.write(
      `\naudit of ${nDepositors} depositors, ${reps} runs each after the first (the default series after one more warm-up run)\n` +
        textTable(
          ['run', 'min ms', 'median ms', 'max ms', 'depositors (inv. 6)', 'holds', 'client CPU ms/run', 'node CPU ms/run'],
          rows,
          ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
        ) +
        '\n',
    )
    const perSim = median(series[0]!.times) / Math.max(1, totalRequests)
    process.stdout.write(
      `\nrequests per audit: ${totalRequests} (${requests.map(([m, c]) => `${m} ${c}`).join(', ')}); ` +
        `${simulations} simulations; ${events.events ?? '?'} vault events read; ` +
        `${perSim.toFixed(2)} ms per request at the default median\n`,
    )

    // The command a user runs.
    const cli = join(REPO_ROOT, 'src', 'audit', 'cli.ts')
    let cliSummary: Record<string, unknown> | null = null
    log(`CLI: 1 warm-up + ${cliRuns} runs, then ${Math.min(3, cliRuns)} on a missing addresses file`)
    const warm = await runCli(cli, addressesFile)
    const runs: CliRun[] = []
    for (let i = 0; i < cliRuns; i++) runs.push(await runCli(cli, addressesFile))
    // Start-up cost: the same command on a file that does not exist loads every module, then exits 2.
    const missing = join(REPO_ROOT, 'target', 'bench', 'audit', 'no-such-file.json')
    const bad: CliRun[] = []
    for (let i = 0; i < Math.min(3, cliRuns); i++) bad.push(await runCli(cli, missing))
    const wall = runs.map((r) => r.wallMs)
    const codes = [...new Set(runs.map((r) => r.code))]
    const badCodes = [...new Set(bad.map((r) => r.code))]
    const docs = runs.map((r) => cliDocument(r.stdout))
    const inside = docs.flatMap((d) => (d.durationMs === undefined ? [] : [d.durationMs]))
    const holds = [...new Set(docs.map((d) => d.holds))].join(', ')
    if (codes.length !== 1 || codes[0] !== 0) {
      failures.push(`CLI exit codes ${codes.join(', ')} (expected 0)`)
      log(`CLI stderr: ${runs[0]!.stderr.slice(0, 2000)}`)
    }
    if (median(wall) >= GOAL_MS) failures.push(`CLI: median ${ms(median(wall))} ms, goal < ${GOAL_MS} ms`)
    const rel = join('target', 'bench', 'audit')
    process.stdout.write(
      `\ncommand: node --import tsx src/audit/cli.ts --addresses FILE --json (whole process, 1 warm-up run of ${ms(warm.wallMs)} ms not counted)\n` +
        textTable(
          ['run', 'runs', 'min ms', 'median ms', 'max ms', 'exit codes', 'holds (JSON)'],
          [
            [`--addresses ${rel}/addresses.json`, String(runs.length), ...spread(wall), codes.join(', '), holds],
            ...(inside.length > 0 ? [['  of which the audit (JSON durationMs)', String(inside.length), ...spread(inside), '', '']] : []),
            [`--addresses ${rel}/no-such-file.json (start-up only)`, String(bad.length), ...spread(bad.map((r) => r.wallMs)), badCodes.join(', '), '—'],
          ],
          ['left', 'right', 'right', 'right', 'right', 'right', 'right'],
        ) +
        '\n',
    )
    cliSummary = {
      runs: runs.length,
      minMs: Math.round(Math.min(...wall)),
      medianMs: Math.round(median(wall)),
      maxMs: Math.round(Math.max(...wall)),
      exitCodes: codes,
      holds,
      auditMedianMs: inside.length > 0 ? Math.round(median(inside)) : null,
      missingFileMedianMs: Math.round(median(bad.map((r) => r.wallMs))),
      missingFileExitCodes: badCodes,
    }

    const json = {
      depositors: nDepositors,
      setupSeconds: Math.round(worldMs / 100) / 10,
      servicePhaseSeconds: Math.round(serviceMs / 100) / 10,
      requests: Object.fromEntries(requests),
      firstAuditMs: Math.round(firstMs),
      audits: series.map((s) => ({
        label: s.label,
        minMs: Math.round(Math.min(...s.times)),
        medianMs: Math.round(median(s.times)),
        maxMs: Math.round(Math.max(...s.times)),
        depositors: Number(s.depositors),
        holds: s.holds,
      })),
      cli: cliSummary,
      goalMs: GOAL_MS,
      failures,
      wallSeconds: Math.round((performance.now() - started) / 1000),
    }
    process.stdout.write(JSON.stringify(json) + '\n')
  } finally {
    await sandbox.stop()
  }
  for (const f of failures) log(`FAILED: ${f}`)
  process.exitCode = failures.length === 0 ? 0 : 1
}

await main()
