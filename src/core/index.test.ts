// The TSDoc @example of every export, run through the public entry point: the documented
// numbers are the real ones.
import { describe, expect, it } from 'vitest'
import * as core from './index.js'

describe('src/core/index.ts', () => {
  it('exports every function of the core', () => {
    const functions = Object.entries(core).filter(([, v]) => typeof v === 'function').map(([k]) => k).sort()
    expect(functions).toEqual(
      [
        'BaseError', 'DivisionByZeroError', 'InvalidAmountError', 'InvalidInputError', 'InvalidPriceError', 'OverflowError', 'PoolInsolventError', 'ZeroSharesError',
        'accrueReserve', 'apyDisplay', 'bestPartialFill', 'bestSplit', 'bestSplitBy', 'bestSale', 'weightedPoolOut', 'cometMaxIn', 'poolOut', 'routeOut', 'constantProductOut', 'valuePartialFill', 'assertI128', 'clampPriority', 'auctionModifiers', 'auctionProfitability', 'auctionValue', 'calcAccrual', 'checkedMul', 'divRound',
        'firstProfitableBlock', 'formatPercent', 'healthFactor', 'indexedEntries', 'meetsMinProfit', 'mulDiv', 'profitOf', 'scaleAuction', 'sharePrice',
        'sharesForDeposit', 'slippageFloor', 'sortTasksByPriority', 'taskPriority', 'toAssetFromBToken', 'toAssetFromDToken', 'toEffectiveAssetFromBToken',
        'toEffectiveAssetFromDToken', 'usdcForShares', 'utilization', 'valueInAsset', 'inclusionFeeBid', 'feeBumpBid',
        'lockedProfit', 'bookProfit', 'freeAssets', 'keeperFee', 'drawLimit', 'bondForDraw', 'routesKey',
      ].sort(),
    )
  })

  it('documented examples hold', () => {
    expect(core.mulDiv(10n, 3n, 4n, 'floor')).toBe(7n)
    expect(core.drawLimit(1_000_0000000n, 1000)).toBe(900_0000000n)
    expect(core.bondForDraw(10_000_0000000n, 100_0000000n, 1000)).toBe(11_011_1111112n)
    expect(core.mulDiv(10n, 3n, 4n, 'ceil')).toBe(8n)
    expect(core.divRound(-7n, 2n, 'floor')).toBe(-4n)
    expect(core.checkedMul(3n, 4n)).toBe(12n)
    expect(core.sharesForDeposit({ amount: 10_000_000_000n, totalUsdc: 0n, totalShares: 0n })).toEqual({ shares: 9_999_999_000n, deadShares: 1000n })
    expect(core.sharesForDeposit({ amount: 100n, totalUsdc: 300n, totalShares: 200n })).toEqual({ shares: 66n, deadShares: 0n })
    expect(core.usdcForShares({ shares: 66n, totalUsdc: 400n, totalShares: 266n })).toBe(99n)
    expect(core.sharePrice({ totalUsdc: 1_100n, totalShares: 1_000n })).toBe(11_000_000n)
    expect(core.auctionModifiers(100)).toEqual({ bid: 10_000_000n, lot: 5_000_000n })
    expect(core.auctionModifiers(300)).toEqual({ bid: 5_000_000n, lot: 10_000_000n })
    expect(core.scaleAuction({ auction: { bid: { USDC: 25_0000005n }, lot: { XLM: 25_0000005n }, block: 1000 }, block: 1100, percent: 60 }).filled).toEqual({ bid: { USDC: 15_0000003n }, lot: { XLM: 7_5000001n }, block: 1000 })
    expect(core.constantProductOut(10_0000000n, { reserveIn: 1000_0000000n, reserveOut: 1000_0000000n })).toBe(9_8715803n)
    expect(core.bestSplit(100_0000000n, { reserveIn: 1000_0000000n, reserveOut: 1000_0000000n }, { reserveIn: 100_0000000n, reserveOut: 100_0000000n }).out).toBe(91_4145202n)
    expect(core.weightedPoolOut(10_0000000n, { balanceIn: 1000_0000000n, weightIn: 5n, balanceOut: 1000_0000000n, weightOut: 5n, fee: 30_000n })).toBe(9_8714815n)
    expect(core.routeOut(1000_0000000n, [{ reserveIn: 1_000_000_0000000n, reserveOut: 100_0000000n }, { reserveIn: 1000_0000000n, reserveOut: 2_000_000_0000000n }])).toBe(198_5838766n)
    const sale = core.bestSale(100_0000000n, [{ hops: [{ reserveIn: 1000_0000000n, reserveOut: 1000_0000000n }] }, { hops: [{ reserveIn: 500_0000000n, reserveOut: 500_0000000n }] }])
    expect(sale.out).toBe(93_4862786n)
    expect(sale.parts.map((x) => x.route)).toEqual([0, 1])
    expect(core.constantProductOut(100_0000000n, { reserveIn: 1000_0000000n, reserveOut: 1000_0000000n })).toBe(90_6610893n)
    const direct = { reserveIn: 1000_0000000n, reserveOut: 1000_0000000n }
    const via = [{ reserveIn: 2000_0000000n, reserveOut: 2000_0000000n }, { reserveIn: 2000_0000000n, reserveOut: 2000_0000000n }]
    const splitBy = core.bestSplitBy(100_0000000n, (x) => core.constantProductOut(x, direct), (x) => core.routeOut(x, via))
    expect(splitBy.out > core.constantProductOut(100_0000000n, direct) && splitBy.out > core.routeOut(100_0000000n, via)).toBe(true)
    expect(
      core.bestPartialFill({
        auction: { bid: { USDC: 1000_0000000n }, lot: { XLM: 10000_0000000n }, block: 100 },
        lotQuotes: { XLM: { price: 1500000n, decimals: 7 } },
        bidQuotes: { USDC: { price: 1_0000000n, decimals: 7 } },
        proceeds: { asset: 'USDC', quote: { price: 1_0000000n, decimals: 7 } },
        pools: { XLM: { reserveIn: 20000_0000000n, reserveOut: 3000_0000000n } },
        minProfit: 1_0200000n,
        slippageBps: 500,
      }),
    ).toMatchObject({ percent: 1, block: 237, delta: 137 })
    expect(core.routesKey([{ hops: [{ reserveIn: 1000n, reserveOut: 2000n }] }, { hops: [{ reserveIn: 5n, reserveOut: 6n }, { reserveIn: 7n, reserveOut: 8n }] }])).toBe('c1000,2000|c5,6>c7,8')
    expect(core.auctionValue({ XLM: 100_0000000n }, { XLM: { price: 1200000n, decimals: 7 } }, 'floor')).toBe(12_0000000n)
    expect(core.valueInAsset(2500000n, { price: 1_0000000n, decimals: 7 }, 'floor')).toBe(2500000n)
    expect(core.inclusionFeeBid({ strategy: { kind: 'fixed' }, inclusionFee: 1000, maxFee: 10_000_000 })).toBe(1000)
    expect(
      core.inclusionFeeBid({ strategy: { kind: 'profit', bps: 1000 }, inclusionFee: 100, maxFee: 100_000_000, expectedProfit: 5_0000000n, xlmPrice: 2500000n }),
    ).toBe(20_000_000)
    expect(core.feeBumpBid({ queuedInclusionFee: 1000, operations: 1, freshBid: 1000, maxFee: 10_000_000 })).toBe(10_000)
    expect(core.feeBumpBid({ queuedInclusionFee: 2_000_000, operations: 1, freshBid: 100, maxFee: 10_000_000 })).toBeNull()
    expect(
      core.auctionProfitability({
        auction: { bid: { USDC: 100_0000000n }, lot: { XLM: 1000_0000000n }, block: 0 },
        block: 100,
        percent: 100,
        lotQuotes: { XLM: { price: 2500000n, decimals: 7 } },
        bidQuotes: { USDC: { price: 10000000n, decimals: 7 } },
      }),
    ).toEqual({ lotValue: 125_0000000n, bidCost: 100_0000000n, ratio: 12_500_000n })
    expect(core.meetsMinProfit(105n, 100n, 10_500_000n)).toBe(true)
    expect(core.meetsMinProfit(104n, 100n, 10_500_000n)).toBe(false)
    expect(
      core.firstProfitableBlock({
        auction: { bid: { USDC: 100_0000000n }, lot: { XLM: 1000_0000000n }, block: 5000 },
        percent: 100,
        lotQuotes: { XLM: { price: 1_1000000n, decimals: 7 } },
        bidQuotes: { USDC: { price: 1_0000000n, decimals: 7 } },
        minProfit: 1_0500000n,
      })?.block,
    ).toBe(5020)
    expect(core.toAssetFromBToken({ b_rate: 1_321_834_961_000n }, 1_1234567n)).toBe(1_4850243n)
    expect(core.utilization({ d_rate: 1_345_678_123_000n, b_rate: 1_123_456_789_000n, b_supply: 99_0000000n, d_supply: 65_0000000n })).toBe(7_864_353n)
    expect(
      core.calcAccrual({
        config: { util: 7_500_000, r_base: 100_000, r_one: 500_000, r_two: 5_000_000, r_three: 15_000_000, reactivity: 20 },
        utilization: 6_565_656n,
        irMod: 10_000_000n,
        deltaTime: 500n,
      }),
    ).toEqual({ loanAccrual: 1_000_000_852_536n, irMod: 9_999_066n })
    const config = { index: 0, decimals: 7, c_factor: 7_500_000, l_factor: 7_500_000, util: 7_500_000, max_util: 9_500_000, r_base: 100_000, r_one: 500_000, r_two: 5_000_000, r_three: 15_000_000, reactivity: 20 }
    const data = { d_rate: 10n ** 12n, b_rate: 10n ** 12n, ir_mod: 10_000_000n, b_supply: 100_0000000n, d_supply: 75_0000000n, backstop_credit: 0n, last_time: 0n }
    expect(
      core.healthFactor({
        reserves: [{ asset: 'XLM', config, data }, { asset: 'USDC', config: { ...config, index: 1 }, data }],
        positions: { collateral: { 0: 1000_0000000n }, liabilities: { 1: 70_0000000n } },
        prices: { XLM: 1_000_000n, USDC: 10_000_000n },
        oracleDecimals: 7,
        accrual: { timestamp: 0n, bstopRate: 2_000_000 },
      }).healthFactor,
    ).toBe(8_035_714n)
    expect(core.accrueReserve({ config, data: { ...data, d_rate: 1_345_678_123_000n, b_rate: 1_123_456_789_000n, b_supply: 99_0000000n, d_supply: 65_0000000n }, bstopRate: 2_000_000, timestamp: 617_280n })).toMatchObject({ d_rate: 1_349_657_798_173n, b_rate: 1_125_547_124_242n, ir_mod: 10_449_815n, backstop_credit: 517_357n })
    expect(core.taskPriority(4_999_999n)).toBe(10)
    expect(core.taskPriority(null)).toBe(1)
    expect(core.sortTasksByPriority([{ id: 'a', priority: 1 }, { id: 'b', priority: 7 }, { id: 'c', priority: 7 }]).map((t) => t.id)).toEqual(['b', 'c', 'a'])
    expect(core.slippageFloor(100_0000000n, 50)).toBe(99_5000000n)
    expect(core.slippageFloor(999n, 50)).toBe(995n)
    expect(core.profitOf(1050_0000000n, 1000_0000000n)).toBe(50_0000000n)
    expect(core.lockedProfit({ lockedProfit: 100_0000000n, lockStart: 1000n, lockEnd: 1000n + 86_400n }, 1000n + 43_200n)).toBe(50_0000000n)
    expect(core.lockedProfit({ lockedProfit: 10n, lockStart: 0n, lockEnd: 3n }, 1n)).toBe(7n)
    expect(core.lockedProfit({ lockedProfit: 10n, lockStart: 0n, lockEnd: 3n }, 3n)).toBe(0n)
    expect(core.bookProfit({ lockedProfit: 0n, lockStart: 0n, lockEnd: 0n }, 50_0000000n, 1000n, 86_400n)).toEqual({ lockedProfit: 50_0000000n, lockStart: 1000n, lockEnd: 87_400n })
    expect(core.bookProfit({ lockedProfit: 100n, lockStart: 0n, lockEnd: 100n }, 50n, 50n, 100n)).toEqual({ lockedProfit: 100n, lockStart: 50n, lockEnd: 125n })
    expect(core.freeAssets(1100_0000000n, 60_0000000n)).toBe(1040_0000000n)
    expect(core.freeAssets(5n, 10n)).toBe(0n)
    expect(core.keeperFee(50_0000000n, 1000)).toBe(5_0000000n)
    expect(core.keeperFee(3n, 5000)).toBe(1n)
    expect(core.keeperFee(-7n, 1000)).toBe(0n)
    expect(core.formatPercent(0.1234)).toBe('12.34%')
    expect(core.apyDisplay([{ timestamp: 0, price: 10_000_000n }, { timestamp: 86_400, price: 10_040_000n }]).text).toBe('0.40% cumulative')
    expect(core.apyDisplay([]).text).toBe('—')
  })
})
