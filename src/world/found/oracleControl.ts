/**
 * Prices under the scenario's control on an oracle we did not deploy. The oracle keeps its
 * address (the pool's config names it) and what the pool sees of it: its decimals, resolution,
 * base and asset list, read from the real contract first. Its code is replaced by the SEP-40 mock
 * oracle (`set_data`, `set_price(prices, timestamp)`), which we then own: every post carries the
 * timestamp we give, so the pool applies its own staleness rule to our prices as to real ones.
 */
import { type Keypair, scValToNative, xdr } from '@stellar/stellar-sdk'
import { addr, i128, invoke, simulateRead, u32, u64, uploadWasm, type Chain } from '../../chain/index.js'
import { decodePriceData, stellarAsset } from '../../keeper/adapters/blend/oracle.js'
import { loadWasm } from '../wasm.js'
import { replaceCode, type CheatNode } from './ledgerCheats.js'

export interface ControlledOracle {
  contract: string
  /** The real oracle's code (hex wasm hash) before it was replaced. */
  originalCode: string | null
  decimals: number
  resolution: number
  /** SEP-40 assets in the oracle's order; `ids[i]` is the contract of a `Stellar(address)` asset. */
  assets: xdr.ScVal[]
  ids: (string | undefined)[]
  /** Each asset's last price (oracle decimals) and its timestamp when it was taken over. */
  start: { price: bigint; timestamp: bigint }[]
  /** The arguments of `set_price` for these prices (asset contract → price, oracle decimals). */
  setPriceArgs(prices: ReadonlyMap<string, bigint>, timestamp: bigint): xdr.ScVal[]
}

/** A price (a plain number in the oracle's base) in an oracle's integer units. */
export function toOracleUnits(price: number, decimals: number): bigint {
  if (!(price > 0) || !Number.isFinite(price)) throw new RangeError(`price must be a positive number, got ${price}`)
  const exact = Math.min(decimals, 12)
  return BigInt(Math.round(price * 10 ** exact)) * 10n ** BigInt(decimals - exact)
}

function stellarAssetId(asset: xdr.ScVal): string | undefined {
  const v = scValToNative(asset) as unknown
  return Array.isArray(v) && v[0] === 'Stellar' && typeof v[1] === 'string' ? v[1] : undefined
}

/**
 * Reads the oracle's shape and last prices, swaps its code for the mock oracle's (uploaded by
 * `admin`) and publishes the same prices again, stamped `now`: the pool values every position
 * as before, and from here on only `admin` posts.
 */
export async function takeOverOracle(
  chain: Chain,
  node: CheatNode,
  admin: Keypair,
  oracle: string,
  now: bigint,
  originalCode: string | null,
  reserves: readonly string[],
): Promise<ControlledOracle> {
  const decimals = Number(scValToNative(await simulateRead(chain, oracle, 'decimals', [])))
  // SEP-40 asks for these too; an oracle that does not answer gets what a pool needs of it.
  const optional = (method: string) => simulateRead(chain, oracle, method, []).catch(() => undefined)
  const resolution = Number(scValToNative((await optional('resolution')) ?? u32(300)))
  const base = (await optional('base')) ?? xdr.ScVal.scvVec([xdr.ScVal.scvSymbol('Other'), xdr.ScVal.scvSymbol('USD')])
  const listed = await optional('assets')
  const assets = listed?.type === 'scvVec' && (listed.vec ?? []).length > 0 ? [...listed.vec!] : reserves.map((r) => stellarAsset(r))
  const missing = reserves.filter((r) => !assets.some((a) => stellarAssetId(a) === r))
  if (missing.length > 0) throw new Error(`oracle ${oracle} lists no price for reserve ${missing.join(', ')}`)
  const start: { price: bigint; timestamp: bigint }[] = []
  for (const a of assets) {
    const last = decodePriceData(await simulateRead(chain, oracle, 'lastprice', [a]))
    start.push(last ?? { price: 0n, timestamp: 0n })
  }
  const ids = assets.map(stellarAssetId)

  const hash = await uploadWasm(chain, admin, loadWasm('blend', 'sep40_oracle_mock'))
  await replaceCode(node, chain.server as never, oracle, hash)
  await invoke(chain, admin, oracle, 'set_data', [addr(admin.publicKey()), base, xdr.ScVal.scvVec(assets), u32(decimals), u32(resolution)])

  const setPriceArgs = (prices: ReadonlyMap<string, bigint>, timestamp: bigint): xdr.ScVal[] => {
    const values = ids.map((id, i) => (id !== undefined ? prices.get(id) : undefined) ?? start[i]!.price)
    return [xdr.ScVal.scvVec(values.map((v) => i128(v))), u64(timestamp)]
  }
  await invoke(chain, admin, oracle, 'set_price', setPriceArgs(new Map(), now))
  return { contract: oracle, originalCode, decimals, resolution, assets, ids, start, setPriceArgs }
}

