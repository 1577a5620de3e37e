import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Keypair, StrKey } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseCli, UsageError, type CliOptions } from './options.js'

const C = (n: number) => StrKey.encodeContract(Buffer.alloc(32, n))
const VAULT = C(1)
const REGISTRY = C(2)
const USDC = C(3)
const ISSUER = StrKey.encodeEd25519PublicKey(Buffer.alloc(32, 4))

/** A deployments file (src/chain/deployments), the format every addresses file has. */
function deployments(over: Record<string, unknown> = {}) {
  return {
    network: { rpcUrl: 'http://127.0.0.1:8000/rpc', networkPassphrase: 'Standalone Network ; February 2017' },
    service: { vault: VAULT, registry: REGISTRY },
    assets: { usdc: { code: 'USDC', issuer: ISSUER, contract: USDC } },
    ...over,
  }
}

describe('audit command line', () => {
  let dir: string
  let world: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'audit-options-'))
    world = join(dir, 'world.json')
    writeFileSync(world, JSON.stringify(deployments()))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  const parse = (...argv: string[]) => parseCli(argv) as CliOptions
  const fails = (argv: string[], message: RegExp | typeof UsageError) => expect(() => parseCli(argv)).toThrow(message)

  it('reads the RPC URL, the vault, the registry and USDC from a world addresses file', () => {
    expect(parse('--addresses', world)).toMatchObject({ rpcUrl: 'http://127.0.0.1:8000/rpc', vault: VAULT, registry: REGISTRY, usdc: USDC, json: false, depositors: [] })
  })

  it('lets flags override the file, and works without one', () => {
    expect(parse('--addresses', world, '--rpc-url', 'https://rpc.example/soroban', '--vault', C(4))).toMatchObject({ rpcUrl: 'https://rpc.example/soroban', vault: C(4), registry: REGISTRY })
    const o = parse('--rpc-url', 'http://h/rpc', '--vault', VAULT, '--registry', REGISTRY, '--from-ledger', '1200', '--concurrency', '16', '--json')
    expect(o).toMatchObject({ fromLedger: 1200, concurrency: 16, json: true })
    expect(o.usdc).toBeUndefined()
    expect(o.watch).toBeUndefined()
  })

  it('takes watch settings, RPC headers and a depositors list', () => {
    const list = join(dir, 'depositors.txt')
    const a = Keypair.random().publicKey()
    writeFileSync(list, `# from the indexer\n${a}\n\n${C(9)}  # a contract depositor\n`)
    const o = parse('--addresses', world, '--watch', '--interval-ledgers', '12', '--metrics-port', '9464', '--rpc-header', 'Authorization: Bearer abc:def', '--depositors', list)
    expect(o.watch).toEqual({ intervalLedgers: 12, metrics: { port: 9464, host: '0.0.0.0' } })
    expect(o.rpcHeaders).toEqual({ Authorization: 'Bearer abc:def' })
    expect(o.depositors).toEqual([a, C(9)])
    expect(parse('--addresses', world, '--watch').watch).toEqual({ intervalLedgers: 1 })
  })

  it('answers --help', () => {
    expect(parseCli(['--help'])).toBe('help')
  })

  it('refuses bad input with one line naming the problem', () => {
    fails([], /give --addresses <file>, or --rpc-url with --vault and --registry/)
    fails(['--bogus'], UsageError)
    fails(['--addresses', join(dir, 'nope.json')], /--addresses .*nope\.json: cannot read the file \(ENOENT\)/)
    const bad = join(dir, 'bad.json')
    writeFileSync(bad, '{"service": ')
    fails(['--addresses', bad], /--addresses .*bad\.json: not JSON/)
    writeFileSync(bad, JSON.stringify({ network: { rpcUrl: 'http://h/rpc' } }))
    fails(['--addresses', bad], /no service section/)
    writeFileSync(bad, JSON.stringify(deployments({ service: { vault: 'GABC', registry: REGISTRY } })))
    fails(['--addresses', bad], /--addresses .*bad\.json: service\.vault must be a contract address/)
    const { network: _network, ...noNetwork } = deployments()
    writeFileSync(bad, JSON.stringify(noNetwork))
    fails(['--addresses', bad], /--addresses .*bad\.json: no network section \(rpcUrl, networkPassphrase\)/)
    writeFileSync(bad, JSON.stringify(deployments({ assets: { usdc: { contract: USDC } } })))
    fails(['--addresses', bad], /assets\.usdc\.code is missing; assets\.usdc\.issuer is missing/)
    fails(['--rpc-url', 'ftp://h', '--vault', VAULT, '--registry', REGISTRY], /must be http:\/\/ or https:\/\//)
    fails(['--rpc-url', 'http://h/rpc', '--vault', 'x', '--registry', REGISTRY], /--vault must be a contract address/)
    fails(['--rpc-url', 'http://h/rpc', '--vault', VAULT], /give --registry/)
    fails(['--addresses', world, '--from-ledger=-3'], /--from-ledger must be an integer from 1/)
    fails(['--addresses', world, '--concurrency', '2.5'], /--concurrency must be an integer/)
    fails(['--addresses', world, '--metrics-port', '9464'], /--metrics-port needs --watch/)
    fails(['--addresses', world, '--watch', '--metrics-host', '::'], /--metrics-host needs --metrics-port/)
    fails(['--addresses', world, '--watch', '--metrics-port', '70000'], /--metrics-port must be an integer from 0 to 65535/)
    fails(['--addresses', world, '--rpc-header', 'no colon'], /--rpc-header "no colon": expected 'Name: value'/)
    const list = join(dir, 'bad-depositors.txt')
    writeFileSync(list, `${Keypair.random().publicKey()}\nnot-an-address\n`)
    fails(['--addresses', world, '--depositors', list], /bad-depositors\.txt:2: "not-an-address" is not a G\.\.\. or C\.\.\. address/)
  })
})
