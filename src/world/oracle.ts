import type { Keypair } from '@stellar/stellar-sdk'
import { addr, deployContract, invoke, u32, type Chain } from '../chain/index.js'
import { i128s, sep40Asset, vec } from './scval.js'

/** Decimals of every price the world's oracle reports. */
export const ORACLE_DECIMALS = 7

/**
 * The SEP-40 mock oracle (crate sep-40-oracle, testutils WASM): one price per asset, stamped
 * with the ledger time of every read (`set_price_stable`), so prices never go stale.
 */
export class WorldOracle {
  readonly contract: string
  private readonly assets: readonly string[]
  private readonly prices: bigint[]

  private constructor(contract: string, assets: readonly string[], prices: readonly bigint[]) {
    this.contract = contract
    this.assets = assets
    this.prices = [...prices]
  }

  /** Deploys the oracle with `base` (USD as the USDC contract) and initial prices (7 decimals). */
  static async deploy(
    chain: Chain,
    admin: Keypair,
    base: string,
    initial: ReadonlyArray<{ asset: string; price: bigint }>,
    wasmHash: string,
    salt: Uint8Array,
  ): Promise<WorldOracle> {
    const contract = await deployContract(chain, admin, wasmHash, [], { salt })
    const assets = initial.map((p) => p.asset)
    await invoke(chain, admin, contract, 'set_data', [
      addr(admin.publicKey()),
      sep40Asset(base),
      vec(assets.map(sep40Asset)),
      u32(ORACLE_DECIMALS),
      u32(300),
    ])
    const oracle = new WorldOracle(contract, assets, initial.map((p) => p.price))
    await oracle.publish(chain, admin)
    return oracle
  }

  /** Current price (7 decimals) the world last set for `asset`. */
  price(asset: string): bigint {
    const i = this.indexOf(asset)
    return this.prices[i]!
  }

  /** Sets one asset's price (7 decimals) on chain. */
  async setPrice(chain: Chain, admin: Keypair, asset: string, price: bigint): Promise<void> {
    if (price <= 0n) throw new RangeError(`price must be positive, got ${price}`)
    const i = this.indexOf(asset)
    const previous = this.prices[i]!
    this.prices[i] = price
    try {
      await this.publish(chain, admin)
    } catch (err) {
      this.prices[i] = previous
      throw err
    }
  }

  private async publish(chain: Chain, admin: Keypair): Promise<void> {
    await invoke(chain, admin, this.contract, 'set_price_stable', [i128s(this.prices)])
  }

  private indexOf(asset: string): number {
    const i = this.assets.indexOf(asset)
    if (i < 0) throw new RangeError(`oracle has no price for ${asset}`)
    return i
  }
}
