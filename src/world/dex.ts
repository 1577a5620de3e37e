import type { Keypair } from '@stellar/stellar-sdk'
import { addr, bool, deployContract, i128, invoke, read, u64, type Chain } from '../chain/index.js'
import { addrs, bytes } from './scval.js'
import type { DexPairInfo, WorldAddresses } from './types.js'

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

/** One collateral's side of the DEX: its SAC, oracle price and depth (both 7 decimals). */
export interface DexAsset {
  contract: string
  price: bigint
  /** USD value on each side of the primary router's pool (the fallback router's gets half). */
  depthUsd: bigint
}

/**
 * The world's two routers (primary, fallback) with one USDC pair per collateral, seeded by
 * `provider` at each asset's price: `depthUsd` a side on the primary, half that on the fallback.
 * `provider` must hold 1.5 × depth of USDC and of each asset's worth.
 */
export async function deployDexes(
  chain: Chain,
  provider: Keypair,
  wasm: { dex_router: string; dex_pair: string },
  salt: (label: string) => Uint8Array,
  usdc: string,
  assets: readonly DexAsset[],
): Promise<WorldAddresses['dex']> {
  const UNIT = 10_000_000n
  const primaryRouter = await deployRouter(chain, provider, wasm.dex_router, wasm.dex_pair, salt('router/primary'))
  const fallbackRouter = await deployRouter(chain, provider, wasm.dex_router, wasm.dex_pair, salt('router/fallback'))
  const pairs: DexPairInfo[] = []
  for (const [router, share] of [
    [primaryRouter, 2n],
    [fallbackRouter, 1n],
  ] as const) {
    for (const a of assets) {
      const usdcSide = (a.depthUsd * share) / 2n
      const assetSide = (usdcSide * UNIT) / a.price
      const pair = await seedPair(chain, router, provider, usdc, a.contract, usdcSide, assetSide)
      pairs.push({ router, tokenA: usdc, tokenB: a.contract, pair })
    }
  }
  return { primaryRouter, fallbackRouter, pairWasmHash: wasm.dex_pair, pairs }
}
