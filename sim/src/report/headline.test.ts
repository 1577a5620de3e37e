import { describe, expect, it } from 'vitest'
import { reportFixture } from '../../../test/sim/reportFixture.js'
import { ANNUALISE_MIN_SECONDS, headlineFigures } from './headline.js'
import type { Report } from './types.js'

/** The fixture run lasting `ledgers` 5 s ledgers, with an annualised return in its summary. */
function runOf(ledgers: number, lpApyAnnualised: number | null = 1923.73): Report {
  const r = reportFixture()
  r.run.ledgers = ledgers
  r.summary.lpApyAnnualised = lpApyAnnualised
  return r
}

const apy = (r: Report) => headlineFigures(r).find((f) => f.label === 'LP APY, annualised from the run')?.value

describe('LP APY, annualised from the run', () => {
  it('is not shown for a run shorter than a day, and says why', () => {
    expect(apy(runOf(1_440))).toBe('not shown: the run is shorter than a day; annualising 2 h compounds noise')
    expect(apy(runOf(16_560))).toBe('not shown: the run is shorter than a day; annualising 23 h compounds noise')
  })

  it('is shown from a day on, with the run time it compounds', () => {
    expect(apy(runOf(ANNUALISE_MIN_SECONDS / 5, 0.0321))).toBe('3.21% (the 1 d return compounded to a year)')
    expect(apy(runOf(17_280 * 7, 0.05))).toBe('5.00% (the 7 d return compounded to a year)')
    expect(apy(runOf(17_280, null))).toBe('—')
  })

  it('is left out for reports written before the field, and the cumulative return stays', () => {
    const r = reportFixture()
    delete r.summary.lpApyAnnualised
    expect(apy(r)).toBeUndefined()
    expect(headlineFigures(r)[0]).toEqual({ label: 'LP return, cumulative over the run', value: '0.1234%' })
  })
})
