import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { keypairFor } from '../../src/world/seed.js'
import { configSchema } from '../src/config/schema.js'
import { dashboardConfig, keeperApiUrl, parseAddresses, readAddressesFile, UsageError } from './config.js'
import { createFaucet, faucetUnavailable } from './faucet.js'

const SANDBOX = 'Standalone Network ; February 2017'
const C = (c: string) => `C${c.repeat(55)}`

/** The parts of a world's addresses file the server reads (seed 5: its issuer derives from it). */
function addresses(over: Record<string, unknown> = {}) {
  return {
    version: 1,
    seed: '5',
    network: { rpcUrl: 'http://127.0.0.1:8000/rpc', networkPassphrase: SANDBOX, friendbotUrl: 'http://127.0.0.1:8000/friendbot' },
    service: { vault: C('A'), registry: C('B') },
    assets: { usdc: { code: 'USDC', issuer: keypairFor(5n, 'issuer').publicKey(), contract: C('D'), decimals: 7, price: '10000000' } },
    oracle: { contract: C('E'), decimals: 7 },
    ...over,
  }
}

describe('addresses file → config.json', () => {
  it('derives network, contracts, keeper APIs and the faucet URL in the shape the app validates', () => {
    const config = dashboardConfig(parseAddresses(addresses(), 'a.json'), {
      keeperApis: ['http://127.0.0.1:8080', 'http://127.0.0.1:8081'],
      faucetUrl: 'http://127.0.0.1:5173/sandbox/faucet',
    })
    expect(config).toEqual({
      network: { rpcUrl: 'http://127.0.0.1:8000/rpc', networkPassphrase: SANDBOX, friendbotUrl: 'http://127.0.0.1:8000/friendbot' },
      contracts: { vault: C('A'), registry: C('B'), usdc: C('D') },
      keeperApis: ['http://127.0.0.1:8080', 'http://127.0.0.1:8081'],
      faucetUrl: 'http://127.0.0.1:5173/sandbox/faucet',
    })
    expect(configSchema.safeParse(config).success).toBe(true)
  })

  it('leaves out friendbot and faucet when there are none', () => {
    const a = addresses({ network: { rpcUrl: 'https://soroban-testnet.stellar.org', networkPassphrase: 'Test SDF Network ; September 2015' } })
    const config = dashboardConfig(parseAddresses(a, 'a.json'))
    expect(config.network).toEqual({ rpcUrl: 'https://soroban-testnet.stellar.org', networkPassphrase: 'Test SDF Network ; September 2015' })
    expect(config.keeperApis).toEqual([])
    expect('faucetUrl' in config).toBe(false)
  })

  it('names what is wrong in the file, with its path', () => {
    expect(() => parseAddresses(addresses({ service: null }), 'x.json')).toThrow(/--addresses x\.json: no service section \(service\.vault and service\.registry\)/)
    expect(() => parseAddresses(addresses({ service: { vault: 'CNOPE', registry: C('B') } }), 'x.json')).toThrow(
      /service\.vault must be a contract address \(C…, 56 characters\)/,
    )
    const noUsdc = addresses({ assets: { blnd: {} } })
    expect(() => parseAddresses(noUsdc, 'x.json')).toThrow(/no assets\.usdc section/)
    expect(() => parseAddresses(addresses({ network: { rpcUrl: 'ftp://x', networkPassphrase: SANDBOX } }), 'x.json')).toThrow(
      /network\.rpcUrl must be an http\(s\) URL/,
    )
    expect(() => parseAddresses(addresses({ seed: 'abc' }), 'x.json')).toThrow(/x\.json: seed must be a decimal integer string/)
    expect(() => parseAddresses([], 'x.json')).toThrow(UsageError)
  })

  it('reports an unreadable or non-JSON file in words', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dashboard-config-'))
    expect(() => readAddressesFile(join(dir, 'missing.json'))).toThrow(/cannot read the file \(ENOENT\)/)
    writeFileSync(join(dir, 'bad.json'), '{ not json')
    expect(() => readAddressesFile(join(dir, 'bad.json'))).toThrow(/bad\.json: not JSON/)
    writeFileSync(join(dir, 'ok.json'), JSON.stringify(addresses()))
    expect(readAddressesFile(join(dir, 'ok.json')).service.vault).toBe(C('A'))
  })

  it('normalises keeper API URLs and refuses what is not one', () => {
    expect(keeperApiUrl('http://127.0.0.1:8080/')).toBe('http://127.0.0.1:8080')
    expect(() => keeperApiUrl('127.0.0.1:8080')).toThrow(/--keeper-api "127\.0\.0\.1:8080"|must be an http\(s\) URL/)
    expect(() => keeperApiUrl('not a url')).toThrow(/is not a URL/)
  })
})

describe('the sandbox faucet is offered only when it can pay', () => {
  it('on the sandbox with the seed that derives the USDC issuer', () => {
    const a = parseAddresses(addresses(), 'a.json')
    expect(faucetUnavailable(a)).toBeUndefined()
    expect(createFaucet(a)?.issuer).toBe(keypairFor(5n, 'issuer').publicKey())
  })
  it('not on another network, without a seed, or with a seed that does not match', () => {
    expect(faucetUnavailable(parseAddresses(addresses({ network: { rpcUrl: 'https://rpc.example', networkPassphrase: 'Test SDF Network ; September 2015' } }), 'a'))).toBe(
      'not the sandbox network',
    )
    const { seed: _seed, ...noSeed } = addresses()
    expect(faucetUnavailable(parseAddresses(noSeed, 'a'))).toBe('the addresses file has no seed')
    expect(faucetUnavailable(parseAddresses(addresses({ seed: '6' }), 'a'))).toMatch(/the seed 6 does not derive the file's USDC issuer/)
    expect(createFaucet(parseAddresses(addresses({ seed: '6' }), 'a'))).toBeUndefined()
  })
})
