/**
 * `npm run audit -- --addresses <file> [--json] [--watch [--interval-ledgers N] [--metrics-port P]]`
 * or `npm run audit -- --rpc-url <url> --vault <C...> --registry <C...> [--usdc <C...>] [--from-ledger N]`:
 * checks the vault's and the registry's invariants (src/audit/README.md) on a live chain.
 * Exit status: 0 every invariant holds, 1 one is broken, 2 the audit could not run (bad input,
 * or the chain could not be read; the message names the call that failed and why).
 */
import { runCli } from './cli/run.js'

const controller = new AbortController()
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => controller.abort())

runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  columns: process.stdout.columns ?? 120,
  signal: controller.signal,
}).then(
  (code) => {
    process.exitCode = code
  },
  (err: unknown) => {
    process.stderr.write(`audit: ${(err as Error).stack ?? String(err)}\n`)
    process.exitCode = 2
  },
)
