import { describe, expect, it } from 'vitest'
import { emptyReportFixture, reportFixture } from '../../../test/sim/reportFixture.js'
import { csvNumber, plainDecimal, timeseriesCsv } from './csv.js'

describe('timeseriesCsv', () => {
  const csv = timeseriesCsv(reportFixture())
  const lines = csv.split('\n')

  it('has the fixed columns, then market/oracle/dex per asset in series order', () => {
    expect(lines[0]).toBe(
      'ledger,time,share_price,total_usdc,active_liq,utilisation,total_profit,locked_profit,bad_debt,open_auctions,' +
        'market_XLM,oracle_XLM,dex_XLM,market_wETH,oracle_wETH,dex_wETH',
    )
  })

  it('has one row per series point and ends with a newline', () => {
    expect(csv.endsWith('\n')).toBe(true)
    expect(lines.at(-1)).toBe('')
    expect(lines.length - 2).toBe(6)
    for (const line of lines.slice(0, -1)) expect(line.split(',')).toHaveLength(16)
  })

  it('prints values plainly, utilisation as active / total, and empty cells for null', () => {
    expect(lines[1]).toBe('1000,0,1,100000,0,0,0,0,0,0,0.1,0.1,0.1,3000,3000,3001')
    // the DEX quote of wETH is null at the second point
    expect(lines[2]).toBe('1100,500,1,100000,60000,0.6,0,0,0,1,0.08,0.081,0.079,2900,2950,')
    // the profit still locked at each point
    expect(lines.slice(1, 7).map((l) => l.split(',')[7])).toEqual(['0', '0', '45', '40', '100', '40.5'])
    // 1e-7 is not written in exponent form
    expect(lines[5]!.split(',')[10]).toBe('0.0000001')
    // total_usdc 0: no utilisation
    expect(lines[6]!.split(',')[5]).toBe('')
  })

  it('writes empty cells for a missing or short per-asset column', () => {
    const r = reportFixture()
    r.series.assets.push('EURC')
    r.series.market['EURC'] = [1.08]
    const row = timeseriesCsv(r).split('\n')[2]!.split(',')
    expect(row.slice(-3)).toEqual(['', '', ''])
    expect(timeseriesCsv(r).split('\n')[1]!.split(',').slice(-3)).toEqual(['1.08', '', ''])
  })

  it('is the header alone for a run without points', () => {
    expect(timeseriesCsv(emptyReportFixture())).toBe(
      'ledger,time,share_price,total_usdc,active_liq,utilisation,total_profit,locked_profit,bad_debt,open_auctions,market_XLM,oracle_XLM,dex_XLM\n',
    )
  })

  it('quotes an asset code that would break the header', () => {
    const r = emptyReportFixture()
    r.series.assets = ['A,B']
    expect(timeseriesCsv(r).split('\n')[0]).toContain(',"market_A,B","oracle_A,B","dex_A,B"')
  })

  it('leaves locked_profit empty for a report written before the vault locked profit', () => {
    const r = reportFixture()
    delete r.series.lockedProfit
    expect(timeseriesCsv(r).split('\n')[3]!.split(',')[7]).toBe('')
  })

  it('gives the same bytes for the same report', () => {
    expect(timeseriesCsv(reportFixture())).toBe(csv)
  })
})

describe('plainDecimal', () => {
  it.each([
    [0, '0'],
    [-0, '0'],
    [1.5, '1.5'],
    [-2.25, '-2.25'],
    [1e-7, '0.0000001'],
    [-1.2345e-9, '-0.0000000012345'],
    [1.5e21, '1500000000000000000000'],
    [1e21, '1000000000000000000000'],
    [123456.7890123, '123456.7890123'],
  ])('%s -> %s', (value, text) => {
    expect(plainDecimal(value)).toBe(text)
    expect(Number(plainDecimal(value))).toBe(value === 0 ? 0 : value)
  })

  it('leaves non-finite values and null empty', () => {
    expect(csvNumber(Number.NaN)).toBe('')
    expect(csvNumber(Number.POSITIVE_INFINITY)).toBe('')
    expect(csvNumber(null)).toBe('')
    expect(csvNumber(undefined)).toBe('')
  })
})
