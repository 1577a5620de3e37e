import { describe, expect, it } from 'vitest'
import { emptyReportFixture, reportFixture } from '../../../test/sim/reportFixture.js'
import { parseReport, parseReportText } from './reportSchema.js'

describe('parseReportText', () => {
  it('accepts a report.json, as written (JSON)', () => {
    for (const report of [reportFixture(), emptyReportFixture()]) {
      const r = parseReportText(JSON.stringify(report))
      expect(r.ok).toBe(true)
      if (r.ok) expect(r.report.summary).toEqual(report.summary)
    }
  })

  it('keeps the keeper fee, the locked profit and the attacks of a report with them', () => {
    const report = reportFixture()
    const r = parseReportText(JSON.stringify(report))
    if (!r.ok) expect.unreachable(r.problems.join('\n'))
    else {
      expect(r.report).toEqual(report)
      expect(r.report.summary.vaultTerms).toEqual(report.summary.vaultTerms)
      expect(r.report.series.lockedProfit).toEqual(report.series.lockedProfit)
      expect(r.report.attacks).toEqual(report.attacks)
    }
  })

  it("keeps each keeper's strategy and the strategies table of a tournament, and reads a report without them", () => {
    const report = reportFixture()
    report.keepers[1]!.strategy = 'seed-rule'
    report.keepers[2]!.strategy = 'nectar'
    report.strategies = [
      { strategy: 'daemon', keepers: ['alpha'], wins: 1, fills: 2, profit: 40.25, vaultProfit: 80.5, failedTransactions: 0, lostRaceTransactions: 0, drawnAtEnd: 0 },
      { strategy: 'seed-rule', keepers: ['beta'], wins: 1, fills: 2, profit: 18.25, vaultProfit: 36.5, failedTransactions: 2, lostRaceTransactions: 1, drawnAtEnd: 0 },
      { strategy: 'nectar', keepers: ['gamma'], wins: 0, fills: 0, profit: 0, vaultProfit: 0, failedTransactions: 0, lostRaceTransactions: 0, drawnAtEnd: 250.5 },
    ]
    const r = parseReportText(JSON.stringify(report))
    if (!r.ok) expect.unreachable(r.problems.join('\n'))
    else {
      expect(r.report.strategies).toEqual(report.strategies)
      expect(r.report.keepers.map((k) => k.strategy)).toEqual([undefined, 'seed-rule', 'nectar'])
    }
    const wrong = parseReportText(JSON.stringify({ ...report, strategies: [{ ...report.strategies[0], strategy: 'sniper' }] }))
    expect(wrong.ok).toBe(false)
    const old = parseReportText(JSON.stringify(reportFixture()))
    expect(old.ok && old.report.strategies).toBeUndefined()
  })

  it("keeps the sales by route of each keeper and of the run, and reads a report without them", () => {
    const report = reportFixture()
    const r = parseReportText(JSON.stringify(report))
    if (!r.ok) expect.unreachable(r.problems.join('\n'))
    else {
      expect(r.report.summary.sales).toEqual({ primary: 1, fallback: 1, via: 1, comet: 1, split: 1 })
      expect(r.report.keepers.map((k) => k.sales)).toEqual(report.keepers.map((k) => k.sales))
    }
    const old = reportFixture()
    delete old.summary.sales
    for (const k of old.keepers) delete k.sales
    const o = parseReport(JSON.parse(JSON.stringify(old)))
    if (!o.ok) expect.unreachable(o.problems.join('\n'))
    else {
      expect(o.report.summary.sales).toBeUndefined()
      expect(o.report.keepers.every((k) => k.sales === undefined)).toBe(true)
    }
    const wrong = parseReport({ ...report, summary: { ...report.summary, sales: { primary: 1 } } })
    expect(wrong.ok).toBe(false)
  })

  it('reads a report from before the fields added later to version 1, as "not recorded"', () => {
    const old = reportFixture() as unknown as Record<string, Record<string, unknown> & Record<string, unknown>[]>
    delete old.summary!.insolventDebt
    for (const k of old.keepers as unknown as Record<string, unknown>[]) delete k.feesPaid
    for (const a of old.auctions as unknown as Record<string, unknown>[]) delete a.contenders
    const r = parseReport(old)
    if (!r.ok) expect.unreachable(r.problems.join('\n'))
    else {
      expect(r.report.summary.insolventDebt).toBeNaN()
      expect(r.report.keepers[0]!.feesPaid).toBeNaN()
      expect(r.report.auctions[0]!.contenders).toEqual([])
    }
  })

  it('says in words what is wrong with another file', () => {
    const notJson = parseReportText('<html>')
    expect(notJson.ok).toBe(false)
    if (!notJson.ok) expect(notJson.problems[0]).toMatch(/^The file is not JSON/)

    const other = parseReport({ name: 'package', version: '1.0.0' })
    expect(other.ok).toBe(false)
    if (!other.ok) expect(other.problems[0]).toMatch(/not a sim run report: it has no schemaVersion/)

    const future = parseReport({ ...reportFixture(), schemaVersion: 2 })
    if (!future.ok) expect(future.problems).toEqual(['This report has schema version 2; the dashboard reads version 1.'])
    else expect.unreachable()

    const broken = reportFixture() as unknown as { summary: Record<string, unknown>; series: Record<string, unknown> }
    broken.summary.lpReturn = 'high'
    delete broken.series.ledger
    const r = parseReport(broken)
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.problems[0]).toMatch(/does not have its shape/)
      expect(r.problems.some((p) => p.startsWith('summary.lpReturn:'))).toBe(true)
      expect(r.problems.some((p) => p.startsWith('series.ledger:'))).toBe(true)
    }
  })
})
