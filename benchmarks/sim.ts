/**
 * Simulator benchmark (sim/): how fast the research harness runs.
 *
 *   fidelity  crash-30 with 100 borrowers and 3 keepers at full fidelity (run.fastForward false:
 *             every ledger is acted on by every keeper); simulated minutes per wall minute over
 *             the lockstep loop, set-up (sandbox, world, agents) timed apart. Goal >= 600.
 *   fidelity-1000  the same with 1,000 borrowers, the lender's USDC and the DEX pools scaled
 *             with the pool (not in the default set: --only fidelity-1000). Goal >= 48.
 *   snapshot-500  a pool found in a snapshot (world.from): an upstream sandbox with 500 borrowers
 *             deployed under another seed, dumped to a LedgerSnapshot file, then a 1 h WETH crash
 *             started from that file; the upstream, the dump, the set-up and the loop timed apart
 *             (not in the default set: --only snapshot-500). Goal >= 150.
 *   day       calm-then-crash: 24 simulated hours, fast-forward on (the default). Whole wall
 *             time, set-up included. Goal <= 5 min.
 *   sweep     crash-short over N seeds on 1 worker, then on 2 workers (one sandbox each):
 *             wall-time speed-up.
 *
 * Run: npx tsx benchmarks/sim.ts [--only fidelity,fidelity-1000,snapshot-500,day,sweep] [--sweep-seeds 4] [--ledger-seconds 2.5] [--figures docs/figures.json]
 * `--figures FILE` also records each part's figures in that figures file under `bench.sim.<part>`
 * (sim/src/report/figures.ts: with the command, commit, date and machine).
 * `--ledger-seconds` runs the fidelity and snapshot parts on ledgers of that length (the same
 * simulated time, so more ledgers).
 * Run directories: target/bench/sim/. Prints one table and a final JSON line; exits non-zero
 * only when a run itself fails (core replay mismatch, audit, a crashed sweep run), never for a
 * missed goal.
 */
import { join, resolve } from 'node:path'
import { mkdir, rm, stat, writeFile } from 'node:fs/promises'
import { REPO_ROOT, startSandbox } from '../sandbox/ts/launch.js'
import { deployWorld } from '../src/world/index.js'
import { runScenario, stepsOf } from '../sim/src/run.js'
import { loadScenario, type Override } from '../sim/src/scenario/load.js'
import { textTable } from '../sim/src/report/summary.js'
import { figuresOf, loadNow, provenance, upsertFigures } from '../sim/src/report/figures.js'
import type { Report } from '../sim/src/report/types.js'
import { runSweep } from '../sim/src/sweep/index.js'

const OUT = join(REPO_ROOT, 'target', 'bench', 'sim')
const scenarioFile = (name: string) => (name.endsWith('.yaml') ? name : join(REPO_ROOT, 'sim', 'scenarios', `${name}.yaml`))

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback
}

const seconds = (ms: number) => Math.round(ms / 100) / 10
const log = (line: string) => process.stderr.write(`${line}\n`)

interface Timed {
  report: Report
  setupMs: number
  loopMs: number
  totalMs: number
  steps: number
  ledgerSeconds: number
}

/** One run in-process, with the set-up (until the first simulated ledger) timed apart. */
async function timedRun(name: string, overrides: Override[], outDir: string): Promise<Timed> {
  const loaded = loadScenario(scenarioFile(name), overrides)
  const steps = stepsOf(loaded)
  const t0 = performance.now()
  let firstStepAt: number | undefined
  let lastReport = 0
  log(`${name}: ${steps} ledgers ${overrides.map((o) => `${o.path}=${typeof o.value === 'object' ? JSON.stringify(o.value) : String(o.value)}`).join(' ')}`)
  const report = await runScenario({
    loaded,
    seed: loaded.scenario.run.seed,
    outDir,
    log: (line) => log(`  ${line}`),
    onProgress: (done, total) => {
      const now = performance.now()
      firstStepAt ??= now
      if (now - lastReport > 15_000 || done === total) {
        lastReport = now
        log(`  ${done}/${total} ledgers, ${seconds(now - t0)} s`)
      }
    },
  })
  const totalMs = performance.now() - t0
  const setupMs = (firstStepAt ?? t0) - t0
  return { report, setupMs, loopMs: totalMs - setupMs, totalMs, steps, ledgerSeconds: loaded.scenario.run.ledgerSeconds }
}

const simMinutesOf = (t: Timed) => (t.steps * t.ledgerSeconds) / 60

function runFailed(r: Report): string | undefined {
  if (r.summary.replayMismatches > 0) return `${r.summary.replayMismatches} core replay mismatch(es)`
  if (!r.summary.auditHolds) return 'the invariant audit does not hold'
  return undefined
}

async function timedSweep(workers: number, seeds: number): Promise<{ ms: number; runs: number; failed: number }> {
  const out = join(OUT, `sweep-${workers}-workers`)
  await rm(out, { recursive: true, force: true })
  log(`sweep crash-short: ${seeds} seeds on ${workers} worker(s)`)
  const t0 = performance.now()
  const r = await runSweep({ file: scenarioFile('crash-short'), seeds, workers, out, resume: false, progress: 'none' })
  const ms = performance.now() - t0
  const runs = r.aggregate.points.reduce((k, p) => k + p.runs, 0)
  log(`  ${runs} runs, ${r.failed.length} failed, ${seconds(ms)} s`)
  return { ms, runs, failed: r.failed.length }
}

/**
 * An upstream with `borrowers` borrowers deployed under seed 77 (no vault), dumped to a
 * snapshot, and a scenario file that crashes WETH on it: what `snapshot-500` runs.
 */
async function snapshotUpstream(borrowers: number, dir: string, ledgerSeconds: number | undefined): Promise<{ scenario: string; deployMs: number; dumpMs: number; entries: number; bytes: number }> {
  await rm(dir, { recursive: true, force: true })
  await mkdir(dir, { recursive: true })
  const upstream = await startSandbox({ manual: true, instant: true, seed: 77 })
  try {
    log(`upstream: ${borrowers} borrowers`)
    const t0 = performance.now()
    const world = await deployWorld(upstream, { seed: 77, serial: true, borrowers, keepers: 1, service: false, txTimeoutSeconds: 0, lenderSupply: 20_000n * BigInt(borrowers) * 10_000_000n })
    const deployMs = performance.now() - t0
    const file = join(dir, 'upstream.json')
    const t1 = performance.now()
    const dump = await upstream.call<{ entries: number }>('sandbox_dumpSnapshot', { path: file })
    const dumpMs = performance.now() - t1
    const scenario = join(dir, 'snapshot-crash.yaml')
    await writeFile(
      scenario,
      [
        'description: WETH −30 % over 20 minutes on a 500-borrower pool found in a snapshot',
        `run: { duration: 1h${ledgerSeconds === undefined ? '' : `, ledgerSeconds: ${ledgerSeconds}`} }`,
        'world:',
        `  from: { snapshot: upstream.json, pool: ${world.blend.pool}, dexDepthUsd: 5000000 }`,
        'market:',
        '  prices:',
        '    WETH: { model: scripted, moves: [{ at: 10m, change: -0.30, over: 20m }] }',
        'keepers: { count: 3 }',
        '',
      ].join('\n'),
    )
    return { scenario, deployMs, dumpMs, entries: dump.entries, bytes: (await stat(file)).size }
  } finally {
    await upstream.stop()
  }
}

async function main(): Promise<void> {
  const only = new Set(arg('only', 'fidelity,day,sweep').split(','))
  const sweepSeeds = Number(arg('sweep-seeds', '4'))
  const ledgerArg = arg('ledger-seconds', '')
  const ledgerSeconds = ledgerArg === '' ? undefined : Number(ledgerArg)
  if (ledgerSeconds !== undefined && !(ledgerSeconds > 0)) throw new Error(`--ledger-seconds ${ledgerArg}: expected a positive number of seconds`)
  const ledgerOverride = ledgerSeconds === undefined ? [] : [{ path: 'run.ledgerSeconds', value: ledgerSeconds }]
  const rows: string[][] = []
  const json: Record<string, unknown> = {}
  const failures: string[] = []
  // Figures for --figures FILE: id → [value, unit].
  const figures: Record<string, [number | string, string]> = {}
  const suffix = ledgerSeconds === undefined ? '' : `-${ledgerSeconds}s`
  const loadStart = loadNow()

  for (const [part, borrowers] of [['fidelity', 100], ['fidelity-1000', 1000]] as const) {
    if (!only.has(part)) continue
    const t = await timedRun('crash-30', [
      { path: 'world.borrowers.count', value: borrowers },
      { path: 'keepers.count', value: 3 },
      { path: 'run.fastForward', value: false },
      // The lender's USDC scaled with the borrowers (2,000,000 for 100), or the pool's utilisation cap refuses their borrows.
      ...(borrowers > 100 ? [{ path: 'world.lenderSupply', value: 20_000 * borrowers }] : []),
      // The DEX pools too (1M USD a side for 100 borrowers), or auctions expire for want of a buyer.
      ...(borrowers > 100
        ? [{ path: 'world.assets', value: [{ code: 'WETH', price: 2000, cFactor: 0.75, dexDepthUsd: 10_000 * borrowers }, { code: 'WBTC', price: 60_000, cFactor: 0.75, dexDepthUsd: 10_000 * borrowers }] }]
        : []),
      ...ledgerOverride,
    ], join(OUT, ledgerSeconds === undefined ? part : `${part}-${ledgerSeconds}s`))
    const simMinutes = simMinutesOf(t)
    const rate = simMinutes / (t.loopMs / 60_000)
    const s = t.report.summary
    rows.push([
      `full fidelity, ${borrowers.toLocaleString('en-US')} borrowers, 3 keepers (crash-30)`,
      `${t.steps} ledgers = ${simMinutes} sim min; loop ${seconds(t.loopMs)} s, set-up ${seconds(t.setupMs)} s`,
      `${rate.toFixed(0)} sim min / wall min`,
      borrowers === 100 ? `>= 300 (600 in the end): ${rate >= 300 ? 'met' : 'missed'}` : `>= 48: ${rate >= 48 ? 'met' : 'missed'}`,
    ])
    rows.push(['  what happened', `${s.auctions.created} auctions, ${s.auctions.filled} filled, ${t.report.run.fastForwardedLedgers} fast-forwarded, ${s.replayMismatches} replay mismatches`, '', ''])
    figures[`bench.sim.${part}${suffix}.simMinutesPerWallMinute`] = [Math.round(rate * 10) / 10, 'sim min / wall min']
    figures[`bench.sim.${part}${suffix}.loopSeconds`] = [seconds(t.loopMs), 's']
    figures[`bench.sim.${part}${suffix}.auctionsCreated`] = [s.auctions.created, 'count']
    figures[`bench.sim.${part}${suffix}.auctionsFilled`] = [s.auctions.filled, 'count']
    json[part] = { borrowers, steps: t.steps, simMinutes, loopSeconds: seconds(t.loopMs), setupSeconds: seconds(t.setupMs), simMinutesPerWallMinute: Math.round(rate * 10) / 10, auctions: s.auctions, fastForwarded: t.report.run.fastForwardedLedgers, replayMismatches: s.replayMismatches }
    const why = runFailed(t.report)
    if (why !== undefined) failures.push(`${part}: ${why}`)
  }

  if (only.has('snapshot-500')) {
    const up = await snapshotUpstream(500, join(OUT, 'snapshot-500-upstream'), ledgerSeconds)
    const t = await timedRun(up.scenario, [], join(OUT, ledgerSeconds === undefined ? 'snapshot-500' : `snapshot-500-${ledgerSeconds}s`))
    const rate = simMinutesOf(t) / (t.loopMs / 60_000)
    const s = t.report.summary
    const src = t.report.source!
    rows.push([
      'snapshot start, 500 borrowers, 3 keepers',
      `upstream ${seconds(up.deployMs)} s, dump ${seconds(up.dumpMs)} s (${up.entries} entries, ${(up.bytes / 1e6).toFixed(1)} MB); set-up ${seconds(t.setupMs)} s; loop ${seconds(t.loopMs)} s`,
      `${seconds(t.totalMs)} s wall; ${rate.toFixed(1)} sim min / wall min`,
      `>= 150: ${rate >= 150 ? 'met' : 'missed'}`,
    ])
    rows.push(['  what happened', `${src.start.borrowers.length} borrowers found, ${s.auctions.created} auctions, ${s.auctions.filled} filled, ${t.report.run.fastForwardedLedgers} fast-forwarded, ${s.replayMismatches} replay mismatches`, '', ''])
    figures[`bench.sim.snapshot-500${suffix}.simMinutesPerWallMinute`] = [Math.round(rate * 10) / 10, 'sim min / wall min']
    figures[`bench.sim.snapshot-500${suffix}.wallSeconds`] = [seconds(t.totalMs), 's']
    json['snapshot-500'] = {
      upstreamSeconds: seconds(up.deployMs),
      dumpSeconds: seconds(up.dumpMs),
      snapshotEntries: up.entries,
      snapshotBytes: up.bytes,
      setupSeconds: seconds(t.setupMs),
      loopSeconds: seconds(t.loopMs),
      wallSeconds: seconds(t.totalMs),
      simMinutesPerWallMinute: Math.round(rate * 10) / 10,
      steps: t.steps,
      borrowersFound: src.start.borrowers.length,
      auctions: s.auctions,
      replayMismatches: s.replayMismatches,
    }
    const why = runFailed(t.report)
    if (why !== undefined) failures.push(`snapshot-500: ${why}`)
  }

  if (only.has('day')) {
    const t = await timedRun('calm-then-crash', [], join(OUT, 'day'))
    const s = t.report.summary
    rows.push([
      '24 h calm-then-crash, 24 borrowers, 3 keepers',
      `${t.steps} ledgers, ${t.report.run.fastForwardedLedgers} fast-forwarded; set-up ${seconds(t.setupMs)} s`,
      `${seconds(t.totalMs)} s wall`,
      t.totalMs <= 300_000 ? '<= 5 min: met' : '<= 5 min: missed',
    ])
    rows.push(['  what happened', `${s.auctions.created} auctions, ${s.auctions.filled} filled, LP return ${(s.lpReturn * 100).toFixed(4)} %`, '', ''])
    figures['bench.sim.day.wallSeconds'] = [seconds(t.totalMs), 's']
    figures['bench.sim.day.ledgers'] = [t.steps, 'ledgers']
    figures['bench.sim.day.fastForwarded'] = [t.report.run.fastForwardedLedgers, 'ledgers']
    figures['bench.sim.day.auctionsCreated'] = [s.auctions.created, 'count']
    figures['bench.sim.day.auctionsFilled'] = [s.auctions.filled, 'count']
    figures['bench.sim.day.lpReturnPct'] = [Math.round(s.lpReturn * 1e6) / 1e4, '%']
    json.day = { steps: t.steps, fastForwarded: t.report.run.fastForwardedLedgers, setupSeconds: seconds(t.setupMs), wallSeconds: seconds(t.totalMs), auctions: s.auctions, lpReturn: s.lpReturn }
    const why = runFailed(t.report)
    if (why !== undefined) failures.push(`day: ${why}`)
  }

  if (only.has('sweep')) {
    const one = await timedSweep(1, sweepSeeds)
    const two = await timedSweep(2, sweepSeeds)
    const speedup = one.ms / two.ms
    rows.push([`sweep, crash-short × ${sweepSeeds} seeds`, `1 worker ${seconds(one.ms)} s, 2 workers ${seconds(two.ms)} s`, `${speedup.toFixed(2)}× speed-up`, ''])
    figures['bench.sim.sweep.oneWorkerSeconds'] = [seconds(one.ms), 's']
    figures['bench.sim.sweep.twoWorkersSeconds'] = [seconds(two.ms), 's']
    figures['bench.sim.sweep.speedup'] = [Math.round(speedup * 100) / 100, '× (wall time on 1 worker / wall time on 2 workers)']
    json.sweep = { seeds: sweepSeeds, oneWorkerSeconds: seconds(one.ms), twoWorkersSeconds: seconds(two.ms), speedup: Math.round(speedup * 100) / 100 }
    if (one.failed + two.failed > 0) failures.push(`sweep: ${one.failed + two.failed} run(s) failed`)
  }

  process.stdout.write(`\n${textTable(['measure', 'run', 'figure', 'goal'], rows, ['left', 'left', 'right', 'left'])}\n`)
  process.stdout.write(`${JSON.stringify(json)}\n`)
  const figuresFile = arg('figures', '')
  if (figuresFile !== '') {
    const argv = process.argv.slice(2)
    const i = argv.indexOf('--figures')
    const command = ['npx tsx benchmarks/sim.ts', ...argv.filter((_, j) => j !== i && j !== i + 1)].join(' ')
    upsertFigures(resolve(figuresFile), figuresOf(figures, provenance(command, loadStart)))
    process.stdout.write(`figures: ${figuresFile}\n`)
  }
  for (const f of failures) process.stderr.write(`run failed: ${f}\n`)
  process.exit(failures.length > 0 ? 1 : 0)
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
  process.exit(1)
})
