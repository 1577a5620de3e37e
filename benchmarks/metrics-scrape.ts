/**
 * /metrics under a burst of scrapes: a keeper daemon (from source, vault-monitor-only, on a
 * sandbox with the vault, registry and USDC deployed) answers BENCH_SCRAPES concurrent
 * GET /metrics, BENCH_ROUNDS times; per-request latency p50 / p99 / max, and single scrapes one
 * after another for comparison. Every answer must be 200 with the keeper's metrics in it.
 *
 * Run: npx tsx benchmarks/metrics-scrape.ts     (or npm run bench -- metrics-scrape)
 *      KEEPER_BIN=dist/keeper npx tsx benchmarks/metrics-scrape.ts   (the single executable)
 * Knobs: BENCH_SCRAPES (500), BENCH_ROUNDS (5), BENCH_SEQUENTIAL (200).
 *        BENCH_CLIENT=raw: each scrape is a bare socket that writes the request and keeps the
 *        answer's bytes (no HTTP client parsing, no decoding), so that the client, which shares
 *        the machine's cores with the keeper, costs as little as it can.
 */
import { Agent, request } from 'node:http'
import { connect } from 'node:net'
import { resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { startSandbox } from '../sandbox/ts/launch.js'
import { spawnKeeper } from '../test/keeper/keeperProcess.js'
import { deployVaultWorld, vaultKeeperEnv } from '../test/keeper/vaultWorld.js'

const SCRAPES = Number(process.env.BENCH_SCRAPES ?? 500)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 200)
/** The route hammered (default /metrics; /healthz is the control: the same HTTP work, no collection). */
const PATH = process.env.BENCH_PATH ?? '/metrics'
/**
 * BENCH_KEEPALIVE=1: every scraper keeps its connection between bursts (as a Prometheus server
 * does between scrapes); default: a fresh connection per scrape (the connection set-up counted).
 */
const KEEPALIVE = process.env.BENCH_KEEPALIVE === '1'
const agent = KEEPALIVE ? new Agent({ keepAlive: true, maxSockets: Infinity }) : false
const RAW = process.env.BENCH_CLIENT === 'raw'
if (RAW && KEEPALIVE) throw new Error('BENCH_CLIENT=raw opens a fresh connection per scrape: unset BENCH_KEEPALIVE')
const MUST_HAVE = Buffer.from('\nservice_cycles_total ')

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN
}

/** One GET on a bare socket (Connection: close): ms until the server closed after the body. */
function rawScrape(port: number): Promise<number> {
  const started = performance.now()
  return new Promise((resolveMs, reject) => {
    const chunks: Buffer[] = []
    const socket = connect({ host: '127.0.0.1', port }, () => socket.write(`GET ${PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`))
    socket.on('data', (c: Buffer) => chunks.push(c))
    socket.on('error', reject)
    socket.on('close', () => {
      const answer = Buffer.concat(chunks)
      const ok = answer.subarray(0, 12).toString('latin1') === 'HTTP/1.1 200' && (PATH !== '/metrics' || answer.includes(MUST_HAVE))
      if (ok) resolveMs(performance.now() - started)
      else reject(new Error(`bad scrape: ${answer.subarray(0, 40).toString('latin1')}`))
    })
  })
}

/** One GET on a fresh connection (as separate Prometheus servers would scrape): ms until the body ended. */
function scrape(port: number): Promise<number> {
  if (RAW) return rawScrape(port)
  const started = performance.now()
  return new Promise((resolveMs, reject) => {
    const req = request({ host: '127.0.0.1', port, path: PATH, agent }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (body += c))
      res.on('end', () => {
        if (res.statusCode !== 200 || (PATH === '/metrics' && !/^service_cycles_total \d+$/m.test(body))) reject(new Error(`bad scrape: ${res.statusCode}`))
        else resolveMs(performance.now() - started)
      })
    })
    req.on('error', reject)
    req.end()
  })
}

const sandbox = await startSandbox()
try {
  const world = await deployVaultWorld(sandbox)
  const keeper = await world.newAccount(500_0000000n)
  const bin = process.env.KEEPER_BIN
  const k = spawnKeeper(
    vaultKeeperEnv(world, sandbox, keeper, { LOG_LEVEL: 'info' }),
    bin ? { executable: resolve(bin) } : {},
  )
  try {
    const port = await k.port()
    await k.waitForLog((l) => l.msg === 'cycle done')
    // Warm-up: one burst and a few single scrapes (JIT, first connections).
    await Promise.all(Array.from({ length: SCRAPES }, () => scrape(port)))
    for (let i = 0; i < 20; i++) await scrape(port)

    const burst: number[] = []
    let burstWall = 0
    for (let r = 0; r < ROUNDS; r++) {
      const t0 = performance.now()
      burst.push(...(await Promise.all(Array.from({ length: SCRAPES }, () => scrape(port)))))
      burstWall += performance.now() - t0
      await new Promise((res) => setTimeout(res, 200))
    }
    const single: number[] = []
    for (let i = 0; i < SEQUENTIAL; i++) single.push(await scrape(port))

    console.log(
      `keeper: ${bin ? `single executable ${bin}` : 'from source (tsx)'}; ${ROUNDS} bursts of ${SCRAPES} concurrent GET ${PATH} (${RAW ? 'bare sockets, a fresh connection each' : KEEPALIVE ? 'kept-alive connections' : 'a fresh connection each'}), then ${SEQUENTIAL} one at a time`,
    )
    console.log('| scrapes | p50 ms | p99 ms | max ms | scrapes/s |')
    console.log('| --- | ---: | ---: | ---: | ---: |')
    console.log(`| ${SCRAPES} concurrent (×${ROUNDS}) | ${pct(burst, 50).toFixed(1)} | ${pct(burst, 99).toFixed(1)} | ${Math.max(...burst).toFixed(1)} | ${((SCRAPES * ROUNDS) / (burstWall / 1000)).toFixed(0)} |`)
    console.log(`| one at a time (×${SEQUENTIAL}) | ${pct(single, 50).toFixed(1)} | ${pct(single, 99).toFixed(1)} | ${Math.max(...single).toFixed(1)} | ${(1000 / (single.reduce((a, b) => a + b, 0) / single.length)).toFixed(0)} |`)
    console.log(JSON.stringify({ benchmark: 'metrics-scrape', path: PATH, keepAlive: KEEPALIVE, client: RAW ? 'raw' : 'http', scrapes: SCRAPES, rounds: ROUNDS, burst: { p50: pct(burst, 50), p99: pct(burst, 99), max: Math.max(...burst) }, single: { p50: pct(single, 50), p99: pct(single, 99) } }))
  } finally {
    if (agent) agent.destroy()
    k.kill('SIGTERM')
    await k.exited
  }
} finally {
  await sandbox.stop()
}
