/**
 * Keeper-cycle benchmark: the Blend adapter's getTasks (events, pool, positions, prices, auctions,
 * health factors) against the sandbox with the real Blend v2 pool of src/world, for 10 to 50,000
 * borrowers; then one liquidation to count the ledgers between the first profitable ledger and
 * the confirmed fill.
 *
 * Borrowers beyond the world's 4 (which opened real positions through the pool) get healthy
 * Positions entries (HF ~1.58) written with the sandbox's `sandbox_setLedgerEntry` cheat, 500 to
 * a JSON-RPC batch, and are handed to the scanner with `scanner.addBorrowers`. For each size, a
 * fresh adapter that knows all of them runs:
 * - cold: its first getTasks, a full read of every borrower's Positions entry;
 * - warm: `--cycles` getTasks with nothing changed in between (median);
 * - warm with changes: before each of `--cycles` getTasks, each of the world's 4 borrowers repays
 *   0.01 USDC through the pool; the scan re-reads the positions its events name (median);
 * - audit: `--cycles` getTasks that each fall due for the cache audit (the adapter's clock is
 *   moved 10 minutes on before each), the full re-read a keeper pays every 10 minutes (median).
 * Warm and audit cycles each start right after a ledger closes, one a ledger, like a keeper's poll
 * loop (back to back, a cycle pays for the garbage of the one before). Every RPC request is
 * counted at the client (a counting wrapper around rpc.Server), independently of the adapter's
 * own statistics; a second table splits each cycle's wall time into the keeper's CPU, the sandbox
 * node's CPU (/proc) and the time with a request open. The scanner's ledger-key cache
 * (storage.ts) is process-wide: a size's cold cycle finds the keys of the smaller sizes in it.
 *
 * Open auctions (after the sizes, before the liquidation; a third table and the JSON's
 * `auctions`): the keeper's work per ledger with K open user-liquidation auctions at S borrowers,
 * one row for every size S and auction count K with S >= K (the goal: <= 250 ms of keeper CPU
 * per ledger with 500 open auctions at 10,000 borrowers). K more synthetic users get liquidatable
 * Positions (1 WETH of collateral, USDC liabilities for HF ~0.95 at the pool's rates and prices)
 * and the pool's temporary Auction entry (a 50 % liquidation: half the liabilities bid, WETH
 * lotted), both written with `sandbox_setLedgerEntry` (the auction with a TTL 100,000 ledgers
 * ahead); layout and spread in lib/openAuctions.ts. Each row writes them again starting 0 to 300
 * ledgers before the latest (in the lot's ramp or past it), lots worth 0.90x to 1.30x the bid at
 * the oracle, every tenth a whale's 5,000 times larger whose lot the DEX cannot take within the
 * slippage floor: some fills are due now, most later, the whales' never. A fresh adapter (the
 * same parameters, two-step path) knows the S - K first synthetic borrowers and the K with
 * auctions; after its cold scan (in the first table), `--cycles` + 1 ledgers are measured, each
 * right after a close, as the keeper runs them: the engine's ManualLedgerClock is moved to the
 * new ledger, then getTasks, ExecutionEngine.offer and engine.settled() (every new plan made).
 * The engine's limits() report no idle capital, so due plans wait for capital and nothing fires
 * (no transaction is sent). Reported: the first ledger (every auction planned) and the median of
 * the later ones (made plans held, skipped auctions planned again): wall time (scan + plans),
 * keeper and node CPU, RPC requests of the scan and of the plans, scan waves, and the tasks
 * planned / skipped / held. Last, the oracle moves WETH (every lot) up 0.1 % and one more ledger
 * is measured: every held plan's inputs moved, so every auction is planned again.
 *
 * Run: npx tsx benchmarks/keeper-cycle.ts
 *   options: --sizes 10,100,1000,10000,50000 --cycles 5
 *            --auctions 100,500 (open auction counts; 0 or none: no open-auction rows)
 *            --cpu-prof [DIR] (V8 profiles of extra warm and audit cycles at sizes >= 10,000 and
 *            of extra later ledgers with >= 500 open auctions, default DIR target/bench/keeper-cycle)
 */
import { startSandbox } from '../sandbox/ts/launch.js'
import { createChain, withLazyLatestLedger, type Chain } from '../src/chain/index.js'
import { VaultContract } from '../src/keeper/clients/vault.js'
import { lendingPoolAdapter, type LendingPoolAdapter, type LendingPoolAdapterParameters } from '../src/keeper/adapters/blend/index.js'
import { DEFAULT_FULL_READ_EVERY_MS } from '../src/keeper/adapters/blend/poolState.js'
import { ExecutionEngine, ManualLedgerClock } from '../src/keeper/engine/index.js'
import { isSkip, type AdapterLogger } from '../src/keeper/sdk/index.js'
import { blendRequest, deployWorld, poolSubmit, REQUEST } from '../src/world/index.js'
import { countingServer, cpuClock, markdownTable, med, profiled, setLedgerEntries, syntheticUser, writePositions, type Cycle } from './lib/keeperCycle.js'
import { auctionEntry, MAX_START_AGO, medLedger, openAuctions, type AuctionLedger, type OpenAuction } from './lib/openAuctions.js'

const UNIT = 10_000_000n

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`)
  const v = i >= 0 ? process.argv[i + 1] : undefined
  return v !== undefined && !v.startsWith('--') ? v : fallback
}

interface SizeFigures {
  borrowers: number
  withDebt: number
  setupEntries: number
  setupMs: number
  cold: Cycle
  warm: Cycle[]
  changes: Cycle[]
  audit: Cycle[]
  auditMismatches: number
}

interface AuctionFigures {
  borrowers: number
  auctions: number
  withDebt: number
  whales: number
  /** Auction entries written for the row (ms). */
  setupMs: number
  first: AuctionLedger
  steady: AuctionLedger[]
  /** A ledger after the oracle moved one collateral's price up 0.1 %: its auctions' plans are made again. */
  priceMove: AuctionLedger
}

const quiet: AdapterLogger = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }

async function main(): Promise<void> {
  const sizes = arg('sizes', '10,100,1000,10000,50000').split(',').map(Number)
  const cycles = Number(arg('cycles', '5'))
  const profileDir = process.argv.includes('--cpu-prof') ? arg('cpu-prof', 'target/bench/keeper-cycle') : undefined
  const auctionArg = arg('auctions', '100,500')
  const auctionCounts = auctionArg === 'none' ? [] : auctionArg.split(',').map(Number).filter((k) => k > 0)
  if (auctionCounts.some((k) => !Number.isInteger(k))) throw new Error(`--auctions: whole numbers, 0 or none (got ${auctionArg})`)
  const wallStart = performance.now()
  const sandbox = await startSandbox({ port: 0, ledgerIntervalSeconds: 1 })
  // As a keeper's own server (createChain): the ledger's close meta decoded only when read.
  withLazyLatestLedger(sandbox.server)
  try {
    process.stderr.write('deploying the world...\n')
    const world = await deployWorld(sandbox, { seed: 5, borrowers: 4, keepers: 1 })
    const counting = countingServer(sandbox.server)
    const chain = createChain({ rpcUrl: sandbox.rpcUrl, networkPassphrase: sandbox.networkPassphrase, server: counting.server })
    const pool = world.blend.pool
    const usdc = world.usdc.contract
    const wethIndex = world.blend.reserves.indexOf(world.collaterals[0]!.contract)
    const usdcIndex = world.blend.reserves.indexOf(usdc)

    const base: LendingPoolAdapterParameters = {
      pool,
      usdc,
      vaultContract: world.service!.vault,
      minProfit: 1.02,
      slippageBps: 300,
      primaryDexRouter: world.dex.primaryRouter,
      fallbackDexRouter: world.dex.fallbackRouter,
      reader: counting.server,
      fastForward: async (to) => {
        const latest = (await sandbox.server.getLatestLedger()).sequence
        if (latest < to) await sandbox.closeLedgers(to - latest)
      },
    }

    const clock = cpuClock()
    async function cycle(adapter: LendingPoolAdapter, c: Chain): Promise<Cycle> {
      counting.reset()
      const cpu0 = clock.cpu()
      const t0 = performance.now()
      await adapter.getTasks(c)
      const ms = performance.now() - t0
      const cpu1 = clock.cpu()
      const scan = adapter.lastScan()!
      return {
        ms,
        requests: counting.total(),
        getLedgerEntries: counting.counts.get('getLedgerEntries') ?? 0,
        waves: scan.stats.waves,
        positionsRead: scan.positionsRead,
        fullRead: scan.fullRead?.reason,
        clientCpuMs: cpu1.clientMs - cpu0.clientMs,
        nodeCpuMs: cpu0.nodeMs === undefined || cpu1.nodeMs === undefined ? undefined : cpu1.nodeMs - cpu0.nodeMs,
        rpcMs: counting.busyMs(),
      }
    }
    /** Measured cycles start right after a ledger closes, one a ledger, like a keeper's poll loop. */
    async function nextLedger(): Promise<void> {
      const seq = (await sandbox.server.getLatestLedger()).sequence
      while ((await sandbox.server.getLatestLedger()).sequence === seq) await new Promise((r) => setTimeout(r, 50))
    }
    const expect = (c: Cycle, reason: string | undefined, what: string) => {
      if (c.fullRead !== reason) throw new Error(`${what}: full read ${c.fullRead ?? 'none'}, expected ${reason ?? 'none'}`)
    }

    const users = world.borrowers.map((b) => b.address)
    const figures: SizeFigures[] = []
    for (const n of sizes) {
      const add: string[] = []
      for (let i = users.length; i < n; i++) add.push(syntheticUser(i))
      const s0 = performance.now()
      await writePositions(add, {
        rpcUrl: sandbox.rpcUrl,
        pool,
        collateral: new Map([[wethIndex, 1n * UNIT]]), // 1 WETH: 1,500 USD effective
        liabilities: new Map([[usdcIndex, 900n * UNIT]]), // ~947 USD effective: HF ~1.58
      })
      const setupMs = performance.now() - s0
      users.push(...add)
      process.stderr.write(`n=${n}: ${add.length} Positions entries written in ${(setupMs / 1000).toFixed(1)} s\n`)

      let skewMs = 0
      const adapter = lendingPoolAdapter({ ...base, now: () => Date.now() + skewMs })
      adapter.scanner.addBorrowers(users.slice(0, n))
      const cold = await cycle(adapter, chain)
      expect(cold, 'cold', `n=${n} cold`)
      const withDebt = adapter.lastScan()!.borrowers.length

      const warm: Cycle[] = []
      for (let c = 0; c < cycles; c++) {
        await nextLedger()
        warm.push(await cycle(adapter, chain))
        expect(warm[c]!, undefined, `n=${n} warm`)
      }
      if (profileDir !== undefined && n >= 10_000) {
        await profiled(profileDir, `warm-${n}`, async () => {
          for (let c = 0; c < cycles; c++) {
            await nextLedger()
            await cycle(adapter, chain)
          }
        })
      }

      const changes: Cycle[] = []
      for (let c = 0; c < cycles; c++) {
        await Promise.all(world.borrowers.map((b) => poolSubmit(world.chain, b.keypair, pool, [blendRequest(REQUEST.repay, usdc, UNIT / 100n)])))
        changes.push(await cycle(adapter, chain))
        expect(changes[c]!, undefined, `n=${n} warm with changes`)
      }

      const audit: Cycle[] = []
      let auditMismatches = 0
      const auditCycle = async () => {
        skewMs += DEFAULT_FULL_READ_EVERY_MS + 1_000
        await nextLedger()
        const c = await cycle(adapter, chain)
        expect(c, 'audit', `n=${n} audit`)
        auditMismatches += adapter.lastScan()!.fullRead!.mismatches.length
        return c
      }
      for (let c = 0; c < cycles; c++) audit.push(await auditCycle())
      if (profileDir !== undefined && n >= 10_000) await profiled(profileDir, `audit-${n}`, auditCycle)

      figures.push({ borrowers: n, withDebt, setupEntries: add.length, setupMs, cold, warm, changes, audit, auditMismatches })
      process.stderr.write(
        `n=${n}: cold ${cold.ms.toFixed(0)} ms, warm ${med(warm).ms} ms, with changes ${med(changes).ms} ms, audit ${med(audit).ms} ms\n`,
      )
    }

    // Open auctions: rows of K open auctions at S borrowers, for every size S >= K (the keeper's
    // ledger work with them, planning included).
    const auctionFigures: AuctionFigures[] = []
    const maxAuctions = Math.max(0, ...auctionCounts.filter((k) => sizes.some((n) => n >= k)))
    if (maxAuctions > 0) {
      const weth = world.collaterals[0]!.contract
      // Sized at the pool's valuation now (reserves accrued, oracle prices).
      const probe = lendingPoolAdapter(base)
      await probe.getTasks(chain)
      const book = openAuctions(maxAuctions, probe.lastScan()!.valuation, { collateralAsset: weth, liabilityAsset: usdc })
      // Small borrowers' positions are all alike, and so are the whales'.
      for (const whale of [false, true]) {
        const group = book.filter((a) => a.whale === whale)
        if (group.length === 0) continue
        await writePositions(
          group.map((a) => a.user),
          { rpcUrl: sandbox.rpcUrl, pool, collateral: new Map([[wethIndex, group[0]!.collateral]]), liabilities: new Map([[usdcIndex, group[0]!.liabilities]]) },
        )
      }
      for (const n of sizes) {
        for (const k of auctionCounts) {
          if (k > n) continue
          // Fresh start blocks for each row (latest - 0..300; a young chain is moved on until it
          // has that many ledgers); a temporary entry's TTL far ahead.
          let latest = (await sandbox.server.getLatestLedger()).sequence
          if (latest <= MAX_START_AGO) latest = await sandbox.closeLedgers(MAX_START_AGO + 1 - latest)
          const s0 = performance.now()
          const open = book.slice(0, k)
          await setLedgerEntries(sandbox.rpcUrl, open, { liveUntilLedgerSeq: latest + 100_000 }, (a) => auctionEntry(pool, a, latest, { collateral: weth, liability: usdc }))
          const row = await auctionRow(n, open, performance.now() - s0)
          auctionFigures.push(row)
          process.stderr.write(
            `n=${n}, ${k} auctions: first ledger ${row.first.ms.toFixed(0)} ms (keeper CPU ${row.first.clientCpuMs.toFixed(0)} ms), ` +
              `later ${medLedger(row.steady).ms} ms (keeper CPU ${medLedger(row.steady).clientCpuMs} ms)\n`,
          )
        }
      }
    }

    /**
     * One row: a fresh adapter that knows S - K healthy borrowers and the K with auctions, its
     * cold scan (not measured: the first table has it), then `--cycles` + 1 measured ledgers of an
     * ExecutionEngine driven by a ManualLedgerClock moved at each close.
     */
    async function auctionRow(n: number, open: OpenAuction[], setupMs: number): Promise<AuctionFigures> {
      const k = open.length
      const adapter = lendingPoolAdapter(base)
      adapter.scanner.addBorrowers([...users.slice(0, n - k), ...open.map((a) => a.user)])
      await adapter.getTasks(chain)
      const withDebt = adapter.lastScan()!.borrowers.length
      const liquidatable = adapter.lastScan()!.borrowers.filter((b) => b.liquidatable && b.auction !== undefined).length
      if (liquidatable !== k) throw new Error(`n=${n}: ${liquidatable} liquidatable borrowers with an auction, expected ${k}`)

      // The production adapter, its plan counted (a plan made or skipped) and its skip reasons.
      let counts = { planned: 0, skipped: 0, reasons: new Map<string, number>() }
      const counted: LendingPoolAdapter = {
        ...adapter,
        async plan(c, keypair, task) {
          const out = await adapter.plan(c, keypair, task)
          if (isSkip(out)) {
            counts.skipped++
            counts.reasons.set(out.skip, (counts.reasons.get(out.skip) ?? 0) + 1)
          } else counts.planned++
          return out
        },
      }
      const closeMs = (l: { closeTime?: string }) => (l.closeTime === undefined ? Date.now() : Number(l.closeTime) * 1000)
      const l0 = await sandbox.server.getLatestLedger()
      const ledgers = new ManualLedgerClock({ sequence: l0.sequence, closeTimeMs: closeMs(l0) })
      const refuse = async (): Promise<never> => {
        throw new Error('the benchmark engine never fires')
      }
      const engine = new ExecutionEngine({
        chain,
        keypair: world.keepers[0]!,
        vault: { draw: refuse, returnProceeds: refuse },
        // No idle capital: a due plan waits for capital (schedule.ts), so nothing fires and no
        // transaction is sent; plans are made and held as a keeper holds them. The draw cap is
        // unbounded so that no plan is abandoned for its size.
        limits: async () => ({ idle: 0n, maxDraw: 2n ** 127n }),
        clock: ledgers,
        logger: quiet,
        emit: () => {},
      })
      engine.start()

      const ledger = async (): Promise<AuctionLedger> => {
        await nextLedger()
        const l = await sandbox.server.getLatestLedger()
        counts = { planned: 0, skipped: 0, reasons: new Map() }
        counting.reset()
        const cpu0 = clock.cpu()
        const t0 = performance.now()
        // Like the keeper: the clock sees the close (expiry, due plans), the poll loop scans and
        // offers the tasks; the engine plans the new ones in the background.
        ledgers.set({ sequence: l.sequence, closeTimeMs: closeMs(l) })
        const tasks = await adapter.getTasks(chain)
        const t1 = performance.now()
        const scanCounts = new Map(counting.counts)
        const scanRequests = counting.total()
        // A task without an open auction would be planned by opening one (a transaction).
        const offered = tasks.filter((t) => t.data.kind === 'user_liquidation' && t.data.hasAuction)
        if (offered.length !== tasks.length) throw new Error(`n=${n}: ${tasks.length - offered.length} task(s) without an open auction`)
        engine.offer(counted, offered)
        await engine.settled()
        const t2 = performance.now()
        const cpu1 = clock.cpu()
        const planByMethod: Record<string, number> = {}
        for (const [m, c] of counting.counts) if (c > (scanCounts.get(m) ?? 0)) planByMethod[m] = c - (scanCounts.get(m) ?? 0)
        const executions = engine.executions()
        return {
          ms: t2 - t0,
          scanMs: t1 - t0,
          planMs: t2 - t1,
          clientCpuMs: cpu1.clientMs - cpu0.clientMs,
          nodeCpuMs: cpu0.nodeMs === undefined || cpu1.nodeMs === undefined ? undefined : cpu1.nodeMs - cpu0.nodeMs,
          rpcMs: counting.busyMs(),
          scanRequests,
          planRequests: counting.total() - scanRequests,
          planByMethod,
          waves: adapter.lastScan()!.stats.waves,
          tasks: offered.length,
          planned: counts.planned,
          skipped: counts.skipped,
          held: offered.length - counts.planned - counts.skipped,
          due: executions.filter((e) => e.stage === 'due').length,
          waiting: executions.filter((e) => e.stage === 'planned').length,
          skipReasons: Object.fromEntries(counts.reasons),
        }
      }
      const first = await ledger()
      const steady: AuctionLedger[] = []
      for (let c = 0; c < cycles; c++) steady.push(await ledger())
      if (profileDir !== undefined && k >= 500) {
        await profiled(profileDir, `auctions-${n}-${k}`, async () => {
          for (let c = 0; c < cycles; c++) await ledger()
        })
      }
      // The oracle moves one collateral (0.1 % up): the plans of the auctions selling it are made again.
      const asset = world.collaterals[0]!.contract
      await world.setPrice(asset, (world.price(asset) * 1001n) / 1000n)
      const priceMove = await ledger()
      // Nothing may have fired or been abandoned: every plan is still waiting (planned or due).
      const moved = engine.executions().filter((e) => e.stage !== 'planned' && e.stage !== 'due')
      await engine.stop(0)
      if (moved.length > 0) throw new Error(`n=${n}: ${moved.length} execution(s) went on to ${moved[0]!.stage} (${moved[0]!.note ?? ''})`)
      return { borrowers: n, auctions: k, withDebt, whales: open.filter((a) => a.whale).length, setupMs, first, steady, priceMove }
    }

    // One liquidation: ledgers between the first profitable ledger and the confirmed fill.
    const fills: { plannedLedger: number; fillLedger: number }[] = []
    const fillAdapter = lendingPoolAdapter({ ...base, onFill: (f) => fills.push(f) })
    const borrower = world.borrowers[0]!
    await world.setPrice(borrower.collateralAsset.contract, (world.price(borrower.collateralAsset.contract) * 90n) / 100n)
    const task = (await fillAdapter.getTasks(chain)).find((t) => t.data.user === borrower.address)
    let fillLine = 'no liquidatable borrower after the price drop'
    let fill: Record<string, unknown> | undefined
    if (task !== undefined) {
      const keeper = world.keepers[0]!
      const res = await fillAdapter.execute(chain, keeper, task, new VaultContract(chain, world.service!.vault).bind(keeper))
      const f = fills[0]
      if (f !== undefined) fill = { plannedLedger: f.plannedLedger, fillLedger: f.fillLedger, ledgersAfter: f.fillLedger - f.plannedLedger, profit: String(res.profit) }
      fillLine =
        f === undefined
          ? `no fill (${res.note ?? ''})`
          : `planned (first profitable) ledger ${f.plannedLedger}, fill confirmed in ledger ${f.fillLedger}: ${f.fillLedger - f.plannedLedger} ledgers after; profit ${res.profit} (7 decimals)`
    }

    const slash = (...xs: (number | string)[]) => xs.join(' / ')
    const header = [
      'borrowers',
      'with debt',
      'cold ms',
      'warm ms',
      'with changes ms',
      'positions read (changes)',
      'audit ms',
      'RPC requests cold / warm / changes / audit',
      'getLedgerEntries cold / warm / changes / audit',
      'sequential waves cold / warm / changes / audit',
    ]
    const rows = figures.map((f) => {
      const [w, ch, au] = [med(f.warm), med(f.changes), med(f.audit)]
      return [
        f.borrowers.toLocaleString('en-US'),
        f.withDebt.toLocaleString('en-US'),
        f.cold.ms.toFixed(1),
        w.ms.toFixed(1),
        ch.ms.toFixed(1),
        String(ch.positionsRead),
        au.ms.toFixed(1),
        slash(f.cold.requests, w.requests, ch.requests, au.requests),
        slash(f.cold.getLedgerEntries, w.getLedgerEntries, ch.getLedgerEntries, au.getLedgerEntries),
        slash(f.cold.waves, w.waves, ch.waves, au.waves),
      ]
    })
    console.log(markdownTable(header, rows))
    console.log()
    // Where a cycle's time goes: the keeper's CPU, the node's CPU, the time with a request open.
    const split = (c: Omit<Cycle, 'fullRead'>) => slash(c.ms.toFixed(0), c.clientCpuMs.toFixed(0), c.nodeCpuMs === undefined ? '-' : c.nodeCpuMs.toFixed(0), c.rpcMs.toFixed(0))
    const splitHeader = ['borrowers', ...['cold', 'warm', 'with changes', 'audit'].map((k) => `${k}: wall / keeper CPU / node CPU / requests open (ms)`)]
    console.log(markdownTable(splitHeader, figures.map((f) => [f.borrowers.toLocaleString('en-US'), split(f.cold), split(med(f.warm)), split(med(f.changes)), split(med(f.audit))])))
    console.log()
    console.log(`medians of ${cycles} cycles; audit: the full re-read of every borrower due every ${DEFAULT_FULL_READ_EVERY_MS / 60_000} min`)
    console.log('requests open: wall time with an RPC request unanswered (the SDK parsing the answer included); CPU in 10 ms ticks for the node')
    for (const f of figures) {
      if (f.setupEntries > 0) console.log(`set-up to ${f.borrowers}: ${f.setupEntries} Positions entries in ${(f.setupMs / 1000).toFixed(1)} s`)
    }
    const mismatches = figures.reduce((s, f) => s + f.auditMismatches, 0)
    console.log(`audit mismatches (cache vs full read): ${mismatches}`)
    console.log(`fill: ${fillLine}`)
    if (auctionFigures.length > 0) {
      console.log()
      const auctionHeader = [
        'borrowers',
        'open auctions (whales)',
        'first ledger: wall / keeper CPU / node CPU / requests open (ms)',
        'later ledgers: wall / keeper CPU / node CPU / requests open (ms)',
        'wall scan + plans first / later (ms)',
        'RPC requests scan + plans first / later',
        'scan waves first / later',
        'tasks planned / skipped / held first / later',
        'plans due now / later (after the last ledger)',
        'a price moved: wall / keeper CPU (ms); planned / skipped / held',
      ]
      const auctionRows = auctionFigures.map((f) => {
        const [a, b] = [f.first, medLedger(f.steady)]
        const cpu = (l: AuctionLedger) => slash(l.ms.toFixed(0), l.clientCpuMs.toFixed(0), l.nodeCpuMs === undefined ? '-' : l.nodeCpuMs.toFixed(0), l.rpcMs.toFixed(0))
        return [
          f.borrowers.toLocaleString('en-US'),
          `${f.auctions} (${f.whales})`,
          cpu(a),
          cpu(b),
          `${a.scanMs.toFixed(0)} + ${a.planMs.toFixed(0)} / ${b.scanMs.toFixed(0)} + ${b.planMs.toFixed(0)}`,
          `${a.scanRequests} + ${a.planRequests} / ${b.scanRequests} + ${b.planRequests}`,
          slash(a.waves, b.waves),
          `${slash(a.planned, a.skipped, a.held)}; ${slash(b.planned, b.skipped, b.held)}`,
          slash(b.due, b.waiting),
          `${slash(f.priceMove.ms.toFixed(0), f.priceMove.clientCpuMs.toFixed(0))}; ${slash(f.priceMove.planned, f.priceMove.skipped, f.priceMove.held)}`,
        ]
      })
      console.log(markdownTable(auctionHeader, auctionRows))
      console.log()
      console.log(
        `open auctions: first ledger = the first after the adapter's cold scan, every auction planned; later = median of ${cycles} ledgers; ` +
          'planned: a plan made, skipped: the plan found nothing to fill, held: already planned (not planned again)',
      )
      console.log('plans due now wait for capital (the engine sees no idle capital), so nothing fires; whales: lots the DEX cannot take within the slippage floor')
      for (const f of auctionFigures) {
        const reasons = Object.entries(medLedger(f.steady).skipReasons).map(([r, c]) => `${c}x "${r}"`)
        if (reasons.length > 0) console.log(`skips at ${f.borrowers} borrowers, ${f.auctions} auctions (last ledger): ${reasons.join(', ')}`)
      }
    }
    const wallS = (performance.now() - wallStart) / 1000
    const rssMb = Math.round(process.resourceUsage().maxRSS / 1024)
    const nodeRssMb = clock.nodePeakRssMb()
    console.log(`wall ${wallS.toFixed(0)} s, peak RSS: this process ${rssMb} MB, sandbox node ${nodeRssMb ?? '-'} MB`)
    const roundLedger = (l: AuctionLedger) => ({
      ...l,
      ms: Number(l.ms.toFixed(1)),
      scanMs: Number(l.scanMs.toFixed(1)),
      planMs: Number(l.planMs.toFixed(1)),
      clientCpuMs: Number(l.clientCpuMs.toFixed(1)),
      rpcMs: Number(l.rpcMs.toFixed(1)),
    })
    const withAll = (cs: Cycle[]) => ({ ...med(cs), msAll: cs.map((c) => Number(c.ms.toFixed(1))) })
    console.log(
      JSON.stringify({
        benchmark: 'keeper-cycle',
        cycles,
        sizes: figures.map((f) => ({
          borrowers: f.borrowers,
          withDebt: f.withDebt,
          setup: { entries: f.setupEntries, ms: Math.round(f.setupMs) },
          cold: { ...med([f.cold]), fullRead: f.cold.fullRead },
          warm: withAll(f.warm),
          changes: withAll(f.changes),
          audit: { ...withAll(f.audit), mismatches: f.auditMismatches },
        })),
        fill: fill ?? fillLine,
        auctions: auctionFigures.map((f) => ({
          borrowers: f.borrowers,
          auctions: f.auctions,
          whales: f.whales,
          withDebt: f.withDebt,
          setupMs: Math.round(f.setupMs),
          first: roundLedger(f.first),
          steady: { ...roundLedger(medLedger(f.steady)), msAll: f.steady.map((l) => Number(l.ms.toFixed(1))) },
          priceMove: roundLedger(f.priceMove),
        })),
        wallS: Number(wallS.toFixed(1)),
        peakRssMb: rssMb,
        nodePeakRssMb: nodeRssMb,
      }),
    )
  } finally {
    await sandbox.stop()
  }
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
