/**
 * One simulation run: a fresh seeded sandbox, the scenario's world and agents (setup.ts), the
 * lockstep loop, the recorder and the core replay after every close, the invariant audit of the
 * final state; returns the report and writes the run directory when `outDir` is given.
 */
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { LedgerInfo } from '../../src/keeper/engine/index.js'
import type { World } from '../../src/world/index.js'
import { Environment } from './agents/environment.js'
import type { ScenarioKeeper, SimKeeper } from './agents/keepers.js'
import { runLockstep } from './lockstep/loop.js'
import { buildPricePlan, toPrice7 } from './prices.js'
import { Observer } from './record/observer.js'
import { Recorder } from './record/recorder.js'
import { checkSnapshotAt, Snapshots, type SnapshotFile, type SnapshotStep } from './record/snapshots.js'
import { buildReport, holdings } from './record/results.js'
import { readKeeperTransactions } from './record/transactions.js'
import { CoreReplay } from './replay/replay.js'
import type { RunEvent, Report } from './report/types.js'
import type { LoadedScenario } from './scenario/load.js'
import { pricesXlm, setUp } from './setup.js'
import { auditWorld } from './audit.js'
import type { TraceRecorder } from './determinism/recorder.js'
import { TRACE_FILE } from './determinism/traceFile.js'
import { SimulatedFault } from './lockstep/simRpc.js'
import { sharedServer } from './lockstep/sharedReads.js'
import { Adversaries } from './agents/adversaries/index.js'
import { AuctionType } from '../../src/keeper/adapters/blend/storage.js'

export interface RunOptions {
  loaded: LoadedScenario
  seed: number
  /** Write report.json, timeseries.csv and report.html here (and keepers.log). */
  outDir?: string
  /** Called after every simulated ledger (progress bars). */
  onProgress?: (done: number, total: number) => void
  /** Progress lines (default: silent). */
  log?: (line: string) => void
  /**
   * Write the chain state as LedgerSnapshot files into `<outDir>/snapshots/` at these steps
   * (ledgers since the start of the run; the first close at or after each) and/or at `end`.
   */
  snapshotAt?: SnapshotStep[]
  /** Called with each snapshot file once written. */
  onSnapshot?: (file: SnapshotFile) => void
  /** Records the run's determinism trace (sim/src/determinism), also written as `<outDir>/trace.jsonl`. */
  trace?: TraceRecorder
  /**
   * Tests only: asked before every agent request with the ledger being built; when it answers
   * true that request fails as a simulated RPC fault (a divergence injected on purpose).
   */
  requestFault?: (ledger: number, agent: string, method: string) => boolean
  /** Tests only: called with the world once the report is built, before the sandbox stops (reads of the end state). */
  onEnd?: (world: World) => Promise<void>
}

export function stepsOf(loaded: LoadedScenario): number {
  const r = loaded.scenario.run
  return r.ledgers ?? Math.max(1, Math.round(r.duration! / r.ledgerSeconds))
}

export async function runScenario(opts: RunOptions): Promise<Report> {
  const log = opts.log ?? (() => {})
  const seed = opts.seed
  const steps = stepsOf(opts.loaded)
  checkSnapshotAt(opts.snapshotAt ?? [], steps, opts.outDir)
  // A deployed world's prices are known before it exists: a bad market model fails at once.
  const early = opts.loaded.scenario.world.from === undefined ? buildPricePlan(opts.loaded, seed, steps) : undefined
  const events: RunEvent[] = []
  const record = (e: RunEvent) => events.push(e)
  let latest: LedgerInfo = { sequence: 0, closeTimeMs: 0 }
  if (opts.outDir !== undefined) await mkdir(opts.outDir, { recursive: true })
  const logFile = opts.outDir !== undefined ? join(opts.outDir, 'keepers.log') : '/dev/null'

  const setup = await setUp({
    scenario: opts.loaded.scenario,
    dir: opts.loaded.dir,
    seed,
    logFile,
    nowMs: () => latest.closeTimeMs,
    building: () => latest.sequence + 1,
    observe: (l) => {
      if (l.sequence >= latest.sequence) latest = l
    },
    hooks: {
      onCrash: (k, boundary) => record({ ledger: latest.sequence + 1, kind: 'crash', text: `${k.spec.name} died after the ${boundary} step` }),
      onFault: () => {},
      ...(opts.trace === undefined && opts.requestFault === undefined
        ? {}
        : {
            onRequest: (agent: string, method: string, key: string) => {
              opts.trace?.request(latest.sequence + 1, agent, method, key)
              if (opts.requestFault?.(latest.sequence + 1, agent, method)) throw new SimulatedFault(`simulated RPC fault on ${method} (injected)`)
            },
          }),
    },
    log,
  })
  const { sandbox, world, keepers, strategies, scenario } = setup
  // Every keeper of the population, in index order: the daemons and the strategy agents.
  const everyone: ScenarioKeeper[] = [...keepers, ...strategies.agents].sort((a, b) => a.spec.index - b.spec.index)
  const lowestMinProfit = everyone.length > 0 ? Math.min(...everyone.map((k) => k.spec.minProfit)) : undefined
  // A found world's assets are known only now: the price paths start from its oracle's prices.
  const loaded: LoadedScenario = { ...opts.loaded, scenario }
  let prices: ReturnType<typeof buildPricePlan>
  try {
    prices = early ?? buildPricePlan(loaded, seed, steps)
  } catch (err) {
    await sandbox.stop()
    throw err
  }
  const snapshots = new Snapshots(opts.snapshotAt ?? [], opts.outDir, async (path) => (await sandbox.call<{ latestLedger: number }>('sandbox_dumpSnapshot', { path })).latestLedger, opts.onSnapshot)
  try {
    latest = { sequence: setup.startLedger, closeTimeMs: setup.startCloseMs }
    await opts.trace?.begin(sandbox, setup.mempool.journal, setup.startLedger)
    await snapshots.reached(0, setup.startLedger)
    for (const k of keepers) {
      k.observe(latest)
      k.crashFromMs = latest.closeTimeMs + (k.spec.crash?.after ?? 0) * 1000
    }
    const observer = new Observer(sharedServer(sandbox.server, (key, request) => setup.scheduler.shared(key, request)), world, setup.startLedger + 1, () => latest.closeTimeMs)
    const replay = new CoreReplay(lowestMinProfit, Math.max(...everyone.map((k) => k.spec.slippageBps)))
    for (const k of everyone) k.startBalance = await holdings(world, observer, k)
    await observer.rescan()
    const borrowedStart = observer.debt().borrowed
    const borrowedStartByPool = observer.pools.map((_, k) => observer.debt(k).borrowed)
    const startVault = await observer.vault()
    const vaultTerms = await observer.vaultTerms()
    replay.startTotals(startVault, BigInt(vaultTerms.profitUnlockSecs))
    const recorder = new Recorder(prices, setup.startLedger, scenario.run.ledgerSeconds, scenario.run.recordEvery ?? Math.max(1, Math.ceil(steps / 2000)))
    // Fill ledgers are checked against the filler's MIN_PROFIT where it fires on the core's first
    // profitable ledger; nectar decides a ledger before its fill lands (draw first), on older prices.
    const checked = everyone.filter((k) => k.spec.strategy !== 'nectar')
    const minProfitOf = new Map<string, number>(checked.flatMap((k) => [[k.address, k.spec.minProfit], [k.operator, k.spec.minProfit]] as [string, number][]))
    const ls = scenario.run.ledgerSeconds
    const startClose = BigInt(Math.floor(setup.startCloseMs / 1000))
    const honest = new Set(everyone.map((k) => k.spec.name))
    const adversaries = new Adversaries({
      world,
      scenario,
      seed,
      chains: (name) => ({ chain: setup.chainFor(`attacker-${name}`, 0, 0), backrun: setup.chainFor(`attacker-${name}/backrun`, 1, ls * 1000 - 1) }),
      events: () => observer.events.events,
      scan: () => observer.scan,
      building: () => latest.sequence + 1,
      timeOfStep: (step) => startClose + BigInt(step * ls),
      stepAt: (seconds) => Math.max(1, Math.ceil(seconds / ls)),
      keeperTxsArriving: () => setup.mempool.arriving(ls * 1000, honest),
      placeOf: (hash) => {
        const t = setup.mempool.journal.find((x) => x.hash === hash)
        return t === undefined ? undefined : { ledger: t.ledger, position: t.position }
      },
      minProfit: lowestMinProfit ?? 1,
    })
    const env = new Environment({
      world,
      chain: setup.envChain,
      scenario,
      seed,
      prices,
      arbPools: setup.arbPools,
      watchdog: setup.watchdog,
      toPrice7,
      deadKeepers: () => keepers.filter((k) => k.crashed && !k.alive).map((k) => k.address),
      nowSeconds: () => BigInt(Math.floor(latest.closeTimeMs / 1000)),
      record,
      oracleXlmPrice: pricesXlm(scenario) ? BigInt(Math.round(scenario.chain.xlmPrice * 1e7)) : undefined,
      ...(adversaries.size === 0 ? {} : { overdueAt: (step: number) => adversaries.overdueAt(step) }),
    })
    // The replay knows an auction by type and user: with several pools, a backstop's (bad-debt
    // or interest) auctions, whose user is the backstop in every pool, are told apart by pool.
    const replayKeyed = <T extends { type: number; user: string; pool?: string | undefined }>(e: T): T =>
      observer.pools.length > 1 && e.type !== AuctionType.UserLiquidation ? { ...e, user: `${e.user}@${e.pool ?? ''}` } : e
    let seenAuctions = 0
    let seenFills = 0
    let seenFlows = 0
    let scanDirty = true
    let lastScanStep = 0
    log(`simulating ${steps} ledgers`)
    const result = await runLockstep({
      steps,
      ledgerSeconds: scenario.run.ledgerSeconds,
      startLedger: setup.startLedger,
      fastForward: scenario.run.fastForward,
      env,
      ...(setup.background === undefined ? {} : { background: setup.background }),
      keepers,
      // The strategy agents act after the adversaries, through the same hooks.
      ...(adversaries.size === 0 && strategies.size === 0
        ? {}
        : {
            adversaries: {
              act: (step: number) => {
                adversaries.act(step)
                strategies.act()
              },
              backrun: () => adversaries.backrun(),
              decisive: (step: number) => adversaries.decisive(step) || strategies.decisive(setup.startLedger + step),
              busy: () => adversaries.busy() || strategies.busy(),
            },
          }),
      mempool: setup.mempool,
      scheduler: setup.scheduler,
      close: async ({ order, arrived, count }) => {
        const params = order !== undefined ? { count: 1, order } : arrived !== undefined ? { count: 1, arrived } : { count: count ?? 1 }
        const res = (await sandbox.call('sandbox_closeLedgers', params)) as { applied?: string[]; dropped?: string[] }
        const l = await sandbox.server.getLatestLedger()
        latest = { sequence: l.sequence, closeTimeMs: Number(l.closeTime ?? 0) * 1000 }
        return { ...latest, ...(arrived === undefined && order === undefined ? {} : { applied: res.applied ?? [], dropped: res.dropped ?? [] }) }
      },
      poolActive: async (step) => {
        if (scanDirty || step - lastScanStep >= 12 || prices.posts[step - 1] === 1) {
          await observer.rescan()
          lastScanStep = step
          scanDirty = false
        }
        return observer.poolActive()
      },
      ripening: () => {
        if (observer.scan === undefined || lowestMinProfit === undefined) return null
        const until = observer.ripeningUntil(lowestMinProfit)
        return until === null ? null : { auctions: observer.openAuctions(), until }
      },
      restartSteps: (k: SimKeeper) => {
        const r = k.spec.crash?.restartAfter
        return r === null || r === undefined ? null : Math.max(1, Math.ceil(r / scenario.run.ledgerSeconds))
      },
      onClose: async (info, done, skipped) => {
        const step = info.sequence - setup.startLedger
        await opts.trace?.closed(info.sequence)
        // Both read the ledger just closed: one round trip.
        const [ev] = await Promise.all([observer.events.poll(), skipped === 0 ? observer.rescan() : undefined])
        if (skipped === 0) {
          lastScanStep = step
          scanDirty = true
        }
        for (; seenAuctions < ev.auctions.length; seenAuctions++) {
          const a = replayKeyed(ev.auctions[seenAuctions]!)
          replay.auctionCreated(a, a.ledger === info.sequence ? observer.scanOf(a.pool) : undefined)
        }
        for (; seenFills < ev.fills.length; seenFills++) {
          const f = replayKeyed(ev.fills[seenFills]!)
          const before = f.ledger === info.sequence
          replay.auctionFilled(f, minProfitOf.get(f.filler), before ? observer.previousScanOf(f.pool) : undefined, before ? observer.previousRoutes : undefined)
        }
        let flows = false
        for (; seenFlows < ev.vault.length; seenFlows++) {
          replay.vaultFlow(ev.vault[seenFlows]!)
          flows = true
        }
        const vault = flows || recorder.due(step) ? await observer.vault() : undefined
        if (flows && vault) replay.checkTotals(info.sequence, vault)
        if (recorder.due(step) || ev.fills.length > 0) await recorder.point(step, info.sequence, observer, vault)
        await snapshots.reached(step, info.sequence)
        opts.onProgress?.(done, steps)
      },
    })
    await env.settled().catch(() => {})
    await setup.background?.settled().catch(() => {})
    setup.scheduler.finish()
    for (const k of keepers) await k.stop()
    strategies.stop()
    await opts.trace?.end()
    await snapshots.end(latest.sequence)
    const ev = await observer.events.poll()
    await observer.rescan()
    const endVault = await observer.vault()
    await recorder.point(steps, latest.sequence, observer, endVault, true)
    const audit = await auditWorld(world, sandbox.server)
    // The keepers' own: an adversary's back-run is no keeper transaction.
    const transactions = await readKeeperTransactions(sandbox.server, setup.mempool.journal.filter((t) => honest.has(t.agent)))
    const attacks = await adversaries.results(observer.chain, world, ev)
    const report = await buildReport({
      loaded,
      seed,
      steps,
      startLedger: setup.startLedger,
      endLedger: latest.sequence,
      fastForwarded: result.fastForwarded,
      keepers: everyone,
      world,
      observer,
      chainEvents: ev,
      transactions,
      series: recorder.series(),
      replay: replay.result(),
      fillValuations: replay.fillValuations,
      audit,
      events,
      startVault,
      endVault,
      vaultTerms,
      attacks,
      borrowedStart,
      borrowedStartByPool,
      droppedBy: setup.mempool.droppedBy,
      bumpsBy: setup.mempool.bumpsBy,
      sentBySource: setup.mempool.sentBySource,
      tryAgainLaterBy: setup.mempool.tryAgainLaterBy,
      background: setup.background === undefined ? null : { ...setup.background.stats },
    })
    await opts.onEnd?.(world)
    if (opts.outDir !== undefined) {
      const { writeRunOutputs } = await import('./report/write.js')
      await writeRunOutputs(report, opts.outDir)
      await opts.trace?.write(join(opts.outDir, TRACE_FILE))
    }
    return report
  } finally {
    await sandbox.stop()
  }
}
