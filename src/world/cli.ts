/**
 * Stands a world up from the command line and writes its addresses file.
 *
 *   npx tsx src/world/cli.ts [--seed N] [--out FILE] [--borrowers N]
 *       [--rpc-url URL --friendbot-url URL --passphrase P]   (an already running network)
 *
 * Without --rpc-url it starts a sandbox (port 0), prints its RPC URL and keeps it running until
 * Ctrl-C. The addresses file defaults to target/world.json.
 */
import { parseArgs } from 'node:util'
import { startSandbox, type Sandbox } from '../../sandbox/ts/launch.js'
import { deployWorld } from './deployWorld.js'
import type { WorldNetwork } from './types.js'

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string', default: '1' },
      out: { type: 'string', default: 'target/world.json' },
      borrowers: { type: 'string', default: '4' },
      'rpc-url': { type: 'string' },
      'friendbot-url': { type: 'string' },
      passphrase: { type: 'string' },
    },
  })
  if (!/^\d+$/.test(values.seed) || !/^\d+$/.test(values.borrowers)) {
    throw new Error('--seed and --borrowers take non-negative integers')
  }
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
    addressesFile: values.out,
    log: (line) => console.log(`[${((Date.now() - started) / 1000).toFixed(1)}s] ${line}`),
  })
  console.log(`pool ${world.blend.pool}; addresses in ${values.out}`)
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
