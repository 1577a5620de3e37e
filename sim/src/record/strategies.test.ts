import { describe, expect, it } from 'vitest'
import { reportFixture } from '../../../test/sim/reportFixture.js'
import { strategiesTable } from '../report/htmlTables.js'
import { reportHtml } from '../report/html.js'
import { summaryTable } from '../report/summary.js'
import type { Report } from '../report/types.js'
import { problems } from '../../../test/sim/scenarioProblems.js'
import { parseScenarioText } from '../scenario/load.js'
import { keeperSpecs } from '../agents/keepers.js'
import { strategyResults } from './strategies.js'

/** The fixture's three keepers as a tournament: alpha the daemon, beta seed-rule, gamma nectar. */
function tournament(): Report {
  const r = reportFixture()
  r.keepers[1]!.strategy = 'seed-rule'
  r.keepers[2]!.strategy = 'nectar'
  r.strategies = strategyResults(r.keepers, new Map([['gamma', 250.5]]))
  return r
}

describe('strategyResults', () => {
  it('sums the keepers of each strategy, in the order daemon, seed-rule, nectar; a keeper without one is the daemon', () => {
    const r = reportFixture()
    r.keepers[0]!.strategy = 'nectar'
    delete r.keepers[1]!.strategy
    r.keepers[2]!.strategy = 'daemon'
    const rows = strategyResults(r.keepers, new Map([['alpha', 12.5]]))
    expect(rows.map((s) => [s.strategy, s.keepers])).toEqual([
      ['daemon', ['beta', 'gamma']],
      ['nectar', ['alpha']],
    ])
    const [daemon, nectar] = rows
    expect(daemon).toMatchObject({ wins: 1, fills: 2, profit: 18.25, vaultProfit: 36.5, failedTransactions: 2, lostRaceTransactions: 1, drawnAtEnd: 0 })
    expect(nectar).toMatchObject({ wins: 1, fills: 2, profit: 40.25, vaultProfit: 80.5, failedTransactions: 0, lostRaceTransactions: 0, drawnAtEnd: 12.5 })
  })

  it('is one daemon row for a population of daemons', () => {
    expect(strategyResults(reportFixture().keepers).map((s) => s.strategy)).toEqual(['daemon'])
  })
})

describe('the strategies in the report', () => {
  it('report.html has a Strategies table when more than one strategy ran; a loss or a draw still out is flagged', () => {
    const r = tournament()
    const table = strategiesTable(r)
    expect(table).toContain('<th>Strategy</th><th>Keepers</th><th class="num">Auctions won</th><th class="num">Fills</th><th class="num">Profit (USDC)</th>')
    expect(table).toMatch(/<tr><td>daemon<\/td><td>alpha<\/td><td class="num">1<\/td><td class="num">2<\/td><td class="num">40\.25<\/td>/)
    expect(table).toMatch(/<tr class="alert"><td>nectar<\/td><td>gamma<\/td>.*<td class="num">250\.50<\/td><\/tr>/)
    expect(reportHtml(r)).toContain('<section id="strategies">')
    expect(reportHtml(reportFixture())).not.toContain('<section id="strategies">')
  })

  it('the terminal summary lists them and the headline gives the wins by strategy', () => {
    const text = summaryTable(tournament())
    const lines = text.split('\n')
    expect(lines.find((l) => l.startsWith('Strategy  '))).toMatch(/Keepers +Auctions won +Fills +Profit \(USDC\) +To vault \(USDC\) +Failed txs +Lost races +Drawn at end \(USDC\)$/)
    expect(lines.find((l) => l.startsWith('seed-rule'))).toMatch(/^seed-rule +beta +1 +2 +18\.25 +36\.50 +2 +1 +0\.00$/)
    expect(lines.find((l) => l.startsWith('Wins by keeper strategy'))).toMatch(/daemon 1 \(40\.25 USDC\), seed-rule 1 \(18\.25 USDC\), nectar 0 \(0\.00 USDC\)$/)
    expect(summaryTable(reportFixture())).not.toMatch(/^Strategy /m)
  })
})

describe('keepers.individual[].strategy', () => {
  const text = (extra: string) => `run: {ledgers: 10}\nkeepers:\n  count: 3\n  individual:\n${extra}`

  it('defaults to the daemon, and a resolved scenario without it stays as it was', () => {
    const s = parseScenarioText(text('    - { index: 1, strategy: seed-rule }\n    - { index: 2, minProfit: 1.05 }\n'), 'x.yaml').scenario
    expect(keeperSpecs(s, 1).map((k) => k.strategy)).toEqual(['daemon', 'seed-rule', 'daemon'])
    expect(s.keepers.individual[1]).not.toHaveProperty('strategy')
  })

  it('refuses an unknown strategy, a strategy agent that is hostile, given a path or lanes, or crashed', () => {
    expect(problems(text('    - { index: 1, strategy: sniper }\n'))[0]).toMatch(/daemon, seed-rule or nectar/)
    const p = problems(text('    - { index: 1, strategy: nectar, hostile: skim }\n    - { index: 2, strategy: seed-rule, path: two-step, channelAccounts: 2 }\n  crashes: [{ keeper: 2, at: filled }]\n'))
    expect(p).toEqual([
      'line 5, column 29: keepers.individual.0.strategy: strategy nectar and hostile skim: a keeper is one or the other',
      'line 6, column 40: keepers.individual.1.path: the seed-rule strategy has its own path and sends from its operator alone; path, channelAccounts do not apply',
      "line 7, column 23: keepers.crashes.0.keeper: keeper 2 (keeper-3) runs the seed-rule strategy; crash points are the daemon's",
    ])
  })
})
