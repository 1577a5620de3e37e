import { describe, expect, it } from 'vitest'
import type { KeeperExecution, KeeperState } from '../clients/keeperApi.js'
import { auctionChartFor, auctionRows, borrowerRows, healthFactorFixed, type KeeperResult } from './auctions.js'

const U = 10_000_000n

function state(name: string, updatedAt: string, fields: Partial<KeeperState>): KeeperState {
  return { mode: 'liquidating', operator: `G${name}`, keeperName: name, updatedAt, positions: [], pools: [], events: [], executions: [], ...fields }
}

const position = (user: string, healthFactor: number | null, pool: string | null = null) => ({ protocol: 'blend', pool, user, healthFactor, collateralBase: 100n * U, liabilityBase: 90n * U })

function execution(key: string, stage: string, fields: Partial<KeeperExecution> = {}): KeeperExecution {
  return {
    key,
    adapter: 'blend',
    pool: null,
    label: key.split(':')[1] ?? key,
    stage,
    path: 'atomic',
    plannedAt: 100,
    targetLedger: 286,
    expiresAtLedger: 600,
    capital: 1000n * U,
    priority: 7,
    progress: null,
    note: null,
    ...fields,
  }
}

describe('borrowerRows', () => {
  it('puts the most urgent first (core taskPriority) and merges keepers, the freshest figures winning', () => {
    const results: KeeperResult[] = [
      { url: 'http://k1', error: undefined, state: state('k1', '2025-01-01T00:00:01Z', { positions: [position('GA', 0.97), position('GB', 0.6), position('GC', null)] }) },
      { url: 'http://k2', error: undefined, state: state('k2', '2025-01-01T00:00:02Z', { positions: [position('GA', 0.45)] }) },
    ]
    const rows = borrowerRows(results)
    expect(rows.map((r) => [r.address, r.priority, r.healthFactorText])).toEqual([
      ['GA', 10, '0.4500'],
      ['GB', 7, '0.6000'],
      ['GC', 1, '— (no debt)'],
    ])
    expect(rows[0]!.seenBy).toEqual(['k1', 'k2'])
    expect(rows[0]!.collateral).toBe('100.0000000')
  })

  it('rounds the health factor down into the core fixed point', () => {
    expect(healthFactorFixed(0.95)).toBe(9_500_000n)
    expect(healthFactorFixed(0.123456789)).toBe(1_234_567n)
    expect(healthFactorFixed(null)).toBeNull()
    expect(healthFactorFixed(Number.NaN)).toBeNull()
  })

  it('skips keepers that never answered', () => {
    expect(borrowerRows([{ url: 'http://k', state: undefined, error: 'unreachable' }])).toEqual([])
  })
})

describe('auctionRows', () => {
  it('groups open executions by key across keepers and drops finished ones', () => {
    const results: KeeperResult[] = [
      { url: 'http://k1', error: undefined, state: state('k1', 't', { executions: [execution('0:GA', 'planned'), execution('0:GB', 'returned')] }) },
      { url: 'http://k2', error: undefined, state: state('k2', 't', { executions: [execution('0:GA', 'due')] }) },
    ]
    const rows = auctionRows(results)
    expect(rows.map((r) => r.key)).toEqual(['0:GA'])
    expect(rows[0]!.executions.map((e) => `${e.keeper} ${e.stage} ${e.capital}`)).toEqual(['k1 planned 1,000.0000000', 'k2 due 1,000.0000000'])
  })

  it('charts from the freshest progress: start = ledger + 1 − offset, target offset from the target ledger', () => {
    // Auction started at ledger 100; progress at ledger 199 is for block 100 (ratio 0.55 of a
    // 1100 lot over a 1000 bid); the fill is planned for ledger 286 (offset 186).
    const older = execution('0:GA', 'planned', { progress: { ledger: 150, offset: 51, ratio: 2_805_000n, minProfit: 10_200_000n, leftPercent: 100 } })
    const fresh = execution('0:GA', 'planned', { progress: { ledger: 199, offset: 100, ratio: 5_500_000n, minProfit: 10_200_000n, leftPercent: 40 } })
    const rows = auctionRows([
      { url: 'a', error: undefined, state: state('a', 't', { executions: [older] }) },
      { url: 'b', error: undefined, state: state('b', 't', { executions: [fresh] }) },
    ])
    const data = auctionChartFor(rows[0])
    expect(data?.now).toBe(100)
    expect(data?.firstProfitable).toBe(186)
    expect(rows[0]!.executions[1]!.progress).toBe('block 100, lot/bid 0.5500 vs MIN_PROFIT 1.0200')
    // what is left: the freshest progress's figure, after another keeper's part fill
    expect(rows[0]!.left).toBe('40.0 % of the lot left')
  })

  it('has no chart without progress', () => {
    const rows = auctionRows([{ url: 'a', error: undefined, state: state('a', 't', { executions: [execution('0:GA', 'planned')] }) }])
    expect(auctionChartFor(rows[0])).toBeNull()
    expect(auctionChartFor(undefined)).toBeNull()
    expect(rows[0]!.left).toBeNull()
  })
})
