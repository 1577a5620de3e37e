import { describe, expect, it } from 'vitest'
import { problems } from '../../../test/sim/scenarioProblems.js'
import { editDistance, nearest } from './suggest.js'

/** A newcomer's first scenario with three mistakes: a misspelt key, a negative duration, an unknown asset. */
const FIRST_TRY = `description: WETH falls while keepers compete
run:
  duration: -20m
world:
  assets:
    - { code: WETH, price: 2000 }
    - { code: WBTC, price: 60000 }
  depositors:
    count: 2
  borowers:
    count: 5
market:
  prices:
    WETH: { model: scripted, moves: [{ at: 5m, change: -0.3, over: 10m }] }
    DOGE: { model: constant }
keepers:
  count: 2
`

describe('scenario problems', () => {
  it('reports all three mistakes of a first scenario in one pass, each at its own line', () => {
    expect(problems(FIRST_TRY)).toEqual([
      'line 3, column 13: run.duration: must not be negative, got "-20m" (a duration: seconds, or a string like "90s", "15m", "6h" or "2d")',
      'line 10, column 3: world.borowers: unknown key; did you mean borrowers?',
      'line 15, column 5: market.prices.DOGE: DOGE is no world asset (world.assets: WETH, WBTC)',
    ])
  })

  it('keeps the file positions with --set, and names the --set behind a bad value', () => {
    const p = problems(FIRST_TRY, [
      { path: 'keepers.minProfit', value: 0.5 },
      { path: 'keepers.mnProfit', value: 2 },
      { path: 'keepers.count', value: 'three' },
    ])
    expect(p.slice(0, 3).map((x) => x.slice(0, x.indexOf(':', x.indexOf(':') + 1)))).toEqual([
      'line 3, column 13: run.duration',
      'line 10, column 3: world.borowers',
      'line 15, column 5: market.prices.DOGE',
    ])
    expect(p.slice(3)).toEqual([
      '--set keepers.minProfit=0.5: keepers.minProfit: must be at least 1, got 0.5',
      '--set keepers.mnProfit=2: keepers.mnProfit: unknown key; did you mean minProfit?',
      '--set keepers.count=three: keepers.count: expected a number, got "three"',
    ])
  })

  it('points at a misplaced key where it is, not at its section', () => {
    const text = 'run:\n  ledgers: 10\nkeepers:\n  count: 2\n  minProfit: 1.05\n\n\n  pollIntervall: 10\n'
    expect(problems(text)).toEqual(['line 8, column 3: keepers.pollIntervall: unknown key; did you mean pollInterval?'])
    expect(problems('run: {ledgers: 10}\nwrold: {}\n')).toEqual(['line 2, column 1: wrold: unknown key; did you mean world?'])
  })

  it('lists the keys of the section when nothing is near', () => {
    expect(problems('run: {ledgers: 10, colour: 3}\n')[0]).toMatch(/^line 1, column 20: run\.colour: unknown key \(the keys here: ledgers, duration, ledgerSeconds, seed, recordEvery, fastForward\)$/)
  })

  it('says keeper and depositor indexes are 0-based, where they are written', () => {
    const text = 'run: {ledgers: 10}\nworld:\n  depositors: {count: 1, flows: [{at: 1m, depositor: 1, action: deposit, amount: 5}]}\nkeepers:\n  count: 3\n  individual:\n    - { index: 3, minProfit: 1.1 }\n'
    expect(problems(text)).toEqual([
      'line 3, column 54: world.depositors.flows.0.depositor: depositor 1 does not exist: world.depositors.count is 1; the only depositor is 0',
      'line 7, column 16: keepers.individual.0.index: keeper 3 does not exist: keepers.count is 3; keepers are 0 to 2 (keeper-1 to keeper-3: indexes are 0-based)',
    ])
  })

  it('places the population checks too: fee settings the keeper refuses, at their mapping', () => {
    const p = problems('run: {ledgers: 10}\nkeepers:\n  count: 2\n  fee: {strategy: "feestats:p3"}\n')
    expect(p).toEqual([expect.stringMatching(/^line 4, column 8: keepers\.fee: FEE_STRATEGY must be .*, got "feestats:p3"$/)])
  })

  it('words bounds as what is wrong with the value', () => {
    expect(problems('run: {ledgers: 10}\nworld:\n  lenderSupply: -5\n')).toEqual(['line 3, column 17: world.lenderSupply: must be greater than 0 (not negative), got -5'])
    expect(problems('run: {ledgers: 2.5}\n')).toEqual(['line 1, column 16: run.ledgers: must be a whole number, got 2.5'])
    expect(problems('run: {ledgers: 10}\nkeepers: {bond: -1}\n')).toEqual(['line 2, column 17: keepers.bond: must not be negative, got -1'])
  })
})

describe('near misses', () => {
  it('measures edits and takes a near word only', () => {
    expect(editDistance('borowers', 'borrowers')).toBe(1)
    expect(editDistance('kitten', 'sitting')).toBe(3)
    expect(editDistance('wrold', 'world')).toBe(1)
    expect(nearest('borowers', ['borrowers', 'depositors'])).toBe('borrowers')
    expect(nearest('crash30', ['crash-30', 'calm'])).toBe('crash-30')
    expect(nearest('xyz', ['borrowers', 'depositors'])).toBeUndefined()
  })
})
