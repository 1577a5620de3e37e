import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from './build.js'
import { parseCliArgs } from './cli.js'

describe('npm run dashboard: the command line', () => {
  it('reads every option, with defaults', () => {
    expect(parseCliArgs(['--addresses', 'a.json'])).toEqual({ addresses: 'a.json', runsDir: undefined, port: 5173, host: '127.0.0.1', keeperApis: [], build: true, help: false })
    expect(
      parseCliArgs(['--addresses', 'a.json', '--port', '0', '--host', '0.0.0.0', '--keeper-api', 'http://127.0.0.1:8080/', '--keeper-api', 'http://h:8081,http://h:8082', '--no-build']),
    ).toEqual({ addresses: 'a.json', runsDir: undefined, port: 0, host: '0.0.0.0', keeperApis: ['http://127.0.0.1:8080', 'http://h:8081', 'http://h:8082'], build: false, help: false })
  })

  it('takes --runs, with or without --addresses (Research alone)', () => {
    expect(parseCliArgs(['--runs', 'runs'])).toMatchObject({ addresses: undefined, runsDir: 'runs' })
    expect(parseCliArgs(['--addresses', 'a.json', '--runs', 'runs'])).toMatchObject({ addresses: 'a.json', runsDir: 'runs' })
    expect(() => parseCliArgs(['--runs', ''])).toThrow('--runs is empty')
  })

  it('refuses a bad command line in words', () => {
    expect(() => parseCliArgs([])).toThrow('give --addresses <file> (e.g. target/demo/addresses.json)')
    expect(() => parseCliArgs(['--addresses', 'a.json', '--port', '70000'])).toThrow('--port must be an integer in [0, 65535], got "70000"')
    expect(() => parseCliArgs(['--addresses', 'a.json', '--port', '80.5'])).toThrow(/--port must be an integer/)
    expect(() => parseCliArgs(['--addresses', 'a.json', '--keeper-api', 'localhost:8080'])).toThrow(/--keeper-api/)
    expect(() => parseCliArgs(['--addresses', 'a.json', '--frobnicate'])).toThrow(/Unknown option '--frobnicate'/)
    expect(() => parseCliArgs(['--addresses', 'a.json', 'extra'])).toThrow(/positional/)
  })

  it('exits 2 with the message and the usage on a bad command line or addresses file', () => {
    const run = (args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'dashboard/server/cli.ts', ...args], { cwd: REPO_ROOT, encoding: 'utf8' })
    const noFile = run([])
    expect(noFile.status).toBe(2)
    expect(noFile.stderr).toMatch(/^dashboard: give --addresses <file>/)
    expect(noFile.stderr).toMatch(/usage: npm run dashboard -- --addresses <file>/)
    const missing = run(['--addresses', 'target/no-such-addresses.json', '--no-build'])
    expect(missing.status).toBe(2)
    expect(missing.stderr).toMatch(/dashboard: --addresses target\/no-such-addresses\.json: cannot read the file \(ENOENT\)/)
  }, 30_000)
})
