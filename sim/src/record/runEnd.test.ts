import { describe, expect, it } from 'vitest'
import { reportFixture } from '../../../test/sim/reportFixture.js'
import { reportHtml } from '../report/html.js'
import { summaryTable } from '../report/summary.js'
import type { AuctionResult, Report } from '../report/types.js'
import { annualisedReturn, ripeningAtEnd, runWarnings } from './runEnd.js'

/** Ten auctions of a 20-minute run that ended at ledger 385, first profitable at 388–395. */
function lateAuctions(): AuctionResult[] {
  const base = reportFixture().auctions.find((a) => a.outcome === 'open')!
  return Array.from({ length: 10 }, (_, i) => ({ ...base, id: `G${i}:liquidation:200`, firstProfitableLedger: 388 + Math.min(i, 7), fills: [], outcome: 'open' as const }))
}

describe('annualisedReturn', () => {
  it('compounds the cumulative return to a year over the run time', () => {
    expect(annualisedReturn(0.01, 365 * 86_400)).toBeCloseTo(0.01, 12)
    expect(annualisedReturn(0.0012345, 3_600)).toBeCloseTo(Math.pow(1.0012345, 365 * 24) - 1, 9)
    expect(annualisedReturn(-0.001, 86_400)).toBeCloseTo(Math.pow(0.999, 365) - 1, 12)
  })

  it('is null for no time, a total loss, or no finite number', () => {
    expect(annualisedReturn(0.01, 0)).toBeNull()
    expect(annualisedReturn(-1, 3_600)).toBeNull()
    expect(annualisedReturn(5, 1)).toBeNull()
  })
})

describe('a run too short for its auctions', () => {
  it('warns when open auctions first become profitable after the end, with their ledgers and what to lengthen', () => {
    const list = lateAuctions()
    expect(ripeningAtEnd(list, 385)).toHaveLength(10)
    expect(runWarnings(list, 385, 5)).toEqual([
      'run too short: 10 auctions were still ripening at the end (ledger 385); they first become profitable at ledger 388–395, after the run ended, so no keeper could fill them. Lengthen run.duration (or run.ledgers) by at least 50 s to see them filled.',
    ])
  })

  it('says nothing when the auctions ripened in time, were filled or expired', () => {
    const list = lateAuctions()
    expect(runWarnings(list, 395, 5)).toEqual([])
    expect(runWarnings(list.map((a) => ({ ...a, outcome: 'expired' as const })), 385, 5)).toEqual([])
    expect(runWarnings(list.map((a) => ({ ...a, firstProfitableLedger: null })), 385, 5)).toEqual([])
    expect(runWarnings(reportFixture().auctions, 1720, 5)).toEqual([])
  })
})

describe('the report shows them', () => {
  const report: Report = reportFixture()
  report.summary.lpApyAnnualised = annualisedReturn(report.summary.lpReturn, report.run.ledgers * report.run.ledgerSeconds)
  report.summary.warnings = runWarnings(lateAuctions(), 385, 5)

  it('in the terminal summary: a warning line under the title, the LP return named cumulative, the annualised APY left out of a run under a day', () => {
    const lines = summaryTable(report).split('\n')
    expect(lines[1]).toMatch(/^warning: run too short: 10 auctions were still ripening at the end \(ledger 385\)/)
    expect(lines.find((l) => l.startsWith('LP return, cumulative over the run'))).toMatch(/ 0\.1234%$/)
    expect(lines.find((l) => l.startsWith('LP APY, annualised from the run'))).toMatch(/ not shown: the run is shorter than a day; annualising 1 h compounds noise$/)
  })

  it('in report.html: the warning above the headline figures, and both LP figures', () => {
    const html = reportHtml(report)
    const headline = html.slice(html.indexOf('<section id="headline">'), html.indexOf('</section>', html.indexOf('<section id="headline">')))
    expect(headline).toContain('<p class="warning" role="note"><strong>Warning:</strong> run too short: 10 auctions were still ripening')
    expect(headline).toContain('LP APY, annualised from the run')
    expect(headline).toContain('LP return, cumulative over the run')
  })

  it('leaves a report without warnings as it was', () => {
    const plain = reportFixture()
    expect(summaryTable(plain).split('\n')[1]).not.toMatch(/^warning/)
    expect(reportHtml(plain)).not.toContain('class="warning"')
  })
})
