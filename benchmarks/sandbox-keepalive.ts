/**
 * Sandbox transport under shared use: client A keeps IDLE keep-alive connections open and idle
 * (closed after 5 s, as Node's global agent does), then client B sends a burst of BURST parallel
 * getLatestLedger / getLedgerEntries requests on fresh connections. One fresh node per round.
 *
 *   npx tsx benchmarks/sandbox-keepalive.ts        # BENCH_IDLE (3), BENCH_BURST (16), BENCH_ROUNDS (30)
 */
import http from 'node:http'
import { spawn } from 'node:child_process'
import { SANDBOX_BINARY } from '../sandbox/ts/launch.js'

const IDLE = Number(process.env.BENCH_IDLE ?? 3)
const BURST = Number(process.env.BENCH_BURST ?? 16)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30)

function post(url: URL, agent: http.Agent, method: string): Promise<number> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: method === 'getLedgerEntries' ? { keys: [] } : undefined })
  const t0 = performance.now()
  return new Promise((res, rej) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: '/rpc', method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (resp) => {
        resp.resume()
        resp.on('end', () => res(performance.now() - t0))
      },
    )
    req.on('error', rej)
    req.end(body)
  })
}

const walls: number[] = []
for (let round = 0; round < ROUNDS; round++) {
  const child = spawn(SANDBOX_BINARY, ['--port', '0', '--quiet', '--manual', '--exit-on-stdin-close'], { stdio: ['pipe', 'pipe', 'inherit'] })
  const url = await new Promise<URL>((res) =>
    child.stdout.on('data', (d: Buffer) => {
      const m = /ready (\S+)/.exec(String(d))
      if (m?.[1]) res(new URL(m[1]))
    }),
  )
  const a = new http.Agent({ keepAlive: true, timeout: 5000 })
  await Promise.all(Array.from({ length: IDLE }, () => post(url, a, 'getHealth')))
  await new Promise((r) => setTimeout(r, 30))
  const b = new http.Agent({ keepAlive: true, timeout: 5000 })
  const t0 = performance.now()
  await Promise.all(Array.from({ length: BURST }, (_, i) => post(url, b, i % 2 ? 'getLatestLedger' : 'getLedgerEntries')))
  const wall = performance.now() - t0
  walls.push(wall)
  if (wall > 100) console.log(`round ${round}: burst of ${BURST} took ${wall.toFixed(0)} ms`)
  a.destroy()
  b.destroy()
  child.stdin.end()
}
walls.sort((x, y) => x - y)
const p50 = walls[walls.length >> 1] ?? NaN
const max = walls[walls.length - 1] ?? NaN
console.log(`${IDLE} idle + burst of ${BURST}, ${ROUNDS} rounds: p50 ${p50.toFixed(1)} ms, max ${max.toFixed(1)} ms, rounds over 100 ms: ${walls.filter((w) => w > 100).length}`)
