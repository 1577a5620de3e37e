import { Networks, StrKey } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { deployWorld } from './deployWorld.js'
import { dexSeedAmounts, type DexAsset } from './dex.js'

const UNIT = 10_000_000n
const contract = (n: number) => StrKey.encodeContract(Buffer.alloc(32, n))
const WETH = contract(1)
const WBTC = contract(2)

describe("the world's DEX seed amounts", () => {
  it('without Comet pools or via pairs: 1.5 × depth of USDC and of each asset, as the world always minted', () => {
    const assets: DexAsset[] = [
      { contract: WETH, price: 2_000n * UNIT, depthUsd: 1_000_000n * UNIT },
      { contract: WBTC, price: 60_000n * UNIT, depthUsd: 300_000n * UNIT },
    ]
    const d = [1_000_000n * UNIT, 300_000n * UNIT]
    expect(dexSeedAmounts(assets)).toEqual({
      usdc: d[0]! + d[0]! / 2n + d[1]! + d[1]! / 2n,
      assets: [((d[0]! + d[0]! / 2n) * UNIT) / (2_000n * UNIT), ((d[1]! + d[1]! / 2n) * UNIT) / (60_000n * UNIT)],
    })
    // a zero Comet depth is no Comet pool
    expect(dexSeedAmounts(assets.map((a) => ({ ...a, cometDepthUsd: 0n })))).toEqual(dexSeedAmounts(assets))
  })

  it('a Comet pool adds its depth of USDC and of the asset; a via pair its depth of both assets', () => {
    const base: DexAsset[] = [
      { contract: WETH, price: 2_000n * UNIT, depthUsd: 1_000_000n * UNIT },
      { contract: WBTC, price: 60_000n * UNIT, depthUsd: 1_000_000n * UNIT },
    ]
    const plain = dexSeedAmounts(base)
    const withDepth = dexSeedAmounts([
      { ...base[0]!, cometDepthUsd: 400_000n * UNIT },
      { ...base[1]!, via: { contract: WETH, price: 2_000n * UNIT, depthUsd: 600_000n * UNIT } },
    ])
    expect(withDepth.usdc - plain.usdc).toBe(400_000n * UNIT)
    // WETH: 200 for its Comet pool, 300 for WBTC's pair against it
    expect(withDepth.assets[0]! - plain.assets[0]!).toBe(200n * UNIT + 300n * UNIT)
    // WBTC: 10 for its pair against WETH
    expect(withDepth.assets[1]! - plain.assets[1]!).toBe(10n * UNIT)
  })

  it('a via pair needs another asset of the list', () => {
    const weth: DexAsset = { contract: WETH, price: 2_000n * UNIT, depthUsd: UNIT }
    expect(() => dexSeedAmounts([{ ...weth, via: { contract: WETH, price: 1n, depthUsd: UNIT } }])).toThrow(RangeError)
    expect(() => dexSeedAmounts([{ ...weth, via: { contract: WBTC, price: 1n, depthUsd: UNIT } }])).toThrow(RangeError)
  })

  it('deployWorld refuses a via asset that is no other collateral, or a negative Comet depth, before it touches the network', async () => {
    const network = { rpcUrl: 'http://127.0.0.1:1', networkPassphrase: Networks.STANDALONE, friendbotUrl: 'http://127.0.0.1:1/friendbot' }
    const weth = { code: 'WETH', price: 2_000n * UNIT }
    const wbtc = { code: 'WBTC', price: 60_000n * UNIT }
    await expect(deployWorld(network, { collaterals: [weth, { ...wbtc, via: { asset: 'XLM', depthUsd: UNIT } }] })).rejects.toThrow(/via\.asset/)
    await expect(deployWorld(network, { collaterals: [weth, { ...wbtc, via: { asset: 'WBTC', depthUsd: UNIT } }] })).rejects.toThrow(/via\.asset/)
    await expect(deployWorld(network, { collaterals: [weth, { ...wbtc, via: { asset: 'WETH', depthUsd: 0n } }] })).rejects.toThrow(/via\.depthUsd/)
    await expect(deployWorld(network, { collaterals: [{ ...weth, cometDepthUsd: -1n }, wbtc] })).rejects.toThrow(/cometDepthUsd/)
  })
})
