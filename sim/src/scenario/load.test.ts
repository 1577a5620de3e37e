import { join } from 'node:path'
import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../../sandbox/ts/launch.js'
import { problems } from '../../../test/sim/scenarioProblems.js'
import { loadScenario, parseScenarioText } from './load.js'

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

  describe('world.from (a found pool)', () => {
    const POOL = 'CDVQVKOY2YSXS2IC7KN6MNASSHPAO7UN2UR2ON4OI2SKMFJNVAMDX6DP'
    const ROUTER = 'CAS3J7GYLGXMF6TDJBBYYSE3HQ6BBSMLNUQ34T6TZMYMW2EVH34XOWMA'
    const found = (from: string, rest = '') => `run: {ledgers: 10}\nworld:\n  from: ${from}\n${rest}`

    it('takes a snapshot or a fork with the pool, and leaves asset codes to be checked once the pool is read', () => {
      const s = parseScenarioText(found(`{snapshot: up.json, pool: ${POOL}}`, 'market:\n  prices:\n    XLM: {model: constant}\n'), 'x.yaml').scenario
      expect(s.world.from).toMatchObject({ snapshot: 'up.json', pool: POOL, dexDepthUsd: 1_000_000, borrowers: [], headers: {} })
      const f = parseScenarioText(found(`{fork: "https://rpc.example.org", ledger: 7, pool: ${POOL}, dexDepthUsd: {XLM: 5000}}`), 'x.yaml').scenario
      expect(f.world.from).toMatchObject({ fork: 'https://rpc.example.org', ledger: 7, dexDepthUsd: { XLM: 5000 } })
    })

    it('refuses a start that is neither or both, a ledger on a snapshot, and bad addresses', () => {
      expect(problems(found(`{pool: ${POOL}}`))[0]).toMatch(/world\.from: give exactly one of snapshot or fork/)
      expect(problems(found(`{snapshot: a.json, fork: "http://x:1", pool: ${POOL}}`))[0]).toMatch(/exactly one of snapshot or fork/)
      expect(problems(found(`{snapshot: a.json, ledger: 5, pool: ${POOL}}`)).some((p) => /world\.from\.ledger: ledger goes with fork/.test(p))).toBe(true)
      expect(problems(found('{snapshot: a.json, pool: GNOPE}'))[0]).toMatch(/world\.from\.pool: a contract address/)
      expect(problems(found(`{fork: "ftp://x", pool: ${POOL}}`))[0]).toMatch(/world\.from\.fork: an http\(s\) URL/)
      expect(problems(found(`{snapshot: a.json, pool: ${POOL}, borrowers: [nope]}`))[0]).toMatch(/world\.from\.borrowers\.0: a Stellar address/)
    })

    it('refuses the fields that would deploy a world, and router outages on routers it does not own', () => {
      const p = problems(found(`{snapshot: a.json, pool: ${POOL}}`, '  assets: [{code: WETH, price: 1}, {code: WBTC, price: 2}]\n  borrowers: {count: 3}\n  lenderSupply: 5\n'))
      expect(p).toEqual([
        expect.stringMatching(/^world\.assets: not used with world\.from/),
        expect.stringMatching(/^world\.borrowers: not used with world\.from/),
        expect.stringMatching(/^world\.lenderSupply: not used with world\.from/),
      ])
      expect(problems(found(`{snapshot: a.json, pool: ${POOL}, routers: {primary: ${ROUTER}}}`, 'dex: {primaryFailureRate: 0.1}\n'))).toEqual([
        expect.stringMatching(/^dex\.primaryFailureRate: the sim pauses only routers it deployed/),
      ])
    })
  })
})

