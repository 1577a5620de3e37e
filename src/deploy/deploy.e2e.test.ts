/**
 * `npm run deploy -- --network local --preset testnet` against a sandbox node: a run killed after
 * a middle step, another killed after a deployment landed but before it was recorded, a rerun
 * that completes without a second contract, a rerun that sends nothing; the contracts hold the
 * preset's parameters; the keeper, the auditor and the dashboard accept the file.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { Asset, Keypair, Operation, StrKey } from '@stellar/stellar-sdk'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dashboardConfig, readAddressesFile } from '../../dashboard/server/config.js'
import { faucetUnavailable } from '../../dashboard/server/faucet.js'
import { REPO_ROOT, startSandbox, type Sandbox } from '../../sandbox/ts/launch.js'
import { runCli as runAudit } from '../audit/cli/run.js'
import { parseCli as parseAuditCli, type CliOptions } from '../audit/cli/options.js'
import { addr, createChain, fundAccount, read, submit, toKeeperInfo, toRegistryConfig, toVaultConfig, type Chain } from '../chain/index.js'
import { wasmHashOf } from '../chain/deployOnce.js'
import { contractIdFor } from '../chain/ledgerEntries.js'
import { applyDeploymentsFile, parseConfig } from '../keeper/config/index.js'
import { startKeeperRuntime } from '../keeper/runtime.js'
import { deployerSecretPath, localUsdcIssuer, PRESETS, readDeployFile, serviceSalt, type DeployFile } from './index.js'
import { deployInProcess, deployProcess, transactionsOf, type HistoryEntry } from './testing.js'

describe('npm run deploy on the sandbox', () => {
  let sandbox: Sandbox
  let chain: Chain
  let dir: string
  let file: string
  let args: string[]
  let deployed: DeployFile
  let deployer: Keypair

  beforeAll(async () => {
    sandbox = await startSandbox({ instant: true })
    chain = createChain({ rpcUrl: sandbox.rpcUrl, networkPassphrase: sandbox.networkPassphrase, friendbotUrl: sandbox.friendbotUrl })
    dir = mkdtempSync(join(tmpdir(), 'deploy-e2e-'))
    file = join(dir, 'deployments', 'local.json')
    args = ['--network', 'local', '--preset', 'testnet', '--rpc-url', sandbox.rpcUrl, '--out', file]
  })
  afterAll(async () => {
    await sandbox?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  const history = (): Promise<HistoryEntry[]> => transactionsOf(sandbox.server, sandbox.networkPassphrase, deployer.publicKey())

  it('survives a crash after a step and one between a landed deployment and its record, without a second contract', async () => {
    // 1. Killed after upload-registry was recorded.
    const first = await deployProcess(args, { DEPLOY_CRASH_AT: 'after:upload-registry' })
    expect(first.signal).toBe('SIGKILL')
    expect(first.stdout).toMatch(/no deployer key given .*created deployer G[A-Z2-7]{55} for this local network, to be funded by friendbot; its secret is in .*local\.deployer\.secret/)
    expect(first.stdout).toMatch(/\[4\/11\] upload-executor: uploaded executor code [0-9a-f]{64} \(tx /)
    expect(first.stdout).toMatch(/\[5\/11\] upload-registry: uploaded registry code [0-9a-f]{64} \(tx /)
    deployer = Keypair.fromSecret(readFileSync(deployerSecretPath(file), 'utf8').trim())
    expect(first.stdout + first.stderr).not.toContain(deployer.secret())
    const partial = readDeployFile(file)!
    expect(partial.deploy.status).toBe('in-progress')
    expect(Object.keys(partial.deploy.steps)).toEqual(['deployer', 'usdc', 'upload-vault', 'upload-executor', 'upload-registry'])
    expect(partial.service).toBeUndefined()
    // Until it is complete, the keeper refuses the file.
    expect(() => parseConfig(applyDeploymentsFile({ KEEPER_SECRET: Keypair.random().secret(), DEPLOYMENTS_FILE: file }))).toThrow(/DEPLOYMENTS_FILE .*local\.json: no service section/)

    // 2. Killed after the registry's deployment landed, before the file knew.
    const second = await deployProcess(args, { DEPLOY_CRASH_AT: 'sent:deploy-registry' })
    expect(second.signal).toBe('SIGKILL')
    expect(second.stdout).toMatch(/resuming \(5 of 11 steps recorded\)/)
    expect(second.stdout).toMatch(/\[3\/11\] upload-vault: vault code [0-9a-f]{64} is on the ledger\n/)
    expect(second.stdout).toMatch(/\[4\/11\] upload-executor: executor code [0-9a-f]{64} is on the ledger\n/)
    expect(second.stdout).toMatch(/\[6\/11\] deploy-vault: deployed the vault at C[A-Z2-7]{55} \(tx /)
    expect(Object.keys(readDeployFile(file)!.deploy.steps)).not.toContain('deploy-registry')

    // 3. The rerun finds the registry at its address and finishes.
    const third = await deployProcess(args)
    expect(third.stderr).toBe('')
    expect(third.code).toBe(0)
    expect(third.stdout).toMatch(/\[7\/11\] deploy-registry: registry C[A-Z2-7]{55} exists with the planned parameters \(found on the chain, not recorded yet\)/)
    // No pool or router given: the venues are left unset, nothing sent for them.
    expect(third.stdout).toMatch(/\[10\/11\] set-venues: no lending pool or DEX router given: the registry has no venues/)
    expect(third.stdout).toMatch(/this run sent 2 transaction\(s\)/)
    deployed = readDeployFile(file)!
    expect(deployed.deploy.status).toBe('complete')

    // Exactly one of everything: one asset contract, three uploads, two contracts, two links.
    const txs = await history()
    expect(txs.every((t) => t.status === 'SUCCESS')).toBe(true)
    expect(txs.map((t) => t.ops.join('+'))).toEqual(['sac', 'upload', 'upload', 'upload', 'create', 'create', 'invoke:set_registry', 'invoke:set_vault'])
    const salted = (c: 'vault' | 'registry') => contractIdFor(sandbox.networkPassphrase, deployer.publicKey(), serviceSalt('service', c))
    expect(deployed.service).toEqual({ vault: salted('vault'), registry: salted('registry') })
    const recordedHashes = deployed.deploy.transactions.map((t) => t.hash)
    expect(recordedHashes).toHaveLength(7) // the registry's deployment landed unrecorded
    expect(txs.filter((t) => recordedHashes.includes(t.hash))).toHaveLength(7)
  }, 180_000)

  it('deploys the preset\'s parameters, the created USDC, linked both ways', async () => {
    const { vault, registry } = deployed.service!
    const usdc = deployed.assets!.usdc!
    const p = PRESETS.testnet.parameters
    expect(toVaultConfig(await read(chain, vault, 'get_config'))).toEqual({
      depositCap: p.deposit_cap,
      withdrawCooldown: Number(p.withdraw_cooldown),
      maxDrawPerKeeper: p.max_draw_per_keeper,
      keeperFeeBps: 1_000,
      profitUnlockSecs: 3_600,
    })
    // The registry deploys the executor code the deployment uploaded.
    const executorWasm = wasmHashOf(readFileSync(join(REPO_ROOT, 'target', 'wasm', 'executor.wasm')))
    expect(deployed.deploy.wasm.executor).toBe(executorWasm)
    expect(toRegistryConfig(await read(chain, registry, 'get_config'))).toEqual({
      minStake: p.min_stake,
      slashTimeout: Number(p.slash_timeout),
      slashRateBps: p.slash_rate_bps,
      usdcToken: usdc.contract,
      executorWasm,
    })
    expect(await read(chain, registry, 'get_venues')).toEqual([])
    expect(await read(chain, vault, 'get_usdc')).toBe(usdc.contract)
    expect(await read(chain, vault, 'get_registry')).toBe(registry)
    expect(await read(chain, registry, 'get_vault')).toBe(vault)
    expect(usdc).toMatchObject({ code: 'USDC', issuer: localUsdcIssuer(deployer).publicKey(), contract: new Asset('USDC', localUsdcIssuer(deployer).publicKey()).contractId(sandbox.networkPassphrase) })
    expect(await read(chain, usdc.contract, 'name')).toBe(`USDC:${usdc.issuer}`)
    expect(deployed.network).toEqual({ name: 'local', rpcUrl: sandbox.rpcUrl, networkPassphrase: sandbox.networkPassphrase, friendbotUrl: sandbox.friendbotUrl })
    expect(deployed.deploy).toMatchObject({
      preset: 'testnet',
      version: 2,
      parameters: {
        min_stake: '1000000000',
        slash_timeout: '3600',
        slash_rate_bps: 1000,
        deposit_cap: '100000000000000',
        withdraw_cooldown: '3600',
        max_draw_per_keeper: '100000000000',
        keeper_fee_bps: 1000,
        profit_unlock_secs: '3600',
      },
      venues: { routers: [] },
      deployer: deployer.publicKey(),
      usdcSource: 'created',
      salt: 'service',
    })
  })

  it('sends nothing and changes nothing when run again on a complete deployment', async () => {
    const before = readFileSync(file, 'utf8')
    const seq = (await chain.server.getAccount(deployer.publicKey())).sequenceNumber()
    const txs = (await history()).length
    const again = await deployProcess(args)
    expect(again.stderr).toBe('')
    expect(again.code).toBe(0)
    expect(again.stdout).toMatch(/already complete and verified on the chain; nothing sent\n/)
    expect(again.stdout).toContain(`vault     ${deployed.service!.vault}`)
    expect(again.stdout).toContain(`registry  ${deployed.service!.registry}`)
    expect((await chain.server.getAccount(deployer.publicKey())).sequenceNumber()).toBe(seq)
    expect(await history()).toHaveLength(txs)
    expect(readFileSync(file, 'utf8')).toBe(before)

    // Without the deployer's key (a copy of the file without the secret next to it) it still verifies.
    const copy = join(dir, 'elsewhere', 'local.json')
    mkdirSync(dirname(copy), { recursive: true })
    copyFileSync(file, copy)
    const keyless = await deployInProcess(['--network', 'local', '--out', copy])
    expect(keyless.stderr).toBe('')
    expect(keyless.code).toBe(0)
    expect(keyless.stdout).toContain(`deployer ${deployer.publicKey()} (no key given: checking only, nothing can be sent)`)
    expect(keyless.stdout).toMatch(/already complete and verified on the chain; nothing sent\n/)
    expect(existsSync(join(dir, 'elsewhere', 'local.deployer.secret'))).toBe(false)
    expect(await history()).toHaveLength(txs)
  }, 60_000)

  it('refuses other parameters for a file that holds a deployment', async () => {
    const r = await deployInProcess([...args, '--min-stake', '200'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/was started with other settings: the parameters differ from the file's \(min_stake 2000000000 instead of 1000000000\)/)
    const fee = await deployInProcess([...args, '--keeper-fee-bps', '500'])
    expect(fee.code).toBe(2)
    expect(fee.stderr).toMatch(/the parameters differ from the file's \(keeper_fee_bps 500 instead of 1000\)/)
  })

  it('sets the registry\'s venues when a rerun names the pool and routers, once', async () => {
    const pool = StrKey.encodeContract(Buffer.alloc(32, 21))
    const router = StrKey.encodeContract(Buffer.alloc(32, 22))
    const txs = (await history()).length
    const r = await deployInProcess([...args, '--lending-pool', pool, '--dex-router', router])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(`venues ${pool}, ${router} replace the file's (none)`)
    expect(r.stdout).toMatch(new RegExp(`\\[10/11\\] set-venues: registry\\.set_venues\\(${pool}, ${router}\\) \\(tx [0-9a-f]{64}`))
    expect(r.stdout).toMatch(/\[11\/11\] verify: read back: .*, the venues as planned/)
    expect(r.stdout).toMatch(/this run sent 1 transaction\(s\)/)
    expect(await read(chain, deployed.service!.registry, 'get_venues')).toEqual([pool, router])
    expect((await history()).slice(txs).map((t) => t.ops.join('+'))).toEqual(['invoke:set_venues'])
    const file2 = readDeployFile(file)!
    expect(file2.deploy.venues).toEqual({ pool, routers: [router] })
    expect(file2.deploy.steps['set-venues']?.tx).toBe(file2.deploy.transactions.at(-1)?.hash)

    // Again (with the flags or without): the chain shows them, nothing is sent.
    for (const again of [args, [...args, '--lending-pool', pool, '--dex-router', router]]) {
      const same = await deployInProcess(again)
      expect(same.code).toBe(0)
      expect(same.stdout).toMatch(/already complete and verified on the chain; nothing sent\n/)
    }
    expect(await history()).toHaveLength(txs + 1)
    deployed = readDeployFile(file)!
  }, 60_000)

  it('is accepted by the keeper, which registers an operator holding 100 USDC', async () => {
    const issuer = localUsdcIssuer(deployer)
    const usdc = new Asset('USDC', issuer.publicKey())
    const operator = Keypair.random()
    await fundAccount(chain, operator.publicKey())
    await submit(chain, operator, Operation.changeTrust({ asset: usdc }))
    await submit(chain, issuer, Operation.payment({ destination: operator.publicKey(), asset: usdc, amount: '100' }))

    const config = parseConfig(applyDeploymentsFile({ KEEPER_SECRET: operator.secret(), DEPLOYMENTS_FILE: file, KEEPER_NAME: 'deployed-keeper' }))
    expect(config).toMatchObject({
      vaultContract: deployed.service!.vault,
      registryContract: deployed.service!.registry,
      usdcContract: deployed.assets!.usdc!.contract,
      rpcUrl: sandbox.rpcUrl,
      networkPassphrase: sandbox.networkPassphrase,
    })
    const runtime = await startKeeperRuntime(config, { logger: pino({ level: 'silent' }) })
    try {
      expect(runtime.registration).toBe('registered')
      const info = toKeeperInfo(await read(chain, deployed.service!.registry, 'get_keeper', [addr(operator.publicKey())]))
      // A plain account: not an approved executor; its stake backs two-step draws up to 90 %.
      expect(info).toMatchObject({ operator: operator.publicKey(), name: 'deployed-keeper', stake: 100_0000000n, slashed: false, approved: false, drawLimit: 90_0000000n })
      expect(await read(chain, usdc.contractId(sandbox.networkPassphrase), 'balance', [addr(operator.publicKey())])).toBe(0n)
    } finally {
      await runtime.stop()
    }
  }, 60_000)

  it('is accepted by the auditor (whose invariants hold on it) and by the dashboard server', async () => {
    expect(parseAuditCli(['--addresses', file])).toMatchObject<Partial<CliOptions>>({
      rpcUrl: sandbox.rpcUrl,
      vault: deployed.service!.vault,
      registry: deployed.service!.registry,
      usdc: deployed.assets!.usdc!.contract,
    })
    let out = ''
    let err = ''
    const code = await runAudit(['--addresses', file, '--json'], { out: (t) => (out += t), err: (t) => (err += t) })
    expect(err).toBe('')
    expect(code).toBe(0)
    expect(out).toContain(deployed.service!.vault)

    const addresses = readAddressesFile(file)
    expect(dashboardConfig(addresses)).toEqual({
      network: { rpcUrl: sandbox.rpcUrl, networkPassphrase: sandbox.networkPassphrase, friendbotUrl: sandbox.friendbotUrl },
      contracts: { vault: deployed.service!.vault, registry: deployed.service!.registry, usdc: deployed.assets!.usdc!.contract },
      keeperApis: [],
    })
    // Its USDC issuer does not derive from a world seed: no sandbox faucet.
    expect(faucetUnavailable(addresses)).toBe('the addresses file has no seed')
  }, 60_000)
})
