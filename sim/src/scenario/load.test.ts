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
    expect(p.find((x) => x.includes('keepers.minProfit'))).toMatch(/^line 5, column 14: keepers\.minProfit: must be at least 1, got 0\.5$/)
    expect(p.find((x) => x.includes('keepers.latency.model'))).toMatch(/^line 7, column 12: .*'constant' \| 'uniform' \| 'lognormal'/)
  })

  it('reports YAML syntax errors with their line', () => {
    expect(problems('run:\n  ledgers: [\n')[0]).toMatch(/^line \d+, column \d+: YAML syntax/)
  })

  it('checks what zod cannot: asset codes, keeper and depositor indexes, run length', () => {
    const p = problems(
      'run: {ledgers: 10}\nmarket:\n  prices:\n    DOGE: {model: constant}\nkeepers:\n  count: 2\n  crashes: [{keeper: 5, at: drawn}]\n',
    )
    expect(p.some((x) => /^line 4, column 5: market\.prices\.DOGE: DOGE is no world asset/.test(x))).toBe(true)
    expect(p.some((x) => /^line 7, column 22: keepers\.crashes\.0\.keeper: keeper 5 does not exist: keepers\.count is 2; keepers are 0 to 1 \(keeper-1 to keeper-2: indexes are 0-based\)$/.test(x))).toBe(true)
    expect(problems('run: {ledgers: 10, duration: 1h}\n')[0]).toMatch(/exactly one of run\.ledgers or run\.duration/)
    expect(problems('run: {duration: 10x}\n')[0]).toMatch(/run\.duration.*"15m"/)
  })

  it('takes world.pools (1 to 4) for a deployed world, writing no default when absent', () => {
    expect(parseScenarioText('run: {ledgers: 10}\nworld: {pools: 2}\n', 'x.yaml').scenario.world.pools).toBe(2)
    expect('pools' in parseScenarioText('run: {ledgers: 10}\n', 'x.yaml').scenario.world).toBe(false)
    expect(problems('run: {ledgers: 10}\nworld: {pools: 5}\n')[0]).toMatch(/world\.pools: must be at most 4, got 5$/)
    expect(problems('run: {ledgers: 10}\nworld: {pools: 0}\n')[0]).toMatch(/world\.pools: must be at least 1, got 0$/)
    const found = "run: {ledgers: 10}\nworld:\n  pools: 2\n  from: {snapshot: s.json, pool: CDVQVKOY2YSXS2IC7KN6MNASSHPAO7UN2UR2ON4OI2SKMFJNVAMDX6DP}\n"
    expect(problems(found).some((x) => /world\.pools: world\.pools goes with a deployed world/.test(x))).toBe(true)
  })

  it('takes the vault’s keeper fee and unlock period, and refuses what the contracts refuse', () => {
    const s = parseScenarioText('run: {ledgers: 10}\nworld:\n  vault: {keeperFeeBps: 500, profitUnlockSecs: 2h}\n', 'x.yaml').scenario
    expect(s.world.vault).toMatchObject({ keeperFeeBps: 500, profitUnlockSecs: 7_200 })
    expect(parseScenarioText('run: {ledgers: 10}\n', 'x.yaml').scenario.world.vault).toMatchObject({ keeperFeeBps: 1_000, profitUnlockSecs: 3_600 })
    const p = problems('run: {ledgers: 10}\nworld:\n  vault: {keeperFeeBps: 6000, profitUnlockSecs: 0, withdrawCooldown: 31d}\n  registry: {slashRateBps: 0, slashTimeout: 8d}\n')
    expect(p).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^line 3, column 25: world\.vault\.keeperFeeBps: must be at most 5000, got 6000$/),
        expect.stringMatching(/world\.vault\.profitUnlockSecs: from 1 second to 30 days/),
        expect.stringMatching(/world\.vault\.withdrawCooldown: at most 30 days/),
        expect.stringMatching(/^line 4, column 28: world\.registry\.slashRateBps: must be at least 1, got 0$/),
        expect.stringMatching(/world\.registry\.slashTimeout: from 1 second to 7 days/),
      ]),
    )
  })

  describe('adversaries', () => {
    const base = 'run: {ledgers: 10}\nworld:\n  depositors: {count: 3, adversaries: ADV}\nkeepers:\n  count: 4\n  individual: IND\n'
    const scenario = (ind: string, adv = '[]') => base.replace('IND', ind).replace('ADV', adv)

    it('takes a hostile keeper by name or with its settings, and depositor adversaries', () => {
      const s = parseScenarioText(
        scenario('[{index: 1, hostile: draw-and-run}, {index: 2, hostile: {kind: par-returns, victim: 2, rounds: 2, at: 1m}}, {index: 3, hostile: skim}]', '[{kind: exit-ahead, depositor: 1}, {kind: jit-deposit, amount: 50000}]'),
        'x.yaml',
      ).scenario
      expect(s.keepers.individual.map((o) => o.hostile)).toEqual([
        { kind: 'draw-and-run', at: 0 },
        { kind: 'par-returns', at: 60, rounds: 2, victim: 2 },
        { kind: 'skim', at: 0 },
      ])
      expect(s.world.depositors.adversaries).toEqual([
        { kind: 'exit-ahead', depositor: 1 },
        { kind: 'jit-deposit', amount: 50_000, at: 0, attempts: 3 },
      ])
    })

    it('names an unknown behaviour, keeper settings on a hostile keeper, a hostile crash and a keeper population with no honest keeper', () => {
      expect(problems(scenario('[{index: 1, hostile: steal}]'))[0]).toMatch(/keepers\.individual\.0\.hostile.*draw-and-run, par-returns or skim/)
      expect(problems(scenario('[{index: 1, hostile: skim, minProfit: 1.5, latency: {model: constant, ms: 5}}]'))).toEqual([
        'line 6, column 42: keepers.individual.0.minProfit: keeper 1 (keeper-2) is hostile (skim) and runs no keeper process; minProfit, latency do not apply',
      ])
      expect(problems(scenario('[{index: 1, hostile: skim}]') + '  crashes: [{keeper: 1, at: drawn}]\n')).toEqual([
        expect.stringMatching(/^line 7, column \d+: keepers\.crashes\.0\.keeper: keeper 1 \(keeper-2\) is hostile \(skim\); it runs no keeper process to crash$/),
      ])
      const all = '[{index: 0, hostile: skim}, {index: 1, hostile: skim}, {index: 2, hostile: skim}, {index: 3, hostile: draw-and-run}]'
      expect(problems(scenario(all))).toEqual([expect.stringMatching(/^line 6, column \d+: keepers\.individual: every keeper is hostile; at least one of the 4 must be an honest keeper$/)])
    })

    it('checks victims and depositors: they exist, each plays one part, and an exit-ahead has a draw to get ahead of', () => {
      expect(problems(scenario('[{index: 1, hostile: {kind: par-returns, victim: 3}}]'))).toEqual(['line 6, column 64: keepers.individual.0.hostile.victim: depositor 3 does not exist: world.depositors.count is 3 (depositors are 0-based)'])
      expect(problems(scenario('[{index: 1, hostile: draw-and-run}, {index: 2, hostile: {kind: par-returns, victim: 1}}]', '[{kind: exit-ahead, depositor: 1}]'))).toEqual([
        expect.stringMatching(/^line 3, column \d+: world\.depositors\.adversaries\.0\.depositor: depositor 1 is already the par-returns victim of keeper 2 \(keeper-3\); give each adversary its own depositor$/),
      ])
      expect(problems(scenario('[{index: 1, hostile: skim}]', '[{kind: exit-ahead, depositor: 7}]'))).toEqual([
        expect.stringMatching(/^line 3, column \d+: world\.depositors\.adversaries\.0: exit-ahead waits for a two-step draw past the slash timeout/),
        expect.stringMatching(/^line 3, column \d+: world\.depositors\.adversaries\.0\.depositor: depositor 7 does not exist: world\.depositors\.count is 3 \(depositors are 0-based\)$/),
      ])
      expect(problems(scenario('[]', '[{kind: jit-deposit}]'))[0]).toMatch(/world\.depositors\.adversaries\.0\.amount/)
      expect(problems(scenario('[]', '[{kind: run-away, depositor: 1}]'))[0]).toMatch(/world\.depositors\.adversaries\.0.*exit-ahead.*jit-deposit/)
    })
  })

  it('applies --set overrides before validating them', () => {
    expect(parseScenarioText('run: {duration: 1h}\n', 'x.yaml', [{ path: 'keepers.count', value: 4 }]).scenario.keepers.count).toBe(4)
    expect(problems('run: {duration: 1h}\n', [{ path: 'keepers.pollInterval', value: 1 }])[0]).toMatch(/keepers\.pollInterval: between 3 and 300/)
    expect(problems('run: {duration: 1h}\n', [{ path: 'run.duration.x', value: 1 }])[0]).toMatch(/is a value, not a section/)
  })

  it('takes fractional ledger times down to the sandbox minimum, in whole milliseconds', () => {
    expect(parseScenarioText('run: {duration: 1h, ledgerSeconds: 2.5}\n', 'x.yaml').scenario.run.ledgerSeconds).toBe(2.5)
    expect(parseScenarioText('run: {duration: 1h}\n', 'x.yaml').scenario.run.ledgerSeconds).toBe(5)
    expect(problems('run: {duration: 1h, ledgerSeconds: 0.5}\n')[0]).toMatch(/run\.ledgerSeconds: .*at least 1 s/)
    expect(problems('run: {duration: 1h, ledgerSeconds: 2.5004}\n')[0]).toMatch(/whole number of milliseconds/)
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
        expect.stringMatching(/^line 4, column 3: world\.assets: not used with world\.from/),
        expect.stringMatching(/^line 5, column 3: world\.borrowers: not used with world\.from/),
        expect.stringMatching(/^line 6, column 3: world\.lenderSupply: not used with world\.from \(the pool's own supply is found\)/),
      ])
      expect(problems(found(`{snapshot: a.json, pool: ${POOL}, routers: {primary: ${ROUTER}}}`, 'dex: {primaryFailureRate: 0.1}\n'))).toEqual([
        expect.stringMatching(/^line \d+, column \d+: dex\.primaryFailureRate: the sim pauses only routers it deployed/),
      ])
    })
  })
})

