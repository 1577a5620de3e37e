import { describe, expect, it } from 'vitest'
import { slippageFloor } from '../../../../src/core/index.js'
import { minProfitScaled } from '../../../../src/keeper/adapters/blend/auctionPlan.js'
import { randomAccount, randomContract } from '../../../../src/keeper/adapters/blend/fakeLedger.test-util.js'
import { repayAmount, RequestType, withdrawBound } from '../../../../src/keeper/adapters/blend/requests.js'
import { flatReserve } from '../../../../test/keeper/flatReserve.js'
import { closingReturn, oracleRule, pollsAt, wholeAuctionAtOracle, wholeLotSwaps } from './rules.js'

const ONE = 1_0000000n
const RATE_ONE = 10n ** 12n

describe('the strategy agents’ oracle rule', () => {
  const user = randomAccount()
  const usdc = randomContract()
  const xlm = randomContract()
  const router = randomContract()
  // XLM collateral worth 5 % more per bToken than it was lent against (b_rate 1.05)
  const reserves = new Map([
    [usdc, flatReserve(usdc, 0, RATE_ONE, RATE_ONE)],
    [xlm, flatReserve(xlm, 1, (RATE_ONE * 105n) / 100n, RATE_ONE)],
  ])
  const prices = new Map([
    [usdc, { price: ONE, timestamp: 0n }],
    [xlm, { price: ONE / 10n, timestamp: 0n }],
  ])
  // 100 USDC of debt against 1,000 XLM bTokens (105 USDC at the oracle): 1.05 at 100 % of the lot
  const auction = { bid: new Map([[usdc, 100n * ONE]]), lot: new Map([[xlm, 1000n * ONE]]), block: 1000 }
  const view = { auction, reserves, prices, minProfit: minProfitScaled(1.02), usdc }

  it('waits for the first ledger whose whole lot is worth MIN_PROFIT × the bid at the oracle', () => {
    // 105 × d / 200 >= 102  ->  d >= 194.3 -> 195
    expect(oracleRule(view, user, 1001)).toEqual({ kind: 'wait', target: 1195 })
    expect(wholeAuctionAtOracle(view, 1001)?.percent).toBe(100)
  })

  it('fills all of it there: fill 100 %, repay the bid, withdraw the lot, drawing the repay', () => {
    const a = oracleRule(view, user, 1195)
    expect(a.kind).toBe('fill')
    if (a.kind !== 'fill') return
    expect(a.plan.block).toBe(1195)
    expect(a.plan.percent).toBe(100)
    const lot = (1000n * ONE * 195n) / 200n
    expect(a.plan.lot[xlm]).toBe(lot)
    expect(a.order.requests).toEqual([
      { request_type: RequestType.FillUserLiquidationAuction, address: user, amount: 100n },
      { request_type: RequestType.Repay, address: usdc, amount: repayAmount(100n * ONE, RATE_ONE) },
      { request_type: RequestType.WithdrawCollateral, address: xlm, amount: withdrawBound(lot, (RATE_ONE * 105n) / 100n) },
    ])
    expect(a.order.drew).toBe(repayAmount(100n * ONE, RATE_ONE))
    expect(a.order.lotAssets).toEqual([xlm])
    // later ledgers fill at once too (the ratio only grows)
    expect(oracleRule(view, user, 1300).kind).toBe('fill')
  })

  it('never fills an auction that does not clear MIN_PROFIT, nor one whose bid is not USDC', () => {
    // a high MIN_PROFIT still waits: the bid decays after block 200 of the auction
    expect(oracleRule({ ...view, minProfit: minProfitScaled(3) }, user, 1001)).toMatchObject({ kind: 'wait' })
    const worthless = { ...auction, lot: new Map([[xlm, 0n]]) }
    expect(oracleRule({ ...view, auction: worthless }, user, 1001)).toMatchObject({ kind: 'never', why: expect.stringMatching(/MIN_PROFIT/) })
    const xlmBid = { ...auction, bid: new Map([[xlm, 100n * ONE]]), lot: new Map([[usdc, 1000n * ONE]]) }
    expect(oracleRule({ ...view, auction: xlmBid }, user, 1300)).toMatchObject({ kind: 'never', why: expect.stringMatching(/USDC/) })
  })

  it('sells every lot asset whole on the router, refused below the slippage floor of its oracle value', () => {
    const a = oracleRule(view, user, 1200)
    if (a.kind !== 'fill') expect.unreachable(a.kind)
    else {
      const swaps = wholeLotSwaps({ plan: a.plan, order: a.order, reserves, prices, usdc, router, slippageBps: 300 })
      // 1,000 bTokens × 1.05 = 1,050 XLM, 105 USDC at the oracle; 3 % below
      expect(swaps).toEqual([{ venue: { kind: 'router', router }, path: [xlm, usdc], amountIn: 0n, minOut: slippageFloor(105n * ONE, 300) }])
      expect(swaps[0]!.minOut).toBe(101_8500000n)
    }
  })
})

describe('closingReturn', () => {
  it('returns all it measured when that covers the draw, else the draw from its own USDC as far as it goes', () => {
    expect(closingReturn(120n, 100n, 500n)).toBe(120n)
    expect(closingReturn(90n, 100n, 500n)).toBe(100n)
    expect(closingReturn(90n, 100n, 95n)).toBe(95n)
  })
})

describe('pollsAt', () => {
  it('polls every pollLedgers ledgers at the keeper’s phase', () => {
    expect([10, 11, 12, 13, 14].filter((l) => pollsAt(l, 1, 2))).toEqual([11, 13])
    expect([10, 11, 12].filter((l) => pollsAt(l, 0, 1))).toEqual([10, 11, 12])
  })
})
