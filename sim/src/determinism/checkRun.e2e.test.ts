/**
 * `run --check-determinism` on the sandbox with crash-short: a divergence injected on purpose
 * in the second run (one keeper request fails as a simulated RPC fault) is found at the ledger
 * it was injected in, and nowhere before; and the command itself writes trace.jsonl, prints
 * the one-line success and exits 0.
 */
import { spawn } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../../sandbox/ts/launch.js'
import { tempDirs } from '../../../test/fs/tempDirs.js'
import { loadScenario } from '../scenario/load.js'
import { checkRunDeterminism, describeRunCheck } from './checkRun.js'
import { readTrace } from './traceFile.js'

const SCENARIO = join(REPO_ROOT, 'sim', 'scenarios', 'crash-short.yaml')
const temp = tempDirs('sim-check-run-')

describe('run --check-determinism on crash-short', () => {
  it('names the ledger of a keeper request failed on purpose in the second run only', { timeout: 180_000 }, async () => {
    const out = temp()
    const tmpRoot = temp()
    let injected: { ledger: number; method: string } | undefined
    // keeper-1's first ledger-entry read of the lockstep (the set-up's requests are tagged
    // ledger 1): without it that keeper's cycle ends early, so its requests in that ledger
    // change. (Not every failed request shows: a keeper shrugs some off and asks the same next.)
    const requestFault = (ledger: number, agent: string, method: string) => {
      if (injected !== undefined || agent !== 'keeper-1' || ledger <= 1 || method !== 'getLedgerEntries') return false
      injected = { ledger, method }
      return true
    }
    const r = await checkRunDeterminism({ loaded: loadScenario(SCENARIO), seed: 1, outDir: out, tmpRoot, second: { requestFault } })
    expect(injected).toBeDefined()
    expect(r.ok).toBe(false)
    const text = describeRunCheck(r)
    expect(text).toContain(`first differing ledger: ${injected!.ledger} — ledger ${injected!.ledger} (step ${injected!.ledger - r.report.run.startLedger})`)
    expect(text).toMatch(/\n {2}request keeper-1 #\d+: run 1: /)
    // The run directory has the first run's trace; the second run is kept for inspection.
    const trace = await readTrace(join(out, 'trace.jsonl'))
    expect(trace.header).toMatchObject({ start: r.report.run.startLedger, ledgers: r.ledgers, head: r.head })
    expect(r.ledgers).toBe(r.report.run.endLedger)
    expect(text).toContain(`second run kept in ${r.secondDir}`)
    expect(readdirSync(r.secondDir)).toContain('trace.jsonl')
  })

  it('the command prints the one-line success and exits 0', { timeout: 180_000 }, async () => {
    const out = temp()
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'sim', 'src', 'cli.ts'), 'run', 'crash-short', '--out', out, '--check-determinism'], {
      cwd: REPO_ROOT,
      env: { ...process.env, TMPDIR: temp() },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    expect(existsSync(join(out, 'trace.jsonl'))).toBe(true)
    const { header } = await readTrace(join(out, 'trace.jsonl'))
    expect(stdout).toContain(`deterministic: 2 runs, ${header.ledgers} ledgers, trace head ${header.head}`)
    expect(code).toBe(0)
  })
})
