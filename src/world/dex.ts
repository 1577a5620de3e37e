import type { Keypair } from '@stellar/stellar-sdk'
import { addr, bool, deployContract, i128, invoke, read, u64, type Chain } from '../chain/index.js'
import { addrs, bytes } from './scval.js'

/** A deadline far enough away for set-up transactions whatever the sandbox clock does. */
export const NO_DEADLINE = 2n ** 62n

/** Deploys a router (`__constructor(admin, pair_wasm_hash)`) from uploaded router code. */
export async function deployRouter(
  chain: Chain,
  admin: Keypair,
  routerHash: string,
  pairWasmHash: string,
  salt: Uint8Array,
): Promise<string> {
  return deployContract(chain, admin, routerHash, [addr(admin.publicKey()), bytes(Buffer.from(pairWasmHash, 'hex'))], { salt })
}

/**
 * `router.add_liquidity` from `provider` (the router creates the pair on first use).
 * Returns the pair address.
 */
export async function seedPair(
  chain: Chain,
  router: string,
  provider: Keypair,
  tokenA: string,
  tokenB: string,
  amountA: bigint,
  amountB: bigint,
): Promise<string> {
  await invoke(chain, provider, router, 'add_liquidity', [
    addr(tokenA),
    addr(tokenB),
    i128(amountA),
    i128(amountB),
    i128(0n),
    i128(0n),
    addr(provider.publicKey()),
    u64(NO_DEADLINE),
  ])
  return read<string>(chain, router, 'router_pair_for', [addr(tokenA), addr(tokenB)])
}

/** Quote: `router_get_amounts_out(amount_in, path)`; the last element is the output. */
export async function quoteOut(chain: Chain, router: string, amountIn: bigint, path: readonly string[]): Promise<bigint[]> {
  return read<bigint[]>(chain, router, 'router_get_amounts_out', [i128(amountIn), addrs(path)])
}

/** Admin hook: a paused router refuses every swap and quote with error 351. */
export async function setRouterPaused(chain: Chain, admin: Keypair, router: string, paused: boolean): Promise<void> {
  await invoke(chain, admin, router, 'set_paused', [bool(paused)])
}
