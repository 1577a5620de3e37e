import type { Keypair } from '@stellar/stellar-sdk'
import type { World } from '../../src/world/index.js'

/**
 * A keeper's environment for a sandbox world: the world's contract ids and RPC, the keeper's
 * secret and name, a free API port on loopback, a 3 s poll, a fast ledger clock. `extra` wins.
 */
export function worldKeeperEnv(world: World, keeper: Keypair, name: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...world.addresses.env,
    KEEPER_SECRET: keeper.secret(),
    KEEPER_NAME: name,
    API_PORT: '0',
    API_HOST: '127.0.0.1',
    POLL_INTERVAL: '3',
    MIN_PROFIT: '1.02',
    SLIPPAGE_BPS: '300',
    LEDGER_POLL_MS: '100',
    ...extra,
  }
}
