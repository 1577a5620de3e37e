/**
 * Keeper-cycle benchmark: one lending-pool scan (the adapter's getTasks: events, pool, positions,
 * prices, auctions) against the sandbox with the real Blend v2 pool of src/world, for 10, 100 and
 * 1,000 borrowers; then one liquidation to count the ledgers between the first profitable ledger
 * and the confirmed fill.
 *
 * Borrowers beyond the world's own (which opened real positions through the pool) get healthy
 * Positions entries written with the sandbox's `sandbox_setLedgerEntry` cheat and are handed to
 * the scanner directly, so the cycle reads 1,000 real ledger entries without 4,000 set-up
 * transactions. Every RPC request is counted at the client (a counting wrapper around
 * rpc.Server), independently of the adapter's own statistics.
 *
 * Run: npx tsx benchmarks/keeper-cycle.ts   (options: --cycles 5 --sizes 10,100,1000)
 */
import { Keypair, rpc, xdr } from '@stellar/stellar-sdk'
import { startSandbox } from '../sandbox/ts/launch.js'
import { createChain } from '../src/chain/index.js'
import { VaultContract } from '../src/keeper/clients/vault.js'
import { lendingPoolAdapter } from '../src/keeper/adapters/blend/index.js'
import { encodePositions } from '../src/keeper/adapters/blend/fakeLedger.test-util.js'
import { positionsKey } from '../src/keeper/adapters/blend/storage.js'
import { deployWorld } from '../src/world/index.js'

const UNIT = 10_000_000n

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback
}

/** rpc.Server whose every request is counted by method. */
function countingServer(inner: rpc.Server): { server: rpc.Server; counts: Map<string, number>; reset(): void } {
  const counts = new Map<string, number>()
  const methods = ['getLedgerEntries', 'getEvents', 'getHealth', 'getLatestLedger', 'simulateTransaction', 'sendTransaction', 'getTransaction', 'getAccount']
  const server = new Proxy(inner, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown
      if (typeof prop === 'string' && methods.includes(prop) && typeof v === 'function') {
        return (...a: unknown[]) => {
          counts.set(prop, (counts.get(prop) ?? 0) + 1)
          return (v as (...x: unknown[]) => unknown).apply(target, a)
        }
      }
      return typeof v === 'function' ? (v as (...x: unknown[]) => unknown).bind(target) : v
    },
  })
  return { server, counts, reset: () => counts.clear() }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

async function main(): Promise<void> {
  const sizes = arg('sizes', '10,100,1000').split(',').map(Number)
  const cycles = Number(arg('cycles', '5'))
  const sandbox = await startSandbox({ port: 0, ledgerIntervalSeconds: 1 })
  try {
    process.stderr.write('deploying the world...\n')
    const world = await deployWorld(sandbox, { seed: 5, borrowers: 4, keepers: 1 })
    const counting = countingServer(sandbox.server)
    const chain = createChain({ rpcUrl: sandbox.rpcUrl, networkPassphrase: sandbox.networkPassphrase, server: counting.server })
    const weth = world.collaterals[0]!
    const wethIndex = world.blend.reserves.indexOf(weth.contract)
    const usdcIndex = world.blend.reserves.indexOf(world.usdc.contract)

    const fills: { plannedLedger: number; fillLedger: number }[] = []
    const adapter = lendingPoolAdapter({
      pool: world.blend.pool,
      usdc: world.usdc.contract,
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
      onFill: (f) => fills.push(f),
    })

    // Cold start: the first scan pages every pool event in the retention window and reads the
    // reserve entries in a second wave.
    counting.reset()
    const c0 = performance.now()
    await adapter.getTasks(chain)
    const coldMs = performance.now() - c0
    const coldRequests = [...counting.counts.values()].reduce((s, v) => s + v, 0)
    const coldWaves = adapter.lastScan()!.stats.waves

    const rows: string[][] = []
    let synthetic = 0
    const real = world.borrowers.length
    for (const n of sizes) {
      const add = Math.max(0, n - real - synthetic)
      const users: string[] = []
      for (let i = 0; i < add; i++) {
        const user = Keypair.random().publicKey()
        const key = positionsKey(world.blend.pool, user)
        const val = encodePositions({
          collateral: new Map([[wethIndex, 1n * UNIT]]), // 1 WETH: 1,500 USD effective
          liabilities: new Map([[usdcIndex, 900n * UNIT]]), // ~947 USD effective: HF ~1.58
          supply: new Map(),
        })
        const k = xdr.expectUnionVariant(key, 'contractData').contractData
        const entry = new xdr.LedgerEntry({
          lastModifiedLedgerSeq: 0,
          data: xdr.LedgerEntryData.contractData(
            new xdr.ContractDataEntry({ ext: xdr.ExtensionPoint.v0(), contract: k.contract, key: k.key, durability: k.durability, val }),
          ),
          ext: xdr.LedgerEntryExt.v0(),
        })
        await sandbox.call('sandbox_setLedgerEntry', { entry: entry.toXdr('base64') })
        users.push(user)
      }
      synthetic += add
      adapter.scanner.addBorrowers(users)
      await adapter.getTasks(chain) // warm-up: loads any new borrowers
      const times: number[] = []
      const requests: number[] = []
      const entriesCalls: number[] = []
      const waves: number[] = []
      for (let c = 0; c < cycles; c++) {
        counting.reset()
        const t0 = performance.now()
        await adapter.getTasks(chain)
        times.push(performance.now() - t0)
        requests.push([...counting.counts.values()].reduce((s, v) => s + v, 0))
        entriesCalls.push(counting.counts.get('getLedgerEntries') ?? 0)
        waves.push(adapter.lastScan()!.stats.waves)
      }
      const borrowers = adapter.lastScan()!.borrowers.length
      rows.push([String(n), String(borrowers), median(times).toFixed(1), String(median(requests)), String(median(entriesCalls)), String(median(waves))])
      process.stderr.write(`n=${n}: ${median(times).toFixed(1)} ms\n`)
    }

    // One liquidation: ledgers between the first profitable ledger and the confirmed fill.
    const borrower = world.borrowers[0]!
    await world.setPrice(borrower.collateralAsset.contract, (world.price(borrower.collateralAsset.contract) * 90n) / 100n)
    const task = (await adapter.getTasks(chain)).find((t) => t.data.user === borrower.address)
    let fillLine = 'no liquidatable borrower after the price drop'
    if (task !== undefined) {
      const keeper = world.keepers[0]!
      const res = await adapter.execute(chain, keeper, task, new VaultContract(chain, world.service!.vault).bind(keeper))
      const f = fills[0]
      fillLine =
        f === undefined
          ? `no fill (${res.note ?? ''})`
          : `planned (first profitable) ledger ${f.plannedLedger}, fill confirmed in ledger ${f.fillLedger}: ${f.fillLedger - f.plannedLedger} ledgers after; profit ${res.profit} (7 decimals)`
    }

    const header = ['borrowers (target)', 'borrowers with debt', 'cycle ms (median)', 'RPC requests / cycle', 'getLedgerEntries / cycle', 'sequential waves']
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
    const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`
    console.log(line(header))
    console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`)
    for (const r of rows) console.log(line(r))
    console.log()
    console.log(`cold start (${real} borrowers from events): ${coldMs.toFixed(1)} ms, ${coldRequests} RPC requests, ${coldWaves} sequential waves`)
    console.log(`fill: ${fillLine}`)
  } finally {
    await sandbox.stop()
  }
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
