/**
 * `npm run bench [name ...]`: runs the benchmarks one after another (default: all), each in its
 * own process so one's sandbox and timers cannot disturb the next. Names: sandbox,
 * sandbox-keepalive, sandbox-fork, keeper-api, metrics-scrape, keeper-cycle, mass-liquidation,  sim, sweep-scale, audit, dashboardBundle,
 * lighthouse,
 * and, only when named (it takes hours at its defaults), determinism. Every
 * benchmark prints its own table; benchmarks/README.md says what each measures.
 */
import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const all = ['sandbox', 'sandbox-keepalive', 'sandbox-fork', 'keeper-api', 'metrics-scrape', 'keeper-cycle', 'mass-liquidation', 'sim', 'sweep-scale', 'audit', 'dashboardBundle', 'lighthouse'] as const
/** Run only when named. */
const onDemand = ['determinism'] as const
const known: readonly string[] = [...all, ...onDemand]
const asked = process.argv.slice(2)
const unknown = asked.filter((n) => !known.includes(n))
if (unknown.length > 0) {
  process.stderr.write(`unknown benchmark: ${unknown.join(', ')} (expected one of ${known.join(', ')})\n`)
  process.exit(2)
}
let failed = 0
for (const name of asked.length > 0 ? asked : all) {
  process.stdout.write(`\n== ${name}\n`)
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(here, `${name}.ts`)], { stdio: 'inherit' })
  if (r.status !== 0) {
    process.stderr.write(`${name} failed (exit ${r.status})\n`)
    failed++
  }
}
process.exit(failed === 0 ? 0 : 1)
