/**
 * Keeper daemon benchmark on the sandbox: start-up time (spawn → API listening → first cycle),
 * monitor-only cycle duration, HTTP latency and throughput of /healthz, /api/state, /metrics,
 * and the submission pipeline's latency for one contract call (simulate → send → confirmed).
 * The keeper has an API_TOKEN and every request carries it (`Authorization: Bearer`), so
 * /api/state is measured in full, with its strategy details (without the token it is smaller).
 *
 * Run: npx tsx benchmarks/keeper-api.ts            (keeper from source)
 *      KEEPER_BIN=dist/keeper npx tsx benchmarks/keeper-api.ts   (the single executable)
 * Knobs: BENCH_REQUESTS (2000 per route), BENCH_CONCURRENCY (16), BENCH_CYCLES (5), BENCH_CALLS (20).
 */
import { performance } from 'node:perf_hooks'
import { resolve } from 'node:path'
import { startSandbox } from '../sandbox/ts/launch.js'
import { VaultContract } from '../src/keeper/clients/index.js'
import { spawnKeeper } from '../test/keeper/keeperProcess.js'
import { deployVaultWorld, vaultKeeperEnv } from '../test/keeper/vaultWorld.js'

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16)
const CYCLES = Number(process.env.BENCH_CYCLES ?? 5)
const CALLS = Number(process.env.BENCH_CALLS ?? 20)
// The keeper's API token: /api/state carries its strategy details only for a request with it.
const API_TOKEN = 'keeper-api-benchmark-token-0123456789'
const AUTH = { authorization: `Bearer ${API_TOKEN}` }

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN
}

async function hammer(url: string): Promise<{ p50: number; p99: number; rps: number }> {
  const lat: number[] = []
  let next = 0
  const t0 = performance.now()
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < REQUESTS) {
        const s = performance.now()
        const res = await fetch(url, { headers: AUTH })
        await res.arrayBuffer()
        if (res.status !== 200) throw new Error(`${url}: ${res.status}`)
        lat.push(performance.now() - s)
      }
    }),
  )
  const secs = (performance.now() - t0) / 1000
  return { p50: pct(lat, 50), p99: pct(lat, 99), rps: lat.length / secs }
}

const sandbox = await startSandbox()
try {
  const world = await deployVaultWorld(sandbox)
  const vault = new VaultContract(world.chain, world.vault)
  const depositor = await world.newAccount(100_000_0000000n)
  const keeper = await world.newAccount(500_0000000n)

  // Submission pipeline: one vault.deposit per call, end to end.
  const calls: number[] = []
  for (let i = 0; i < CALLS; i++) {
    const s = performance.now()
    await vault.deposit(depositor, 10_0000000n)
    calls.push(performance.now() - s)
  }

  const t0 = performance.now()
  const bin = process.env.KEEPER_BIN
  const k = spawnKeeper(
    vaultKeeperEnv(world, sandbox, keeper, { KNOWN_DEPOSITORS: depositor.publicKey(), LOG_LEVEL: 'info', API_TOKEN }),
    bin ? { executable: resolve(bin) } : {},
  )
  const port = await k.port()
  const listening = performance.now() - t0
  await k.waitForLog((l) => l.msg === 'cycle done')
  const firstCycle = performance.now() - t0
  await k.waitForLog((l) => l.msg === 'cycle done' && Number(l.cycle) >= CYCLES, 30_000 + CYCLES * 4_000)
  const durations = k.lines.filter((l) => l.msg === 'cycle done').map((l) => Number(l.durationMs))
  const full = (await (await fetch(`http://127.0.0.1:${port}/api/state`, { headers: AUTH })).json()) as { strategyDetails?: boolean }
  if (full.strategyDetails === false) throw new Error('/api/state left its strategy details out: the API token was not accepted')

  const rows: string[][] = []
  for (const route of ['/healthz', '/api/state', '/api/performance', '/metrics']) {
    const r = await hammer(`http://127.0.0.1:${port}${route}`)
    rows.push([route, r.p50.toFixed(2), r.p99.toFixed(2), r.rps.toFixed(0)])
  }
  k.kill('SIGTERM')
  const t1 = performance.now()
  const code = await k.exited
  const stopMs = performance.now() - t1

  console.log(`keeper: ${bin ? `single executable ${bin}` : 'from source (tsx)'}; ${REQUESTS} requests per route, concurrency ${CONCURRENCY}, with the API token (full /api/state)`)
  console.log(`start-up: API listening ${listening.toFixed(0)} ms (registration included), first cycle done ${firstCycle.toFixed(0)} ms`)
  console.log(`monitor-only cycle (recovery check + vault state + keepers + 1 depositor): p50 ${pct(durations, 50)} ms, max ${Math.max(...durations)} ms over ${durations.length} cycles [${durations.join(", ")}]`)
  console.log(`submission pipeline (vault.deposit, simulate → confirmed): p50 ${pct(calls, 50).toFixed(0)} ms, p99 ${pct(calls, 99).toFixed(0)} ms over ${CALLS} calls`)
  console.log(`SIGTERM → exit ${code}: ${stopMs.toFixed(0)} ms`)
  console.log('| route | p50 ms | p99 ms | req/s |')
  console.log('| --- | --- | --- | --- |')
  for (const r of rows) console.log(`| ${r.join(' | ')} |`)
} finally {
  await sandbox.stop()
}
