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
 * Run: npx tsx benchmarks/keeper-cycle.ts
 *   options: --sizes 10,100,1000,10000,50000 --cycles 5
 *            --cpu-prof [DIR] (V8 profiles of extra warm and audit cycles at sizes >= 10,000,
 *            default DIR target/bench/keeper-cycle)
 */
import { startSandbox } from '../sandbox/ts/launch.js'
import { createChain, type Chain } from '../src/chain/index.js'
import { VaultContract } from '../src/keeper/clients/vault.js'
import { lendingPoolAdapter, type LendingPoolAdapter, type LendingPoolAdapterParameters } from '../src/keeper/adapters/blend/index.js'
import { DEFAULT_FULL_READ_EVERY_MS } from '../src/keeper/adapters/blend/poolState.js'
import { blendRequest, deployWorld, poolSubmit, REQUEST } from '../src/world/index.js'
import { countingServer, cpuClock, markdownTable, med, profiled, syntheticUser, writePositions, type Cycle } from './lib/keeperCycle.js'

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

async function main(): Promise<void> {
  const sizes = arg('sizes', '10,100,1000,10000,50000').split(',').map(Number)
  const cycles = Number(arg('cycles', '5'))
  const profileDir = process.argv.includes('--cpu-prof') ? arg('cpu-prof', 'target/bench/keeper-cycle') : undefined
  const wallStart = performance.now()
  const sandbox = await startSandbox({ port: 0, ledgerIntervalSeconds: 1 })
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
    const wallS = (performance.now() - wallStart) / 1000
    const rssMb = Math.round(process.resourceUsage().maxRSS / 1024)
    const nodeRssMb = clock.nodePeakRssMb()
    console.log(`wall ${wallS.toFixed(0)} s, peak RSS: this process ${rssMb} MB, sandbox node ${nodeRssMb ?? '-'} MB`)
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
