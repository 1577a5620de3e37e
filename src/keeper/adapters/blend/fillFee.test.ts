import { Asset, Networks } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import type { FillFeeInput } from '../../sdk/index.js'
import { fillFeeInput, fillSubmitOptions, type FillFeeValuation } from './fillFee.js'
import type { Reserve } from './loadPool.js'

const USDC = 'CBIELTK6YBZJU5UP2WWQEUCYKLPU6AUNZ2BQ4WWFEIE3USCIHMXQDAMA'
const XLM = Asset.native().contractId(Networks.TESTNET)
const reserve = (decimals: number) => ({ config: { decimals } }) as unknown as Reserve
// A 14-decimal oracle: USDC at 1.00 USD, XLM at 0.25 USD.
const prices = new Map([
  [USDC, { price: 10n ** 14n, timestamp: 0n }],
  [XLM, { price: 25n * 10n ** 12n, timestamp: 0n }],
])
const reserves = new Map([
  [USDC, reserve(7)],
  [XLM, reserve(7)],
])
const base: FillFeeValuation = { fill: { lotValue: 0n, bidCost: 0n }, drew: 100_0000000n, reserves, prices, usdc: USDC, networkPassphrase: Networks.TESTNET }

describe('a Blend fill\'s fee inputs', () => {
  it('expected profit: what the pools pay less the draw, else the oracle margin in USDC; XLM price from the oracle', () => {
    expect(fillFeeInput({ ...base, fill: { proceeds: 112_5000000n, lotValue: 0n, bidCost: 0n } })).toEqual({ expectedProfit: 12_5000000n, xlmPrice: 2500000n })
    // Oracle only: lot 130 USD, bid 120 USD (14 decimals): 10 USDC.
    expect(fillFeeInput({ ...base, fill: { lotValue: 130n * 10n ** 14n, bidCost: 120n * 10n ** 14n } })).toEqual({ expectedProfit: 10_0000000n, xlmPrice: 2500000n })
    expect(fillFeeInput({ ...base, fill: { lotValue: 1n, bidCost: 2n } }).expectedProfit).toBe(0n)
  })

  it('no XLM reserve: a lazy read of the oracle, converted to USDC when called', async () => {
    let reads = 0
    const input = fillFeeInput({
      ...base,
      prices: new Map([[USDC, prices.get(USDC)!]]),
      readXlmPrice: async () => {
        reads++
        return 12n * 10n ** 12n
      },
    })
    expect(reads).toBe(0)
    expect(typeof input.xlmPrice).toBe('function')
    expect(await (input.xlmPrice as () => Promise<bigint | undefined>)()).toBe(1200000n)
    // With the reserve's price at hand, no read.
    expect(fillFeeInput({ ...base, readXlmPrice: async () => 1n }).xlmPrice).toBe(2500000n)
  })

  it('no XLM reserve (or no USDC price): no XLM price', () => {
    expect(fillFeeInput({ ...base, prices: new Map([[USDC, prices.get(USDC)!]]) }).xlmPrice).toBeUndefined()
    expect(fillFeeInput({ ...base, prices: new Map([[XLM, prices.get(XLM)!]]) })).toEqual({ expectedProfit: undefined, xlmPrice: undefined })
    // Another network's native contract is another address.
    expect(fillFeeInput({ ...base, networkPassphrase: Networks.PUBLIC }).xlmPrice).toBeUndefined()
  })

  it('asks the strategy with those inputs; without one, the chain\'s defaults', async () => {
    const asked: FillFeeInput[] = []
    const opts = await fillSubmitOptions(async (i) => {
      asked.push(i)
      return { inclusionFee: 777 }
    }, { ...base, fill: { proceeds: 101_0000000n, lotValue: 0n, bidCost: 0n } })
    expect(opts).toEqual({ inclusionFee: 777 })
    expect(asked).toEqual([{ expectedProfit: 1_0000000n, xlmPrice: 2500000n }])
    expect(await fillSubmitOptions(undefined, base)).toEqual({})
  })
})
