import { join } from 'node:path'
import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../../sandbox/ts/launch.js'
import { loadScenario, parseScenarioText, ScenarioError } from './load.js'

function problems(text: string, overrides: { path: string; value: unknown }[] = []): string[] {
  try {
    parseScenarioText(text, 'bad.yaml', overrides)
  } catch (err) {
    expect(err).toBeInstanceOf(ScenarioError)
    return (err as ScenarioError).problems
  }
  throw new Error('expected the scenario to be refused')
}

describe('scenario files', () => {
  it('names the line, the field and what was expected for each problem', () => {
    const p = problems('run:\n  ledgers: 10\nkeepers:\n  count: 3\n  minProfit: 0.5\n  latency:\n    model: weird\n')
    expect(p).toHaveLength(2)
    expect(p.find((x) => x.includes('keepers.minProfit'))).toMatch(/^line 5, column 14: keepers\.minProfit: .*>=1/)
    expect(p.find((x) => x.includes('keepers.latency.model'))).toMatch(/^line 7, column 12: .*'constant' \| 'uniform' \| 'lognormal'/)
  })

  it('reports YAML syntax errors with their line', () => {
    expect(problems('run:\n  ledgers: [\n')[0]).toMatch(/^line \d+, column \d+: YAML syntax/)
  })

  it('checks what zod cannot: asset codes, keeper and depositor indexes, run length', () => {
    const p = problems(
      'run: {ledgers: 10}\nmarket:\n  prices:\n    DOGE: {model: constant}\nkeepers:\n  count: 2\n  crashes: [{keeper: 5, at: drawn}]\n',
    )
    expect(p.some((x) => x.includes('market.prices.DOGE: no world asset'))).toBe(true)
    expect(p.some((x) => x.includes('keepers.crashes: keeper 5'))).toBe(true)
    expect(problems('run: {ledgers: 10, duration: 1h}\n')[0]).toMatch(/exactly one of run\.ledgers or run\.duration/)
    expect(problems('run: {duration: 10x}\n')[0]).toMatch(/run\.duration.*"15m"/)
  })

  it('applies --set overrides before validating them', () => {
    expect(parseScenarioText('run: {duration: 1h}\n', 'x.yaml', [{ path: 'keepers.count', value: 4 }]).scenario.keepers.count).toBe(4)
    expect(problems('run: {duration: 1h}\n', [{ path: 'keepers.pollInterval', value: 1 }])[0]).toMatch(/keepers\.pollInterval: between 3 and 300/)
    expect(problems('run: {duration: 1h}\n', [{ path: 'run.duration.x', value: 1 }])[0]).toMatch(/is a value, not a section/)
  })

  it('loads every shipped scenario', () => {
    const dir = join(REPO_ROOT, 'sim', 'scenarios')
    const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'))
    expect(files.length).toBeGreaterThanOrEqual(10)
    for (const f of files) expect(loadScenario(join(dir, f)).scenario.name).toBe(f.replace(/\.yaml$/, ''))
  })
})
