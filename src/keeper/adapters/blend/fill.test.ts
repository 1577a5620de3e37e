import { xdr } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { minProfitScaled, planFill, profitabilityAt } from './auctionPlan.js'
import { randomAccount, randomContract } from './fakeLedger.test-util.js'
import type { Reserve } from './loadPool.js'
import { encodeRequests, fillRequests, repayAmount, RequestType, withdrawBound } from './requests.js'
import { AuctionType } from './storage.js'
import { flatReserve } from '../../../../test/keeper/flatReserve.js'

const ONE = 1_0000000n
const RATE_ONE = 10n ** 12n


const reserve = (asset: string, index: number, bRate: bigint, dRate: bigint): Reserve => flatReserve(asset, index, bRate, dRate)

describe('fill requests', () => {
  it('fill + repay every bid asset + withdraw every lot asset, in one list', () => {
    const user = randomAccount()
    const usdc = randomContract()
    const xlm = randomContract()
    const reqs = fillRequests({
      auctionType: AuctionType.UserLiquidation,
      user,
      percent: 100,
      bid: { [usdc]: 100n * ONE },
      lot: { [xlm]: 900n * ONE },
      dRates: { [usdc]: (RATE_ONE * 11n) / 10n },
      bRates: { [xlm]: RATE_ONE },
    })
    expect(reqs).toEqual([
      { request_type: RequestType.FillUserLiquidationAuction, address: user, amount: 100n },
      { request_type: RequestType.Repay, address: usdc, amount: repayAmount(100n * ONE, (RATE_ONE * 11n) / 10n) },
      { request_type: RequestType.WithdrawCollateral, address: xlm, amount: withdrawBound(900n * ONE, RATE_ONE) },
    ])
    // 110 USDC of debt + 10 bps buffer + 1
    expect(reqs[1]!.amount).toBe(110n * ONE + 1_100_000n + 1n)
    const vec = xdr.expectUnionVariant(encodeRequests(reqs), 'scvVec').vec!
    expect(vec).toHaveLength(3)
    expect(xdr.expectUnionVariant(vec[0]!, 'scvMap').map!.map((e) => xdr.expectUnionVariant(e.key, 'scvSymbol').sym.toString())).toEqual(['address', 'amount', 'request_type'])
  })

  it('refuses a percent outside 1..100 and a bid asset without a rate', () => {
    const base = { auctionType: AuctionType.UserLiquidation, user: randomAccount(), bid: {}, lot: {}, dRates: {}, bRates: {} }
    expect(() => fillRequests({ ...base, percent: 0 })).toThrow(RangeError)
    expect(() => fillRequests({ ...base, percent: 101 })).toThrow(RangeError)
    expect(() => fillRequests({ ...base, percent: 100, bid: { x: 1n } })).toThrow(/d_rate/)
  })

  it('bad-debt fills repay only; interest fills carry no repay or withdraw', () => {
    const usdc = randomContract()
    const backstop = randomContract()
    const common = { user: backstop, percent: 100, bid: { [usdc]: 5n }, lot: { [usdc]: 5n }, dRates: { [usdc]: RATE_ONE }, bRates: { [usdc]: RATE_ONE } }
    expect(fillRequests({ ...common, auctionType: AuctionType.BadDebt }).map((r) => r.request_type)).toEqual([
      RequestType.FillBadDebtAuction,
      RequestType.Repay,
    ])
    expect(fillRequests({ ...common, auctionType: AuctionType.Interest }).map((r) => r.request_type)).toEqual([
      RequestType.FillInterestAuction,
    ])
  })
})

describe('planFill', () => {
  const usdc = randomContract()
  const xlm = randomContract()
  const reserves = new Map([
    [usdc, reserve(usdc, 0, RATE_ONE, RATE_ONE)],
    [xlm, reserve(xlm, 1, RATE_ONE, RATE_ONE)],
  ])
  const prices = new Map([
    [usdc, { price: ONE, timestamp: 0n }],
    [xlm, { price: ONE / 10n, timestamp: 0n }],
  ])
  // 100 USDC of debt against 1100 XLM (110 USDC): at 100 % lot the ratio is 1.10
  const auction = { bid: new Map([[usdc, 100n * ONE]]), lot: new Map([[xlm, 1100n * ONE]]), block: 1000 }

  it('finds the first ledger at which lot value / bid cost >= MIN_PROFIT', () => {
    const plan = planFill({ auction, reserves, prices, minProfit: minProfitScaled(1.02), fromBlock: 1001 })!
    // 110 * d / 200 >= 102  ->  d >= 185.45 -> 186
    expect(plan.block).toBe(1186)
    expect(plan.ratio! >= 10_200_000n).toBe(true)
    const before = profitabilityAt({ auction, reserves, prices, block: plan.block - 1 })
    expect(before.lotValue * 10_000_000n < 10_200_000n * before.bidCost).toBe(true)
    expect(plan.bid[usdc]).toBe(100n * ONE)
    expect(plan.lot[xlm]).toBe((1100n * ONE * 186n) / 200n)
  })

  it('when already past the first profitable block, fills at once', () => {
    const plan = planFill({ auction, reserves, prices, minProfit: minProfitScaled(1.02), fromBlock: 1300 })!
    expect(plan.block).toBe(1300)
  })

  it('an auction whose lot is worthless never clears', () => {
    const empty = { ...auction, lot: new Map([[xlm, 0n]]) }
    expect(planFill({ auction: empty, reserves, prices, minProfit: minProfitScaled(1.02), fromBlock: 1001 })).toBeNull()
  })

  it('an unpriced asset is refused', () => {
    const odd = { ...auction, lot: new Map([[randomContract(), 1n]]) }
    expect(() => planFill({ auction: odd, reserves, prices, minProfit: 10_000_000n, fromBlock: 1001 })).toThrow(/price/)
  })

  it('MIN_PROFIT converts to 7 decimals and must be positive', () => {
    expect(minProfitScaled(1.02)).toBe(10_200_000n)
    expect(() => minProfitScaled(0)).toThrow(RangeError)
  })
})
