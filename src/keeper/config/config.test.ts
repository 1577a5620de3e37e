import { Keypair, Networks, StrKey } from '@stellar/stellar-sdk'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MAX_LENDING_POOLS, TESTNET_DEFAULTS, parseConfig } from './config.js'
import { applyDeploymentsFile } from './deployments.js'
import { loadEnvironment, parseDotEnv, resolveSecretFiles } from './dotenv.js'
import { C1, C2, configProblems, minimalEnv } from '../../../test/keeper/configEnv.js'

const kp = Keypair.random()
const base = minimalEnv(kp)
const problems = configProblems

describe('parseConfig', () => {
  it('applies the documented defaults', () => {
    const c = parseConfig(base)
    expect(c.operator).toBe(kp.publicKey())
    expect(c.keeperName).toBe('service-keeper-1')
    expect(c.lendingPools).toEqual([])
    expect(c.usdcContract).toBeUndefined()
    expect(c.rpcUrl).toBe('https://soroban-testnet.stellar.org')
    expect(c.historyApiUrl).toBeUndefined()
    expect(c.watchAddresses).toEqual([])
    expect(c.borrowerHintsFile).toBeUndefined()
    expect(c.networkPassphrase).toBe(Networks.TESTNET)
    expect(c.pollIntervalSeconds).toBe(10)
    expect(c.minProfit).toBe(1.02)
    expect(c.apiPort).toBe(8080)
    expect(c.slippageBps).toBe(100)
    expect(c.rebalanceDriftBps).toBe(500)
    expect(c.rebalanceVault).toBeUndefined()
    expect(c.primaryDexRouter).toBeUndefined()
    expect(c.knownDepositors).toEqual([])
    expect(c.instructionLeeway).toBe(0)
    expect(c.logLevel).toBe('info')
    expect(c.inclusionFee).toBe(100)
    expect(c.feeStrategy).toEqual({ kind: 'fixed' })
    expect(c.maxFee).toBe(10_000_000)
    expect(c.feeBumpLedgers).toBe(2)
  })

  it('reports each missing required variable with the exact message', () => {
    expect(problems({})).toEqual([
      'missing required env: KEEPER_SECRET',
      'missing required env: REGISTRY_CONTRACT',
      'missing required env: VAULT_CONTRACT',
    ])
    expect(problems({ ...base, VAULT_CONTRACT: undefined })).toEqual(['missing required env: VAULT_CONTRACT'])
    expect(problems({ ...base, REGISTRY_CONTRACT: '  ' })).toEqual(['missing required env: REGISTRY_CONTRACT'])
  })

  it('reads FULL_SCAN_MINUTES: default 10, 0 (every cycle) to 1440', () => {
    expect(parseConfig(base).fullScanMinutes).toBe(10)
    expect(parseConfig({ ...base, FULL_SCAN_MINUTES: '0' }).fullScanMinutes).toBe(0)
    expect(parseConfig({ ...base, FULL_SCAN_MINUTES: '2.5' }).fullScanMinutes).toBe(2.5)
    expect(problems({ ...base, FULL_SCAN_MINUTES: '-1' })).toEqual(['FULL_SCAN_MINUTES must be a number in [0, 1440], got "-1"'])
    expect(problems({ ...base, FULL_SCAN_MINUTES: 'often' })).toEqual(['FULL_SCAN_MINUTES must be a number in [0, 1440], got "often"'])
  })

  it('bounds POLL_INTERVAL to [3, 300]', () => {
    expect(parseConfig({ ...base, POLL_INTERVAL: '3' }).pollIntervalSeconds).toBe(3)
    expect(parseConfig({ ...base, POLL_INTERVAL: '300' }).pollIntervalSeconds).toBe(300)
    expect(parseConfig({ ...base, POLL_INTERVAL: '4.5' }).pollIntervalSeconds).toBe(4.5)
    expect(problems({ ...base, POLL_INTERVAL: '2' })).toEqual(['POLL_INTERVAL must be a number in [3, 300], got "2"'])
    expect(problems({ ...base, POLL_INTERVAL: '301' })).toEqual(['POLL_INTERVAL must be a number in [3, 300], got "301"'])
    expect(problems({ ...base, POLL_INTERVAL: 'ten' })).toEqual(['POLL_INTERVAL must be a number in [3, 300], got "ten"'])
  })

  it('requires MIN_PROFIT > 0', () => {
    expect(parseConfig({ ...base, MIN_PROFIT: '1.5' }).minProfit).toBe(1.5)
    expect(problems({ ...base, MIN_PROFIT: '0' })).toEqual(['MIN_PROFIT must be a number > 0, got "0"'])
    expect(problems({ ...base, MIN_PROFIT: '-1' })).toEqual(['MIN_PROFIT must be a number > 0, got "-1"'])
  })

  it('reads KEEPER_BOND as a USDC amount with 7 decimals, 0 when unset', () => {
    expect(parseConfig(base).keeperBond).toBe(0n)
    expect(parseConfig({ ...base, KEEPER_BOND: '1000' }).keeperBond).toBe(10_000_000_000n)
    expect(parseConfig({ ...base, KEEPER_BOND: '2500.5' }).keeperBond).toBe(25_005_000_000n)
    expect(problems({ ...base, KEEPER_BOND: '1,000' })).toEqual([
      'KEEPER_BOND must be a USDC amount (digits and at most 7 decimals, e.g. 1000 or 2500.5), got "1,000"',
    ])
    expect(problems({ ...base, KEEPER_BOND: '-5' })).toHaveLength(1)
    expect(problems({ ...base, KEEPER_BOND: '1.12345678' })).toHaveLength(1)
  })

  it('reads the profit basis and the Comet pools', () => {
    expect(parseConfig(base)).toMatchObject({ profitBasis: 'oracle', cometPools: [] })
    const pool = 'CA3D5KRYM6CB7OWQ6TWYRR3Z4T7GNZLKERYNZGGA5SOAOPIFY6YQGAXE'
    expect(parseConfig({ ...base, PROFIT_BASIS: 'executable', COMET_POOLS: `${pool}, ${pool}` })).toMatchObject({ profitBasis: 'executable', cometPools: [pool] })
    expect(problems({ ...base, PROFIT_BASIS: 'dex' })).toEqual(['PROFIT_BASIS must be oracle or executable, got "dex"'])
    expect(problems({ ...base, COMET_POOLS: 'GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H' })).toEqual([
      'COMET_POOLS entries must be contract addresses (C..., 56 characters), got "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H"',
    ])
  })

  it('bounds the basis-point settings and the port', () => {
    expect(parseConfig({ ...base, SLIPPAGE_BPS: '0', REBALANCE_DRIFT_BPS: '10000' })).toMatchObject({
      slippageBps: 0,
      rebalanceDriftBps: 10_000,
    })
    expect(problems({ ...base, SLIPPAGE_BPS: '10001' })).toEqual(['SLIPPAGE_BPS must be an integer in [0, 10000], got "10001"'])
    expect(problems({ ...base, REBALANCE_DRIFT_BPS: '-1' })).toEqual([
      'REBALANCE_DRIFT_BPS must be an integer in [0, 10000], got "-1"',
    ])
    expect(problems({ ...base, SLIPPAGE_BPS: '1.5' })).toEqual(['SLIPPAGE_BPS must be an integer in [0, 10000], got "1.5"'])
    expect(problems({ ...base, API_PORT: '70000' })).toEqual(['API_PORT must be an integer in [0, 65535], got "70000"'])
    expect(parseConfig({ ...base, API_PORT: '0' }).apiPort).toBe(0)
    expect(parseConfig({ ...base, RPC_INSTRUCTION_LEEWAY: '5000000' }).instructionLeeway).toBe(5_000_000)
    expect(problems({ ...base, RPC_INSTRUCTION_LEEWAY: '-5' })).toEqual([
      'RPC_INSTRUCTION_LEEWAY must be an integer in [0, 100000000], got "-5"',
    ])
    expect(problems({ ...base, LOG_LEVEL: 'loud' })).toEqual([
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    ])
  })

  it('checks addresses, URLs and the secret without echoing it', () => {
    const secretProblems = problems({ ...base, KEEPER_SECRET: 'SNOTASECRET' })
    expect(secretProblems).toEqual(['KEEPER_SECRET must be a Stellar secret seed (S..., 56 characters)'])
    expect(problems({ ...base, VAULT_CONTRACT: kp.publicKey() })).toEqual([
      `VAULT_CONTRACT must be a contract address (C..., 56 characters), got "${kp.publicKey()}"`,
    ])
    expect(problems({ ...base, LENDING_POOL: 'pool' })).toEqual(['LENDING_POOL must be a contract address (C..., 56 characters), got "pool"'])
    expect(problems({ ...base, CONTRACT_RPC: 'ftp://x' })).toEqual(['CONTRACT_RPC must be an http(s) URL, got "ftp://x"'])
    expect(problems({ ...base, KNOWN_DEPOSITORS: `${kp.publicKey()},nobody` })).toEqual([
      'KNOWN_DEPOSITORS entries must be Stellar addresses (G... or C...), got "nobody"',
    ])
    // Several problems are all reported.
    expect(problems({ ...base, POLL_INTERVAL: '1', MIN_PROFIT: '0' })).toHaveLength(2)
  })

  it('reads optional settings', () => {
    const g = Keypair.random().publicKey()
    const c = parseConfig({
      ...base,
      KEEPER_NAME: 'k2',
      LENDING_POOL: C1,
      USDC_CONTRACT: '',
      PRIMARY_DEX_ROUTER: C2,
      REBALANCE_VAULT: C1,
      KNOWN_DEPOSITORS: ` ${g}, ${C1} ${g} `,
      CONTRACT_RPC: 'http://127.0.0.1:8000/rpc',
      NETWORK_PASSPHRASE: 'Sandbox',
    })
    expect(c).toMatchObject({ keeperName: 'k2', lendingPools: [C1], usdcContract: undefined, primaryDexRouter: C2 })
    expect(c.knownDepositors).toEqual([g, C1])
    expect(c.rpcUrl).toBe('http://127.0.0.1:8000/rpc')
    expect(c.networkPassphrase).toBe('Sandbox')
  })
})

describe('LENDING_POOLS', () => {
  it('reads a list of pools in order, deduplicated; LENDING_POOL is a list of one', () => {
    expect(parseConfig({ ...base, LENDING_POOLS: `${C1}, ${C2} ${C1}` }).lendingPools).toEqual([C1, C2])
    expect(parseConfig({ ...base, LENDING_POOL: C2 }).lendingPools).toEqual([C2])
    expect(parseConfig({ ...base, LENDING_POOLS: '' }).lendingPools).toEqual([])
  })

  it('names the setting and the value of each problem in one line', () => {
    expect(problems({ ...base, LENDING_POOLS: `${C1},nope` })).toEqual(['LENDING_POOLS entries must be contract addresses (C..., 56 characters), got "nope"'])
    expect(problems({ ...base, LENDING_POOL: C1, LENDING_POOLS: C2 })).toEqual([
      `LENDING_POOL and LENDING_POOLS are both set: set LENDING_POOLS only (a list), got LENDING_POOL "${C1}" and LENDING_POOLS "${C2}"`,
    ])
    const many = Array.from({ length: MAX_LENDING_POOLS + 1 }, (_, i) => StrKey.encodeContract(Buffer.alloc(32, i + 1)))
    expect(problems({ ...base, LENDING_POOLS: many.join(',') })).toEqual([`LENDING_POOLS names at most ${MAX_LENDING_POOLS} pools, got ${MAX_LENDING_POOLS + 1}`])
  })
})

describe('fee settings', () => {
  it('reads INCLUSION_FEE, FEE_STRATEGY, MAX_FEE and FEE_BUMP_LEDGERS', () => {
    expect(parseConfig({ ...base, INCLUSION_FEE: '1000', FEE_STRATEGY: 'feestats:p90', MAX_FEE: '50000', FEE_BUMP_LEDGERS: '0' })).toMatchObject({
      inclusionFee: 1000,
      feeStrategy: { kind: 'feestats', percentile: 'p90' },
      maxFee: 50_000,
      feeBumpLedgers: 0,
    })
    expect(parseConfig({ ...base, FEE_STRATEGY: ' Profit:250 ' }).feeStrategy).toEqual({ kind: 'profit', bps: 250 })
    expect(parseConfig({ ...base, FEE_STRATEGY: 'feestats:max' }).feeStrategy).toEqual({ kind: 'feestats', percentile: 'max' })
    for (const p of ['p10', 'p20', 'p30', 'p40', 'p50', 'p60', 'p70', 'p80', 'p95', 'p99']) {
      expect(parseConfig({ ...base, FEE_STRATEGY: `feestats:${p}` }).feeStrategy).toEqual({ kind: 'feestats', percentile: p })
    }
    expect(parseConfig({ ...base, FEE_STRATEGY: 'profit:1' }).feeStrategy).toEqual({ kind: 'profit', bps: 1 })
    expect(parseConfig({ ...base, FEE_STRATEGY: 'profit:10000' }).feeStrategy).toEqual({ kind: 'profit', bps: 10_000 })
    // MAX_FEE equal to INCLUSION_FEE: every bid is that.
    expect(parseConfig({ ...base, INCLUSION_FEE: '5000', MAX_FEE: '5000' })).toMatchObject({ inclusionFee: 5000, maxFee: 5000 })
    expect(parseConfig({ ...base, FEE_BUMP_LEDGERS: '3' }).feeBumpLedgers).toBe(3)
  })

  it('refuses INCLUSION_FEE below the network minimum, fractional or not a number', () => {
    const line = (v: string) => `INCLUSION_FEE must be an integer in [100, 4294967295] (stroops per operation; 100 is the network minimum), got "${v}"`
    for (const v of ['99', '0', '-100', '150.5', 'cheap', '4294967296']) expect(problems({ ...base, INCLUSION_FEE: v })).toEqual([line(v)])
  })

  it('refuses MAX_FEE out of range, and below INCLUSION_FEE', () => {
    for (const v of ['99', '1e12', '2.5', 'lots']) {
      expect(problems({ ...base, MAX_FEE: v })).toEqual([`MAX_FEE must be an integer in [100, 4294967295] (stroops per operation), got "${v}"`])
    }
    expect(problems({ ...base, INCLUSION_FEE: '5000', MAX_FEE: '1000' })).toEqual(['MAX_FEE must be at least INCLUSION_FEE (5000), got "1000"'])
    expect(problems({ ...base, INCLUSION_FEE: '20000000' })).toEqual(['MAX_FEE must be at least INCLUSION_FEE (20000000), got "10000000" (the default)'])
  })

  it('refuses an unknown FEE_STRATEGY, percentile or share', () => {
    const line = (v: string) =>
      `FEE_STRATEGY must be fixed, feestats:pNN (p10, p20, p30, p40, p50, p60, p70, p80, p90, p95, p99 or max) or profit:BPS (BPS an integer in [1, 10000]), got "${v}"`
    for (const v of ['surge', 'feestats', 'feestats:p25', 'feestats:min', 'feestats:mode', 'profit', 'profit:0', 'profit:10001', 'profit:1.5', 'profit:-5', 'fixed:100']) {
      expect(problems({ ...base, FEE_STRATEGY: v })).toEqual([line(v)])
    }
  })

  it('refuses FEE_BUMP_LEDGERS past the queue lifetime, negative or fractional', () => {
    const line = (v: string) => `FEE_BUMP_LEDGERS must be an integer in [0, 3] (0 disables; the network's queue drops a transaction not included within 4 ledgers), got "${v}"`
    for (const v of ['4', '-1', '1.5', 'soon']) expect(problems({ ...base, FEE_BUMP_LEDGERS: v })).toEqual([line(v)])
  })

  it('reports every fee problem with the others', () => {
    expect(problems({ ...base, INCLUSION_FEE: '1', FEE_STRATEGY: 'x', FEE_BUMP_LEDGERS: '9', POLL_INTERVAL: '1' })).toHaveLength(4)
  })
})

describe('borrower discovery variables', () => {
  it('reads WATCH_ADDRESSES, BORROWER_HINTS_FILE and HISTORY_API_URL, and names a bad entry', () => {
    const g = Keypair.random().publicKey()
    const c = parseConfig({ ...base, WATCH_ADDRESSES: `${g}, ${C1} ${g}`, BORROWER_HINTS_FILE: ' /var/lib/keeper/borrowers.txt ', HISTORY_API_URL: 'https://archive.example.org/rpc' })
    expect(c.watchAddresses).toEqual([g, C1])
    expect(c.borrowerHintsFile).toBe('/var/lib/keeper/borrowers.txt')
    expect(c.historyApiUrl).toBe('https://archive.example.org/rpc')
    expect(problems({ ...base, WATCH_ADDRESSES: 'GNOPE' })).toEqual(['WATCH_ADDRESSES entries must be Stellar addresses (G... or C...), got "GNOPE"'])
    expect(problems({ ...base, HISTORY_API_URL: 'ftp://x' })).toEqual(['HISTORY_API_URL must be an http(s) URL of a Stellar RPC, got "ftp://x"'])
  })
})

describe('DEPLOYMENTS_FILE', () => {
  const usdc = 'CDLZFC3SYJYDZT7K67VZ75HPJVIEUVNIXF47ZG2FB2RMQQVU2HHGCYSC'
  const file = (json: unknown) => {
    const path = join(mkdtempSync(join(tmpdir(), 'keeper-deployments-')), 'testnet.json')
    writeFileSync(path, typeof json === 'string' ? json : JSON.stringify(json))
    return path
  }
  const deployment = {
    network: { name: 'testnet', rpcUrl: 'http://127.0.0.1:8000/rpc', networkPassphrase: 'Test SDF Network ; September 2015' },
    service: { vault: C2, registry: C1 },
    assets: { usdc: { code: 'USDC', issuer: Keypair.random().publicKey(), contract: usdc } },
  }

  it('supplies the contracts, USDC, RPC URL and passphrase; the environment wins', () => {
    const env = applyDeploymentsFile({ KEEPER_SECRET: kp.secret(), DEPLOYMENTS_FILE: file(deployment), CONTRACT_RPC: 'https://rpc.example.org' })
    const c = parseConfig(env)
    expect(c).toMatchObject({ vaultContract: C2, registryContract: C1, usdcContract: usdc, rpcUrl: 'https://rpc.example.org' })
    expect(c.networkPassphrase).toBe('Test SDF Network ; September 2015')
  })

  it('names the file and the field of each problem, and an unreadable file', () => {
    const bad = { ...deployment, service: { vault: 'nope', registry: C1 } }
    expect(() => applyDeploymentsFile({ DEPLOYMENTS_FILE: file(bad) })).toThrow(/DEPLOYMENTS_FILE .*testnet\.json: service\.vault must be a contract address/)
    expect(() => applyDeploymentsFile({ DEPLOYMENTS_FILE: file('{') })).toThrow(/not JSON/)
    expect(() => applyDeploymentsFile({ DEPLOYMENTS_FILE: '/nonexistent/d.json' })).toThrow(/DEPLOYMENTS_FILE \/nonexistent\/d\.json: cannot read the file \(ENOENT\)/)
  })
})

describe('.env loading', () => {
  it('parses KEY=value lines, quotes and comments', () => {
    expect(parseDotEnv('# c\nA=1\nexport B="two words"\nC=\'x y\'\nD=v # trailing\nbad line\n')).toEqual({
      A: '1',
      B: 'two words',
      C: 'x y',
      D: 'v',
    })
  })

  it('lets the environment win over .env and tolerates a missing file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keeper-env-'))
    expect(loadEnvironment(dir, { X: '1' })).toEqual({ X: '1' })
    writeFileSync(join(dir, '.env'), 'POLL_INTERVAL=5\nKEEPER_NAME=from-file\n')
    expect(loadEnvironment(dir, { KEEPER_NAME: 'from-env' })).toEqual({ POLL_INTERVAL: '5', KEEPER_NAME: 'from-env' })
  })

  it('reads multi-line and backtick-quoted values as dotenv does', () => {
    expect(parseDotEnv('K="line1\nline2"\nM=`a b`\n')).toEqual({ K: 'line1\nline2', M: 'a b' })
  })

  it('refuses a .env that exists but cannot be read, naming the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keeper-env-'))
    mkdirSync(join(dir, '.env')) // a directory: reading it fails with EISDIR
    expect(() => loadEnvironment(dir, {})).toThrow(/cannot read .*\.env \(EISDIR\)/)
  })

  it('reads KEEPER_SECRET from KEEPER_SECRET_FILE when it is not set directly', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keeper-secret-'))
    const file = join(dir, 'secret')
    writeFileSync(file, `${kp.secret()}\n`)
    expect(resolveSecretFiles({ KEEPER_SECRET_FILE: file }).KEEPER_SECRET).toBe(kp.secret())
    expect(resolveSecretFiles({ KEEPER_SECRET: 'direct', KEEPER_SECRET_FILE: file }).KEEPER_SECRET).toBe('direct')
    const missing = resolveSecretFiles({ KEEPER_SECRET_FILE: join(dir, 'nope'), REGISTRY_CONTRACT: C1, VAULT_CONTRACT: C2 })
    expect(problems(missing)).toEqual(['missing required env: KEEPER_SECRET'])
  })
})
