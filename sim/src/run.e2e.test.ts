import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../sandbox/ts/launch.js'
import { runScenario } from './run.js'
import { loadScenario } from './scenario/load.js'

const SCENARIO = join(REPO_ROOT, 'sim', 'scenarios', 'crash-short.yaml')
const OUT = join(REPO_ROOT, 'target', 'test-sim')

describe('a short seeded crash on the sandbox', () => {
  it('fills liquidations with 0 core-replay mismatches, the invariants hold, and the same seed gives the same report bytes', { timeout: 300_000 }, async () => {
    const loaded = loadScenario(SCENARIO)
    const a = await runScenario({ loaded, seed: 1, outDir: join(OUT, 'a') })
    expect(a.summary.auctions.filled).toBeGreaterThan(0)
    expect(a.replay.checks.every((c) => c.checked > 0 || c.kind === 'health-factor')).toBe(true)
    expect(a.summary.replayMismatches).toBe(0)
    expect(a.audit.holds).toBe(true)
    expect(a.events.some((e) => e.kind === 'deposit')).toBe(true)

    await runScenario({ loaded, seed: 1, outDir: join(OUT, 'b') })
    const [ja, jb] = await Promise.all([readFile(join(OUT, 'a', 'report.json')), readFile(join(OUT, 'b', 'report.json'))])
    expect(ja.equals(jb)).toBe(true)

    const c = await runScenario({ loaded, seed: 2, outDir: join(OUT, 'c') })
    const jc = await readFile(join(OUT, 'c', 'report.json'))
    expect(jc.equals(ja)).toBe(false)
    expect(JSON.stringify(c.series)).not.toEqual(JSON.stringify(a.series))
  })
})
