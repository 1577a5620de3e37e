/**
 * `npm run deploy -- --network testnet|local [--rpc-url URL] [--preset testnet] [--usdc C...]
 * [--secret-file FILE] [--out FILE] ...`: deploys and links the vault and the registry and writes
 * the deployments file (src/deploy/README.md). Exit status: 0 deployed or already complete, 1 a
 * step failed on the chain (rerun to resume), 2 bad command line or a refused file or network.
 */
import { runDeployCli } from './run.js'

runDeployCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
  // DEPLOY_CRASH_AT: a real crash, nothing written after it.
  crash: () => process.kill(process.pid, 'SIGKILL'),
}).then(
  (code) => {
    process.exitCode = code
  },
  (err: unknown) => {
    process.stderr.write(`deploy: ${(err as Error).stack ?? String(err)}\n`)
    process.exitCode = 1
  },
)
