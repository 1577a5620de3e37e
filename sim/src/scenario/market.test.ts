import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../../sandbox/ts/launch.js'
import { problems } from '../../../test/sim/scenarioProblems.js'
import { correlation as sampleCorrelation, pathLogReturns } from '../../../test/sim/marketStats.js'
import { marketTimeline } from '../market/paths.js'
import { loadScenario, parseScenarioText, type LoadedScenario } from './load.js'

const GBM_PRICES = 'market:\n  prices:\n    WETH: {model: gbm, volatility: 0.8}\n    WBTC: {model: gbm, volatility: 0.6}\n'
const scenario = (correlation: string) => `run: {duration: 1h}\n${GBM_PRICES}  correlation: ${correlation}\n`

describe('market.correlation in a scenario file', () => {
  it('accepts rho or a full matrix', () => {
    expect(parseScenarioText(scenario('{assets: [WETH, WBTC], rho: 0.8}'), 'x.yaml').scenario.market.correlation).toEqual({ assets: ['WETH', 'WBTC'], rho: 0.8 })
    const matrix = parseScenarioText(scenario('{assets: [WETH, WBTC], matrix: [[1, 0.8], [0.8, 1]]}'), 'x.yaml').scenario.market.correlation
    expect(matrix?.matrix).toEqual([[1, 0.8], [0.8, 1]])
  })

  it('points at the entry that breaks symmetry, the size or the diagonal', () => {
    expect(problems(scenario('{assets: [WETH, WBTC], matrix: [[1, 0.8], [0.3, 1]]}'))).toEqual([
      'line 6, column 52: market.correlation.matrix.0.1: the matrix must be symmetric: entry [0][1] (WETH, WBTC) is 0.8 but [1][0] is 0.3',
    ])
    expect(problems(scenario('{assets: [WETH, WBTC], matrix: [[1]]}'))[0]).toMatch(/^line 6, column \d+: market\.correlation\.matrix: 2 assets need 2 rows, got 1$/)
    expect(problems(scenario('{assets: [WETH, WBTC], matrix: [[1, 0.2], [0.2, 2]]}'))[0]).toMatch(/market\.correlation\.matrix\.1\.1: .* is 2; correlations lie between -1 and 1/)
  })

  it('refuses a matrix that is not positive semi-definite', () => {
    const text =
      'run: {duration: 1h}\nworld:\n  assets: [{code: WETH, price: 2000}, {code: WBTC, price: 60000}, {code: XLM, price: 0.1}]\n' +
      `${GBM_PRICES}    XLM: {model: gbm, volatility: 1}\n  correlation:\n    assets: [WETH, WBTC, XLM]\n    matrix: [[1, 0.9, -0.9], [0.9, 1, 0.9], [-0.9, 0.9, 1]]\n`
    expect(problems(text)).toEqual([
      'line 11, column 13: market.correlation.matrix: not positive semi-definite, so no assets can have these correlations: the Cholesky factorisation fails at row 2 (XLM), pivot -15.20',
    ])
  })

  it('needs world assets with a gbm or jumps model', () => {
    expect(problems(scenario('{assets: [WETH, DOGE], rho: 0.5}'))).toEqual(['line 6, column 32: market.correlation.assets.1: DOGE is no world asset (world.assets: WETH, WBTC)'])
    const csv = 'run: {duration: 1h}\nmarket:\n  prices:\n    WETH: {model: gbm, volatility: 0.8}\n  correlation: {assets: [WETH, WBTC], rho: 0.5}\n'
    expect(problems(csv)).toEqual(["line 5, column 32: market.correlation.assets.1: WBTC's price model is constant (no market.prices entry); only gbm and jumps models can be correlated"])
  })

  it('takes one --set for a "broken correlation" sweep: rho, or a whole matrix', () => {
    const base = scenario('{assets: [WETH, WBTC], rho: 0.8}')
    expect(parseScenarioText(base, 'x.yaml', [{ path: 'market.correlation.rho', value: -0.2 }]).scenario.market.correlation?.rho).toBe(-0.2)
    expect(problems(base, [{ path: 'market.correlation.rho', value: 1.5 }])).toEqual(['--set market.correlation.rho=1.5: market.correlation.rho: a correlation between -1 and 1, got 1.5'])
    // A matrix file: --set replaces the whole matrix; one entry alone would break symmetry.
    const full = scenario('{assets: [WETH, WBTC], matrix: [[1, 0.8], [0.8, 1]]}')
    const swapped = parseScenarioText(full, 'x.yaml', [{ path: 'market.correlation.matrix', value: [[1, 0.1], [0.1, 1]] }])
    expect(swapped.scenario.market.correlation?.matrix).toEqual([[1, 0.1], [0.1, 1]])
    expect(problems(full, [{ path: 'market.correlation.matrix.0.1', value: 0.1 }])[0]).toMatch(/matrix\.0\.1: the matrix must be symmetric/)
    // rho on a matrix file is refused rather than silently ignored.
    expect(problems(full, [{ path: 'market.correlation.rho', value: 0.1 }])[0]).toMatch(/exactly one of rho .* or matrix/)
  })
})

describe('the bootstrap price model in a scenario file', () => {
  it('applies defaults and needs blockLength', () => {
    const ok = parseScenarioText('run: {duration: 1h}\nmarket:\n  prices:\n    WETH: {model: bootstrap, file: x.csv, blockLength: 24}\n', 'x.yaml')
    expect(ok.scenario.market.prices.WETH).toEqual({
      model: 'bootstrap',
      file: 'x.csv',
      column: 'close',
      timeColumn: 'timestamp',
      rebase: true,
      volatilityScale: 1,
      blockLength: 24,
      startRow: 0,
    })
    expect(problems('run: {duration: 1h}\nmarket:\n  prices:\n    WETH: {model: bootstrap, file: x.csv}\n')[0]).toMatch(/market\.prices\.WETH\.blockLength/)
    expect(problems('run: {duration: 1h}\nmarket:\n  prices:\n    WETH: {model: bootstrap, file: x.csv, blockLength: 2, startRow: 5, endRow: 6}\n')[0]).toMatch(
      /market\.prices\.WETH\.endRow: endRow must be at least startRow \+ 2/,
    )
  })
})

describe('the shipped market scenarios', () => {
  const shipped = (name: string): LoadedScenario => loadScenario(join(REPO_ROOT, 'sim', 'scenarios', `${name}.yaml`))
  const paths = (l: LoadedScenario, seed: number) =>
    marketTimeline(l.scenario.market, l.scenario.world.assets, { seed, steps: l.scenario.run.duration! / l.scenario.run.ledgerSeconds, dtSeconds: l.scenario.run.ledgerSeconds, baseDir: l.dir })

  it('may-2022-bootstrap: every seed its own WETH path, the same one each time', () => {
    const l = shipped('may-2022-bootstrap')
    const ends = Array.from({ length: 10 }, (_, seed) => paths(l, seed).WETH!.at(-1))
    expect(new Set(ends).size).toBe(10)
    expect(paths(l, 3).WETH).toEqual(paths(l, 3).WETH)
  })

  it('correlated-crash: rho is one --set away, and the shocks follow it', () => {
    for (const rho of [0, 0.9]) {
      const l = loadScenario(join(REPO_ROOT, 'sim', 'scenarios', 'correlated-crash.yaml'), [{ path: 'market.correlation.rho', value: rho }])
      const p = paths(l, 1)
      expect(Math.abs(sampleCorrelation(pathLogReturns(p.WETH!), pathLogReturns(p.WBTC!)) - rho)).toBeLessThan(0.1)
    }
  })
})
