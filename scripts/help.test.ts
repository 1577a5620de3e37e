import { execFile, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ParseArgsOptionsConfig } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT, ensureSandboxBinary } from '../sandbox/ts/launch.js'
import { flagsOf, wantsHelp } from '../src/cli/help.js'
import { AUDIT_FLAGS } from '../src/audit/cli/options.js'
import { DEPLOY_FLAGS } from '../src/deploy/options.js'
import { CONFIG_KEYS } from '../src/keeper/config/config.js'
import { RUN_OPTIONS } from '../sim/src/usage.js'
import { MERGE_OPTIONS, SWEEP_OPTIONS } from '../sim/src/sweepCli.js'
import { DEMO_OPTIONS } from './demo/usage.js'

/** The sandbox node's flags, from its parser's match arms (sandbox/src/node/config.rs). */
function sandboxFlags(): string[] {
  const source = readFileSync(join(REPO_ROOT, 'sandbox/src/node/config.rs'), 'utf8')
  return [...new Set([...source.matchAll(/"(--[a-z][a-z-]*)"(?: \| "-h")? =>/g)].map((m) => m[1]!))]
}

const flags = (o: ParseArgsOptionsConfig) => flagsOf(o)

interface Case {
  /** `npm run <script> -- <args>` */
  script: string
  args: string[]
  /** What the usage must name: every option the command's parser accepts. */
  names: string[]
  example: boolean
}

const CASES: Case[] = [
  { script: 'sim', args: ['--help'], names: ['run', 'list', 'sweep', 'merge', '--help'], example: true },
  { script: 'sim', args: ['-h'], names: ['run', 'list', 'sweep', 'merge'], example: true },
  { script: 'sim', args: ['run', '--help'], names: [...flags(RUN_OPTIONS), '-h', 'runs/<name>-seed<N>'], example: true },
  { script: 'sim', args: ['run', 'crash-30', '-h'], names: flags(RUN_OPTIONS), example: true },
  { script: 'sim', args: ['list', '--help'], names: ['--help'], example: true },
  { script: 'sim', args: ['sweep', '--help'], names: flags(SWEEP_OPTIONS), example: true },
  { script: 'sim', args: ['merge', '--help'], names: flags(MERGE_OPTIONS), example: true },
  { script: 'keeper', args: ['--help'], names: [...CONFIG_KEYS, 'healthcheck'], example: true },
  { script: 'keeper', args: ['-h'], names: [...CONFIG_KEYS], example: true },
  { script: 'audit', args: ['--help'], names: flags(AUDIT_FLAGS), example: true },
  { script: 'deploy', args: ['--help'], names: flags(DEPLOY_FLAGS), example: true },
  { script: 'demo', args: ['--help'], names: flags(DEMO_OPTIONS), example: true },
  { script: 'sandbox', args: ['--help'], names: [...sandboxFlags(), '--help'], example: true },
  // The dashboard's usage (dashboard/server/cli.ts) gives no example yet.
  { script: 'dashboard', args: ['--help'], names: ['--addresses', '--runs', '--port', '--host', '--keeper-api', '--no-build', '--help'], example: false },
]

interface Result {
  code: number
  stdout: string
  stderr: string
}

function npmRun(c: Case): Promise<Result> {
  return new Promise((resolve) => {
    execFile('npm', ['run', '-s', c.script, '--', ...c.args], { cwd: REPO_ROOT, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr })
    })
  })
}

const results = new Map<Case, Result>()

beforeAll(async () => {
  // Two at a time: each is a short Node process.
  const queue = [...CASES]
  const worker = async () => {
    for (let c = queue.shift(); c !== undefined; c = queue.shift()) results.set(c, await npmRun(c))
  }
  await Promise.all([worker(), worker()])
}, 240_000)

describe('--help on every command', () => {
  it.each(CASES.map((c) => [`npm run ${c.script} -- ${c.args.join(' ')}`, c] as const))('%s prints its usage and exits 0', (_, c) => {
    const r = results.get(c)!
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/^usage:/m)
    const missing = c.names.filter((n) => !r.stdout.includes(n))
    expect(missing, 'options the parser accepts that the usage does not name').toEqual([])
    if (c.example) expect(r.stdout).toMatch(/^example:\n {2}(\S+=\S+ )*npm run /m)
    // Help starts nothing: no node, no deployment, no keeper.
    expect(r.stdout + r.stderr).not.toMatch(/^sandbox ready http|^\[demo\] |api listening|missing required env/m)
  })

  it('every option line of the sim run usage says its default', () => {
    const out = results.get(CASES[2]!)!.stdout
    for (const flag of flags(RUN_OPTIONS).filter((f) => f !== '--help')) {
      const entry = out.slice(out.indexOf(`  ${flag}`), out.indexOf('\n  --', out.indexOf(`  ${flag}`) + 3))
      expect(entry, flag).toMatch(/default/)
    }
  })
})

describe('the sandbox node itself (target/sandbox/sandbox, as the launcher runs it)', () => {
  it('prints its usage on --help and -h and exits 0; a bad argument exits 2', () => {
    const bin = ensureSandboxBinary()
    for (const flag of ['--help', '-h']) {
      const r = spawnSync(bin, ['--port', '0', flag], { encoding: 'utf8', timeout: 10_000 })
      expect(r.status, r.stderr).toBe(0)
      expect(r.stdout).toMatch(/^usage: sandbox/)
      expect(sandboxFlags().filter((f) => !r.stdout.includes(f))).toEqual([])
      expect(r.stdout).toMatch(/^example:\n {2}\S*sandbox /m)
    }
    const bad = spawnSync(bin, ['--bogus'], { encoding: 'utf8', timeout: 10_000 })
    expect(bad.status).toBe(2)
    expect(bad.stderr).toContain('unknown argument --bogus')
  }, 600_000)
})

describe('the world command (npx tsx src/world/cli.ts)', () => {
  const run = (args: string[]) => spawnSync('npx', ['tsx', 'src/world/cli.ts', ...args], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000 })

  it('prints its usage with every option and an example on --help and -h, exit 0, starting nothing', () => {
    for (const flag of ['--help', '-h']) {
      const r = run([flag])
      expect(r.status, r.stderr).toBe(0)
      expect(r.stdout).toMatch(/^usage: npx tsx src\/world\/cli.ts/)
      for (const f of ['--seed', '--out', '--borrowers', '--rpc-url', '--friendbot-url', '--passphrase']) expect(r.stdout).toContain(f)
      expect(r.stdout).toMatch(/^example:\n {2}npx tsx src\/world\/cli.ts /m)
      expect(r.stdout).not.toMatch(/^sandbox http/m)
    }
  }, 120_000)

  it('refuses an unknown option in one line and exits 2', () => {
    const r = run(['--bogus'])
    expect(r.status).toBe(2)
    expect(r.stderr.trim()).toBe("Unknown option '--bogus' (--help lists the options)")
  }, 60_000)
})

describe('wantsHelp', () => {
  it('sees -h and --help before a --, and nothing else', () => {
    expect(wantsHelp(['run', 'x', '--help'])).toBe(true)
    expect(wantsHelp(['-h'])).toBe(true)
    expect(wantsHelp(['run', '--', '--help'])).toBe(false)
    expect(wantsHelp(['--helpful'])).toBe(false)
  })
})
