/**
 * What `npm run deploy` refuses before sending anything (exit 2): the public network without
 * --allow-mainnet, --network testnet on another network, a file whose network is not the RPC's;
 * how a failed step ends (exit 1, the step named, how to resume); and a record whose chain was
 * reset under it (every step checked, the missing ones done again at the same addresses).
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Keypair, Networks, StrKey } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../sandbox/ts/launch.js'
import { readDeployFile } from './index.js'
import { deployInProcess, deployProcess } from './testing.js'

describe('npm run deploy: refusals, failures, a record without its chain', () => {
  let local: Sandbox
  let mainnet: Sandbox
  let dir: string
  let localFile: string

  beforeAll(async () => {
    ;[local, mainnet] = await Promise.all([startSandbox({ instant: true }), startSandbox({ instant: true, networkPassphrase: Networks.PUBLIC })])
    dir = mkdtempSync(join(tmpdir(), 'deploy-refusals-'))
    localFile = join(dir, 'local.json')
    const done = await deployInProcess(['--network', 'local', '--rpc-url', local.rpcUrl, '--out', localFile])
    expect(done.stderr).toBe('')
    expect(done.code).toBe(0)
  })
  afterAll(async () => {
    await Promise.all([local?.stop(), mainnet?.stop()])
    rmSync(dir, { recursive: true, force: true })
  })

  it('a node on the public network passphrase without --allow-mainnet, before writing or sending anything', async () => {
    const out = join(dir, 'mainnet', 'local.json')
    const r = await deployProcess(['--network', 'local', '--preset', 'testnet', '--rpc-url', mainnet.rpcUrl, '--out', out])
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(
      `deploy: the RPC at ${mainnet.rpcUrl} is on the public network ("Public Global Stellar Network ; September 2015"): refusing to deploy there without --allow-mainnet\n`,
    )
    expect(existsSync(join(dir, 'mainnet'))).toBe(false)
    // --allow-mainnet passes the guard; there, no USDC is created and no deployer is made up.
    const noUsdc = await deployInProcess(['--network', 'local', '--rpc-url', mainnet.rpcUrl, '--out', out, '--allow-mainnet'])
    expect(noUsdc.code).toBe(2)
    expect(noUsdc.stderr).toMatch(/give --usdc C\.\.\. \(the USDC Stellar Asset Contract of the network at .*\): the preset has none for it/)
    const usdc = StrKey.encodeContract(Buffer.alloc(32, 9))
    const noKey = await deployInProcess(['--network', 'local', '--rpc-url', mainnet.rpcUrl, '--out', out, '--allow-mainnet', '--usdc', usdc])
    expect(noKey.code).toBe(2)
    expect(noKey.stderr).toMatch(/give the deployer's secret key: --secret-file FILE or the DEPLOYER_SECRET variable \(a deployer is created only off the public network\)/)
    expect(existsSync(join(dir, 'mainnet'))).toBe(false)
    // With a key and a USDC it goes on to the steps (here the USDC does not exist: a step failure).
    const through = await deployInProcess(['--network', 'local', '--rpc-url', mainnet.rpcUrl, '--out', out, '--allow-mainnet', '--usdc', usdc], {
      DEPLOYER_SECRET: Keypair.random().secret(),
    })
    expect(through.code).toBe(1)
    expect(through.stderr).toMatch(/^deploy: step usdc failed: the USDC contract C[A-Z2-7]{55} does not exist on this network\n/)
  })

  it('a file recorded on another network than the RPC\'s, and --network testnet on a node that is not the testnet', async () => {
    const key = Keypair.random()
    const r = await deployInProcess(['--network', 'local', '--rpc-url', mainnet.rpcUrl, '--out', localFile, '--allow-mainnet'], { DEPLOYER_SECRET: key.secret() })
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(
      `deploy: ${localFile} records a deployment on "Standalone Network ; February 2017", but the RPC at ${mainnet.rpcUrl} is on "Public Global Stellar Network ; September 2015": give the RPC of the file's network with --rpc-url, or another --out for this network\n`,
    )
    const testnet = await deployInProcess(['--network', 'testnet', '--rpc-url', local.rpcUrl, '--out', join(dir, 'testnet.json')])
    expect(testnet.code).toBe(2)
    expect(testnet.stderr).toMatch(/--network testnet, but the RPC at .* is on "Standalone Network ; February 2017", not the testnet \("Test SDF Network ; September 2015"\)/)
    const named = await deployInProcess(['--network', 'testnet', '--out', localFile])
    expect(named.code).toBe(2)
    expect(named.stderr).toMatch(/local\.json is a deployment on the local network, not testnet: give --network local, or another --out/)
  })

  it('a file that is not a deployment record, and a deployer key that is not the file\'s', async () => {
    const world = join(dir, 'world.json')
    writeFileSync(world, JSON.stringify({ network: { rpcUrl: local.rpcUrl, networkPassphrase: local.networkPassphrase } }))
    const r = await deployInProcess(['--network', 'local', '--rpc-url', local.rpcUrl, '--out', world])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/world\.json exists and was not written by npm run deploy \(no deploy section\); move it away or choose another --out/)
    const other = Keypair.random()
    const wrongKey = await deployInProcess(['--network', 'local', '--rpc-url', local.rpcUrl, '--out', localFile], { DEPLOYER_SECRET: other.secret() })
    expect(wrongKey.code).toBe(2)
    expect(wrongKey.stderr).toMatch(new RegExp(`was deployed by G[A-Z2-7]{55}, but the key from DEPLOYER_SECRET is ${other.publicKey()}: give that deployer's key`))
    expect(wrongKey.stderr).not.toContain(other.secret())
  })

  it('a USDC that is not on the network: exit 1, the step named, resumable with a corrected flag only by another file', async () => {
    const out = join(dir, 'nousdc', 'local.json')
    const missing = StrKey.encodeContract(Buffer.alloc(32, 9))
    const r = await deployInProcess(['--network', 'local', '--rpc-url', local.rpcUrl, '--out', out, '--usdc', missing])
    expect(r.code).toBe(1)
    expect(r.stderr).toBe(
      `deploy: step usdc failed: the USDC contract ${missing} does not exist on this network\n` +
        `deploy: the steps done so far are recorded in ${out}; rerun the same command to resume from step usdc\n`,
    )
    const partial = readDeployFile(out)!
    expect(partial.deploy).toMatchObject({ status: 'in-progress', usdcSource: 'flag', usdc: missing })
    expect(Object.keys(partial.deploy.steps)).toEqual(['deployer'])
    expect(readdirSync(join(dir, 'nousdc')).sort()).toEqual(['local.deployer.secret', 'local.json'])
    // The file keeps its USDC: another one is a conflict, not a silent switch.
    const other = await deployInProcess(['--network', 'local', '--rpc-url', local.rpcUrl, '--out', out, '--usdc', StrKey.encodeContract(Buffer.alloc(32, 8))])
    expect(other.code).toBe(2)
    expect(other.stderr).toMatch(/was started with other settings: --usdc C[A-Z2-7]{55}, but the file's USDC is C[A-Z2-7]{55}/)
  })

  it('a file\'s record without the chain behind it: on a node reset under it, every step is done again at the same addresses', async () => {
    const out = join(dir, 'reset', 'local.json')
    const { id } = await local.call<{ id: number }>('sandbox_snapshot')
    const first = await deployInProcess(['--network', 'local', '--rpc-url', local.rpcUrl, '--out', out])
    expect(first.code).toBe(0)
    const before = readDeployFile(out)!
    await local.call('sandbox_revert', { id })
    const again = await deployInProcess(['--network', 'local', '--rpc-url', local.rpcUrl, '--out', out])
    expect(again.stderr).toBe('')
    expect(again.code).toBe(0)
    // The code was uploaded before the snapshot (by beforeAll's deployment): only the uploads survive.
    const redone = [...again.stdout.matchAll(/\[\d+\/11\] ([a-z-]+): recorded as done, but the chain does not show it: doing it again/g)].map((m) => m[1])
    expect(redone).toEqual(['deployer', 'usdc', 'deploy-vault', 'deploy-registry', 'link-vault', 'link-registry'])
    expect(first.stdout).toMatch(/this run sent 5 transaction\(s\)/)
    expect(again.stdout).toMatch(/this run sent 5 transaction\(s\)/)
    const after = readDeployFile(out)!
    expect(after.service).toEqual(before.service)
    expect(after.assets).toEqual(before.assets)
    expect(after.deploy.transactions).toHaveLength(10)
  })
})
