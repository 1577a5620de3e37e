/**
 * Stands a world up from the command line and writes its addresses file.
 *
 *   npx tsx src/world/cli.ts [--seed N] [--out FILE] [--borrowers N] [--pools N]
 *       [--rpc-url URL --friendbot-url URL --passphrase P]   (an already running network)
 *
 * Without --rpc-url it starts a sandbox (port 0), prints its RPC URL and keeps it running until
 * Ctrl-C. The addresses file defaults to target/world.json.
 */
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util'
import { wantsHelp } from '../cli/help.js'
import { startSandbox, type Sandbox } from '../../sandbox/ts/launch.js'
import { deployWorld } from './deployWorld.js'
import type { WorldNetwork } from './types.js'

const OPTIONS = {
  seed: { type: 'string', default: '1' },
  out: { type: 'string', default: 'target/world.json' },
  borrowers: { type: 'string', default: '4' },
  pools: { type: 'string', default: '1' },
  'rpc-url': { type: 'string' },
  'friendbot-url': { type: 'string' },
  passphrase: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} satisfies ParseArgsOptionsConfig

const USAGE = `usage: npx tsx src/world/cli.ts [options]

Stands a world up (USDC, oracle, Blend v2 pools, DEX, vault, registry, borrowers) and writes its
addresses file. Without --rpc-url it starts a sandbox node, prints its RPC URL and keeps it
running until Ctrl-C.

options:
  --seed N               the world's seed (default 1)
  --out FILE             the addresses file (default target/world.json)
  --borrowers N          borrowers opened through the pools (default 4)
  --pools N              Blend pools sharing the oracle and reserves, 1 to 4 (default 1);
                         borrower i opens in pool i % N, and with more than one the keeper env
                         names them all in LENDING_POOLS
  --rpc-url URL          an already running network instead of a new sandbox (default: none);
                         needs --friendbot-url and --passphrase
  --friendbot-url URL    that network's friendbot (default: none)
  --passphrase P         that network's passphrase (default: none)
  -h, --help             this text

example:
  npx tsx src/world/cli.ts --seed 7 --borrowers 12 --out target/world-7.json
  npx tsx src/world/cli.ts --pools 2 --borrowers 8
`

async function main(): Promise<void> {
  if (wantsHelp(process.argv.slice(2))) {
    process.stdout.write(USAGE)
    return
  }
  let values: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values']
  try {
    values = parseArgs({ options: OPTIONS }).values
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)} (--help lists the options)`)
    process.exit(2)
  }
  if (!/^\d+$/.test(values.seed) || !/^\d+$/.test(values.borrowers)) {
    throw new Error('--seed and --borrowers take non-negative integers')
  }
  if (!/^[1-4]$/.test(values.pools)) throw new Error('--pools takes 1 to 4')
  let sandbox: Sandbox | undefined
  let network: WorldNetwork
  if (values['rpc-url'] !== undefined) {
    if (values['friendbot-url'] === undefined || values.passphrase === undefined) {
      throw new Error('--rpc-url needs --friendbot-url and --passphrase')
    }
    network = { rpcUrl: values['rpc-url'], friendbotUrl: values['friendbot-url'], networkPassphrase: values.passphrase }
  } else {
    sandbox = await startSandbox({ port: 0 })
    network = sandbox
    console.log(`sandbox ${sandbox.rpcUrl}`)
  }
  const started = Date.now()
  const world = await deployWorld(network, {
    seed: BigInt(values.seed),
    borrowers: Number(values.borrowers),
    pools: Number(values.pools),
    addressesFile: values.out,
    log: (line) => console.log(`[${((Date.now() - started) / 1000).toFixed(1)}s] ${line}`),
  })
  console.log(`${world.blend.pools.length === 1 ? 'pool' : 'pools'} ${world.blend.pools.join(', ')}; addresses in ${values.out}`)
  if (sandbox) {
    const running = sandbox
    console.log('sandbox running; Ctrl-C to stop')
    const stop = () => void running.stop().then(() => process.exit(0))
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
