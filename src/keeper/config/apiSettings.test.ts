import { Keypair } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { C1, C2, configProblems, minimalEnv } from '../../../test/keeper/configEnv.js'
import { parseConfig } from './config.js'
import { safetySwitchesOff } from './safety.js'

const base = minimalEnv(Keypair.random())
const problems = configProblems

describe('API and secret settings', () => {
  it('default to safe values', () => {
    const c = parseConfig(base)
    expect(c.apiHost).toBe('127.0.0.1')
    expect(c.apiCorsOrigins).toEqual([])
    expect(c.apiToken).toBeUndefined()
    expect(c.apiSsePerAddress).toBe(10)
    expect(c.readyFailedCycles).toBe(3)
    expect(c.strictSecrets).toBe(false)
  })

  it('take valid values', () => {
    const c = parseConfig({
      ...base,
      API_HOST: '0.0.0.0',
      API_TOKEN: 'abcdefghijklmnop-0123',
      API_SSE_PER_ADDRESS: '3',
      READY_FAILED_CYCLES: '5',
      STRICT_SECRETS: 'true',
    })
    expect([c.apiHost, c.apiToken, c.apiSsePerAddress, c.readyFailedCycles, c.strictSecrets]).toEqual(['0.0.0.0', 'abcdefghijklmnop-0123', 3, 5, true])
    expect(parseConfig({ ...base, API_HOST: '[::1]' }).apiHost).toBe('::1')
    expect(parseConfig({ ...base, STRICT_SECRETS: 'false' }).strictSecrets).toBe(false)
  })

  it('refuse a bad value with one line naming the setting', () => {
    const cases: [Record<string, string>, string][] = [
      [{ API_HOST: 'http://0.0.0.0' }, 'API_HOST must be an address or host name to bind (e.g. 127.0.0.1, 0.0.0.0, ::), got "http://0.0.0.0"'],
      [{ API_CORS_ORIGINS: 'https://a.example/x' }, 'API_CORS_ORIGINS entry must be * or an origin like https://dashboard.example.org (scheme, host, optional port; no path), got "https://a.example/x"'],
      [{ API_TOKEN: 'short' }, 'API_TOKEN must be at least 16 printable characters without spaces (e.g. openssl rand -hex 32), got 5 character(s)'],
      [{ API_SSE_PER_ADDRESS: '0' }, 'API_SSE_PER_ADDRESS must be an integer in [1, 100] (event streams one remote address may hold), got "0"'],
      [{ READY_FAILED_CYCLES: 'x' }, 'READY_FAILED_CYCLES must be an integer in [1, 1000] (consecutive failed poll cycles before /readyz answers 503), got "x"'],
      [{ STRICT_SECRETS: 'maybe' }, 'STRICT_SECRETS must be true or false, got "maybe"'],
    ]
    for (const [env, line] of cases) expect(problems({ ...base, ...env })).toEqual([line])
  })

  it('never echo a bad API_TOKEN', () => {
    expect(problems({ ...base, API_TOKEN: 'zq9 zq9 zq9 zq9 zq9' }).join('\n')).not.toContain('zq9')
  })
})

describe('safety switches off at start', () => {
  it('names what the default configuration leaves off', () => {
    const off = safetySwitchesOff(parseConfig(base))
    expect(off).toContain('no USDC_CONTRACT: stale-draw recovery disabled')
    expect(off).toContain('no LENDING_POOLS: monitor-only, no liquidation')
    expect(off.some((s) => s.startsWith('no EXECUTOR_CONTRACT'))).toBe(true)
    expect(off.some((s) => s.startsWith('API_HOST'))).toBe(false)
  })

  it('says when the API is open to other machines or pages, and drops what is set', () => {
    const off = safetySwitchesOff(
      parseConfig({ ...base, USDC_CONTRACT: C2, LENDING_POOL: C1, API_HOST: '0.0.0.0', API_CORS_ORIGINS: '*', FEE_BUMP_LEDGERS: '0', FAULT_CRASH_AT: 'drawn' }),
    )
    expect(off.some((s) => s.startsWith('no USDC_CONTRACT'))).toBe(false)
    expect(off.some((s) => s.startsWith('no LENDING_POOL'))).toBe(false)
    expect(off).toContain('API_HOST=0.0.0.0: the API is reachable from other machines')
    expect(off).toContain('API_CORS_ORIGINS=*: any web page can read the API')
    expect(off.some((s) => s.startsWith('FEE_BUMP_LEDGERS=0'))).toBe(true)
    expect(off.some((s) => s.startsWith('FAULT_CRASH_AT=drawn'))).toBe(true)
  })
})
