import type { Keypair } from '@stellar/stellar-sdk'
import { addr, bool, deployContract, i128, invoke, read, u64, type Chain } from '../chain/index.js'
import { addrs, bytes, i128s } from './scval.js'
import type { CometPoolInfo, DexPairInfo, WorldAddresses } from './types.js'

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

const UNIT = 10_000_000n

/** Comet pool weights (7 decimals, summing to 1) and swap fee: 50/50, 0.3 %. */
const COMET_WEIGHTS = [5_000_000n, 5_000_000n] as const
const COMET_FEE = 30_000n

/** One collateral's side of the DEX: its SAC, oracle price and depth (both 7 decimals). */
export interface DexAsset {
  contract: string
  price: bigint
  /** USD value on each side of the primary router's pool (the fallback router's gets half). */
  depthUsd: bigint
  /** USD value on each side of a Comet pool of this asset against USDC (absent or 0n: none). */
  cometDepthUsd?: bigint
  /**
   * A pair of this asset against another one (its SAC and oracle price) on the primary router,
   * `depthUsd` a side: the route [this, other, USDC].
   */
  via?: { contract: string; price: bigint; depthUsd: bigint }
}

/**
 * What `deployDexes` seeds its pools with, which its `provider` must hold: USDC, and each
 * asset's amount in `assets` order (its own pools plus what other assets' `via` pairs take of it).
 */
export function dexSeedAmounts(assets: readonly DexAsset[]): { usdc: bigint; assets: bigint[] } {
  let usdc = 0n
  const amounts = assets.map((a) => ((a.depthUsd + a.depthUsd / 2n) * UNIT) / a.price)
  for (const [i, a] of assets.entries()) {
    usdc += a.depthUsd + a.depthUsd / 2n
    const comet = a.cometDepthUsd ?? 0n
    if (comet > 0n) {
      usdc += comet
      amounts[i]! += (comet * UNIT) / a.price
    }
    if (a.via !== undefined) {
      const via = a.via
      const other = assets.findIndex((b) => b.contract === via.contract)
      if (other < 0 || other === i) throw new RangeError(`via: ${via.contract} is not another asset of the list`)
      amounts[i]! += (via.depthUsd * UNIT) / a.price
      amounts[other]! += (via.depthUsd * UNIT) / via.price
    }
  }
  return { usdc, assets: amounts }
}

/**
 * Deploys a Comet weighted pool (`wasmHash`, the published Comet code) of `token` against USDC:
 * `init(controller, [token, usdc], weights 0.5/0.5, [tokenAmount, usdcAmount], fee 0.3 %)`, which
 * pulls both amounts from `controller` and mints it the pool's first 100 LP tokens.
 */
export async function deployComet(
  chain: Chain,
  controller: Keypair,
  wasmHash: string,
  salt: Uint8Array,
  token: string,
  usdc: string,
  tokenAmount: bigint,
  usdcAmount: bigint,
): Promise<string> {
  const pool = await deployContract(chain, controller, wasmHash, [], { salt })
  await invoke(chain, controller, pool, 'init', [
    addr(controller.publicKey()),
    addrs([token, usdc]),
    i128s([...COMET_WEIGHTS]),
    i128s([tokenAmount, usdcAmount]),
    i128(COMET_FEE),
  ])
  return pool
}

/**
 * The world's two routers (primary, fallback) with one USDC pair per collateral, seeded by
 * `provider` at each asset's price: `depthUsd` a side on the primary, half that on the fallback.
 * Then, on the primary router, each asset's `via` pair against the other asset (`via.depthUsd` a
 * side at both prices), and a Comet pool against USDC for each asset with `cometDepthUsd`
 * (`wasm.comet` needed then). `provider` must hold `dexSeedAmounts(assets)`.
 */
export async function deployDexes(
  chain: Chain,
  provider: Keypair,
  wasm: { dex_router: string; dex_pair: string; comet?: string },
  salt: (label: string) => Uint8Array,
  usdc: string,
  assets: readonly DexAsset[],
): Promise<WorldAddresses['dex']> {
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
  for (const a of assets) {
    if (a.via === undefined) continue
    const mine = (a.via.depthUsd * UNIT) / a.price
    const other = (a.via.depthUsd * UNIT) / a.via.price
    const pair = await seedPair(chain, primaryRouter, provider, a.contract, a.via.contract, mine, other)
    pairs.push({ router: primaryRouter, tokenA: a.contract, tokenB: a.via.contract, pair })
  }
  const comets: CometPoolInfo[] = []
  for (const a of assets) {
    const depth = a.cometDepthUsd ?? 0n
    if (depth <= 0n) continue
    if (wasm.comet === undefined) throw new Error('a Comet pool needs the uploaded Comet code (wasm.comet)')
    const pool = await deployComet(chain, provider, wasm.comet, salt(`comet/${a.contract}`), a.contract, usdc, (depth * UNIT) / a.price, depth)
    comets.push({ asset: a.contract, pool })
  }
  return { primaryRouter, fallbackRouter, pairWasmHash: wasm.dex_pair, pairs, comets }
}
