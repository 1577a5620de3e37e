import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Keypair, StrKey } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { UsageError } from './errors.js'
import { parseOptions, venueList, type DeployOptions } from './options.js'
import { PRESETS, describeParameters, differingParameters, formatUsdc, parameterProblems, parametersFromJson, parametersToJson, parseUsdc } from './preset.js'
import { runDeployCli } from './run.js'

const C = StrKey.encodeContract(Buffer.alloc(32, 7))

describe('npm run deploy: the command line', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'deploy-options-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  const parse = (argv: string[], env: Record<string, string> = {}) => parseOptions(argv, env, dir) as DeployOptions
  const fails = (argv: string[], message: RegExp, env: Record<string, string> = {}) => expect(() => parseOptions(argv, env, dir)).toThrow(message)

  it('takes the testnet preset by default, the network default file and no key', () => {
    const o = parse(['--network', 'testnet'])
    expect(o.parameters).toEqual({
      min_stake: 100_0000000n,
      slash_timeout: 3_600n,
      slash_rate_bps: 1_000,
      deposit_cap: 10_000_000_0000000n,
      withdraw_cooldown: 3_600n,
      max_draw_per_keeper: 10_000_0000000n,
      keeper_fee_bps: 1_000,
      profit_unlock_secs: 3_600n,
    })
    expect(o).toMatchObject({ network: 'testnet', preset: 'testnet', parametersGiven: false, venues: undefined, rpcUrl: undefined, usdc: undefined, deployer: undefined, salt: undefined, allowMainnet: false })
    expect(o.out).toBe(join(dir, 'deployments', 'testnet.json'))
    expect(o.wasmDir).toMatch(/target[\\/]wasm$/)
    expect(PRESETS.testnet.usdc.asset).toEqual({ code: 'USDC', issuer: 'GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5', contract: 'CBIELTK6YBZJU5UP2WWQEUCYKLPU6AUNZ2BQ4WWFEIE3USCIHMXQDAMA' })
  })

  it('overrides single parameters, and notes that they were given', () => {
    const o = parse(['--network', 'local', '--min-stake', '250.5', '--slash-timeout', '60', '--slash-rate-bps', '1', '--max-draw-per-keeper', '1'])
    expect(o.parameters).toMatchObject({ min_stake: 250_5000000n, slash_timeout: 60n, slash_rate_bps: 1, max_draw_per_keeper: 1_0000000n, deposit_cap: 10_000_000_0000000n })
    expect(o.parametersGiven).toBe(true)
    expect(parse(['--network', 'local', '--preset', 'testnet']).parametersGiven).toBe(true)
    const fee = parse(['--network', 'local', '--keeper-fee-bps', '0', '--profit-unlock-secs', '2592000', '--withdraw-cooldown', '0'])
    expect(fee.parameters).toMatchObject({ keeper_fee_bps: 0, profit_unlock_secs: 2_592_000n, withdraw_cooldown: 0n })
    expect(fee.parametersGiven).toBe(true)
    expect(parse(['--network', 'local', '--keeper-fee-bps', '5000', '--slash-rate-bps', '5000', '--slash-timeout', '604800']).parameters).toMatchObject({
      keeper_fee_bps: 5_000,
      slash_rate_bps: 5_000,
      slash_timeout: 604_800n,
    })
  })

  it('takes the lending pool and DEX routers for the registry\'s venues', () => {
    const D = StrKey.encodeContract(Buffer.alloc(32, 8))
    const o = parse(['--network', 'local', '--lending-pool', C, '--dex-router', D, '--dex-router', C, '--dex-router', D])
    expect(o.venues).toEqual({ pool: C, routers: [D, C] })
    expect(venueList(o.venues!)).toEqual([C, D])
    expect(parse(['--network', 'local', '--dex-router', D]).venues).toEqual({ pool: undefined, routers: [D] })
    expect(parse(['--network', 'local']).venues).toBeUndefined()
    fails(['--network', 'local', '--lending-pool', 'GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5'], /--lending-pool must be a contract address \(C\.\.\., 56 characters\)/)
    fails(['--network', 'local', '--dex-router', D, '--dex-router', 'nope'], /--dex-router must be a contract address \(C\.\.\., 56 characters\), got "nope"/)
  })

  it('reads the deployer key from --secret-file or DEPLOYER_SECRET, never both, never echoing it', () => {
    const kp = Keypair.random()
    const file = join(dir, 'deployer.secret')
    writeFileSync(file, `${kp.secret()}\n`)
    expect(parse(['--network', 'local', '--secret-file', file]).deployer?.keypair.publicKey()).toBe(kp.publicKey())
    expect(parse(['--network', 'local'], { DEPLOYER_SECRET: kp.secret() }).deployer).toMatchObject({ from: 'DEPLOYER_SECRET' })
    fails(['--network', 'local', '--secret-file', file], /not both/, { DEPLOYER_SECRET: kp.secret() })
    const almost = `${kp.secret().slice(0, -1)}${kp.secret().endsWith('A') ? 'B' : 'A'}`
    writeFileSync(file, almost)
    let message = ''
    try {
      parseOptions(['--network', 'local', '--secret-file', file], {}, dir)
    } catch (err) {
      message = (err as Error).message
    }
    expect(message).toMatch(/deployer\.secret: not a Stellar secret key/)
    expect(message).not.toContain(almost)
    expect(() => parseOptions(['--network', 'local'], { DEPLOYER_SECRET: 'SNOPE' }, dir)).toThrow(/DEPLOYER_SECRET: not a Stellar secret key/)
    fails(['--network', 'local', '--secret-file', join(dir, 'missing')], /--secret-file .*missing: cannot read the file \(ENOENT\)/)
  })

  it('refuses bad flags with a message naming the flag', () => {
    fails([], /give --network testnet or --network local/)
    fails(['--network', 'mainnet'], /--network must be testnet or local, got "mainnet"/)
    fails(['--network', 'local', '--frobnicate'], /Unknown option '--frobnicate'/)
    fails(['--network', 'local', 'extra'], /positional/)
    fails(['--network', 'local', '--rpc-url', 'localhost:8000'], /--rpc-url must be an http\(s\) URL, got "localhost:8000"/)
    fails(['--network', 'local', '--rpc-url', 'ftp://h/rpc'], /--rpc-url must be an http\(s\) URL/)
    fails(['--network', 'local', '--usdc', 'GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5'], /--usdc must be a contract address \(C\.\.\., 56 characters\)/)
    fails(['--network', 'local', '--usdc', `${C.slice(0, -1)}X`], /--usdc must be a contract address/)
    fails(['--network', 'local', '--preset', 'mainnet'], /--preset must be one of testnet, got "mainnet"/)
    fails(['--network', 'local', '--min-stake', '0'], /--min-stake must be a USDC amount above 0/)
    fails(['--network', 'local', '--deposit-cap', '1.12345678'], /--deposit-cap must be a USDC amount above 0 with at most 7 decimals/)
    fails(['--network', 'local', '--max-draw-per-keeper=-5'], /--max-draw-per-keeper must be a USDC amount/)
    fails(['--network', 'local', '--withdraw-cooldown', '1h'], /--withdraw-cooldown must be a whole number of seconds from 0 to 2592000, got "1h"/)
    fails(['--network', 'local', '--withdraw-cooldown', '2592001'], /--withdraw-cooldown must be a whole number of seconds from 0 to 2592000, got "2592001"/)
    fails(['--network', 'local', '--slash-rate-bps', '5001'], /--slash-rate-bps must be an integer from 1 to 5000, got "5001"/)
    fails(['--network', 'local', '--slash-rate-bps', '0'], /--slash-rate-bps must be an integer from 1 to 5000, got "0"/)
    fails(['--network', 'local', '--slash-timeout', '0'], /--slash-timeout must be a whole number of seconds from 1 to 604800, got "0"/)
    fails(['--network', 'local', '--slash-timeout', '604801'], /--slash-timeout must be a whole number of seconds from 1 to 604800/)
    fails(['--network', 'local', '--keeper-fee-bps', '5001'], /--keeper-fee-bps must be an integer from 0 to 5000, got "5001"/)
    fails(['--network', 'local', '--keeper-fee-bps=-1'], /--keeper-fee-bps must be an integer from 0 to 5000, got "-1"/)
    fails(['--network', 'local', '--keeper-fee-bps', '10.5'], /--keeper-fee-bps must be an integer from 0 to 5000/)
    fails(['--network', 'local', '--profit-unlock-secs', '0'], /--profit-unlock-secs must be a whole number of seconds from 1 to 2592000, got "0"/)
    fails(['--network', 'local', '--profit-unlock-secs', '2592001'], /--profit-unlock-secs must be a whole number of seconds from 1 to 2592000/)
    fails(['--network', 'local', '--salt', 'a b'], /--salt must be 1-64 letters/)
    fails(['--network', 'local'], /DEPLOY_CRASH_AT must be after:<step> or sent:<step>/, { DEPLOY_CRASH_AT: 'after:nothing' })
    expect(parse(['--network', 'local'], { DEPLOY_CRASH_AT: 'sent:deploy-vault' }).crashAt).toBe('sent:deploy-vault')
    expect(() => parseOptions(['--bad'], {}, dir)).toThrow(UsageError)
  })

  it('exits 2 with the message on a bad command line, and prints the flags on --help', async () => {
    let err = ''
    let out = ''
    const io = { out: (t: string) => (out += t), err: (t: string) => (err += t), env: {}, cwd: dir }
    expect(await runDeployCli(['--network', 'local', '--usdc', 'nope'], io)).toBe(2)
    expect(err).toBe('deploy: --usdc must be a contract address (C..., 56 characters), got "nope"\n(npm run deploy -- --help for the flags)\n')
    expect(out).toBe('')
    expect(await runDeployCli(['--help'], io)).toBe(0)
    expect(out).toMatch(/^usage:\n {2}npm run deploy -- --network testnet\|local/)
    expect(out).toContain('--allow-mainnet')
  })

  it('USDC amounts and the contracts\' own limits', () => {
    expect(parseUsdc('100')).toBe(100_0000000n)
    expect(parseUsdc('0.0000001')).toBe(1n)
    expect(parseUsdc('1e3')).toBeUndefined()
    expect(formatUsdc(10_000_000_0000000n)).toBe('10000000.0000000')
    expect(parameterProblems(PRESETS.testnet.parameters)).toEqual([])
    expect(parameterProblems({ ...PRESETS.testnet.parameters, min_stake: 0n, slash_rate_bps: 10_001 })).toEqual([
      'min_stake must be more than 0',
      'slash_rate_bps must be an integer from 1 to 5000',
    ])
    // The contracts' bounds, each problem naming its parameter.
    const p = PRESETS.testnet.parameters
    expect(parameterProblems({ ...p, keeper_fee_bps: 5_001, profit_unlock_secs: 0n, withdraw_cooldown: 2_592_001n, slash_rate_bps: 0, slash_timeout: 604_801n })).toEqual([
      'slash_rate_bps must be an integer from 1 to 5000',
      'keeper_fee_bps must be an integer from 0 to 5000',
      'slash_timeout must be from 1 to 604800 seconds',
      'withdraw_cooldown must be from 0 to 2592000 seconds',
      'profit_unlock_secs must be from 1 to 2592000 seconds',
    ])
    expect(parameterProblems({ ...p, keeper_fee_bps: 0, profit_unlock_secs: 2_592_000n, withdraw_cooldown: 0n, slash_rate_bps: 5_000, slash_timeout: 1n })).toEqual([])
    expect(parameterProblems({ ...p, keeper_fee_bps: 1.5, profit_unlock_secs: 2_592_001n, slash_timeout: 0n })).toEqual([
      'keeper_fee_bps must be an integer from 0 to 5000',
      'slash_timeout must be from 1 to 604800 seconds',
      'profit_unlock_secs must be from 1 to 2592000 seconds',
    ])
    expect(parameterProblems({ ...p, deposit_cap: -1n, max_draw_per_keeper: 0n })).toEqual(['deposit_cap must be more than 0', 'max_draw_per_keeper must be more than 0'])
  })

  it('parameters round-trip through the file\'s JSON and are listed for the output', () => {
    const p = PRESETS.testnet.parameters
    const json = parametersToJson(p)
    expect(json).toEqual({
      min_stake: '1000000000',
      slash_timeout: '3600',
      slash_rate_bps: 1000,
      deposit_cap: '100000000000000',
      withdraw_cooldown: '3600',
      max_draw_per_keeper: '100000000000',
      keeper_fee_bps: 1000,
      profit_unlock_secs: '3600',
    })
    expect(parametersFromJson(JSON.parse(JSON.stringify(json)) as typeof json)).toEqual(p)
    expect(differingParameters(p, { ...p, keeper_fee_bps: 500, profit_unlock_secs: 60n })).toEqual(['keeper_fee_bps', 'profit_unlock_secs'])
    expect(describeParameters(p).slice(-2)).toEqual(['keeper_fee_bps 1000', 'profit_unlock_secs 3600 s'])
  })
})
