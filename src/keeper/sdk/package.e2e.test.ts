/**
 * The keeper SDK as a user gets it: packages/keeper-sdk is built and packed, the tarball is
 * installed into a project outside the repository next to the repository's locked
 * @stellar/stellar-sdk (its peer; from the npm cache, or the registry on a fresh machine), and the README's adapter is compiled there by the root's
 * TypeScript (strict) against the installed declarations and run against a sandbox vault world:
 * a cycle through the package's runCycle, the example adapter through the /example entry, the
 * compiled adapter inside the keeper runtime (extraAdapters), and a draw left outstanding.
 */
import type { Keypair } from '@stellar/stellar-sdk'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type * as Sdk from '../../../packages/keeper-sdk/src/index.js'
import {
  createScratchProject,
  installTarball,
  lockClosure,
  packPackage,
  readJson,
  readmeFiles,
  run,
  versionsOffLock,
  writeFiles,
  type LockEntry,
  type PackageLock,
  type Packed,
  type Run,
} from '../../../packages/keeper-sdk/test/scratchProject.js'
import { startSandbox, type Sandbox } from '../../../sandbox/ts/launch.js'
import { RegistryContract, VaultContract, tokenBalance } from '../clients/index.js'
import { parseConfig } from '../config/index.js'
import { startKeeperRuntime } from '../runtime.js'
import { deployVaultWorld, REPO_ROOT, type VaultWorld } from '../../../test/keeper/vaultWorld.js'
import type { ProtocolAdapter } from './index.js'

const PACKAGE_DIR = join(REPO_ROOT, 'packages', 'keeper-sdk')
const TSC = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc')
const PACKAGE_NAME = '@pooled-liquidations/keeper-sdk'
const USDC = 10_000_000n

/** The scratch project's compiler settings: the repository's strictness, its own tree. */
const SCRATCH_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2022'],
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    verbatimModuleSyntax: true,
    skipLibCheck: true,
    rootDir: 'src',
    outDir: 'dist',
    types: ['node'],
    typeRoots: [join(REPO_ROOT, 'node_modules', '@types')],
  },
  include: ['src'],
}

/** Not in the README: the example adapter through the package's /example entry. */
const EXAMPLE_CYCLE = `import { Keypair } from '@stellar/stellar-sdk'
import { createChain, runCycle } from '${PACKAGE_NAME}'
import { createRoundTripAdapter } from '${PACKAGE_NAME}/example'

const chain = createChain({ rpcUrl: process.env['CONTRACT_RPC']!, networkPassphrase: process.env['NETWORK_PASSPHRASE']! })
const adapter = createRoundTripAdapter({ jobs: () => [{ priority: 4, amount: 25n * 10_000_000n }] })
const report = await runCycle(adapter, { chain, keypair: Keypair.fromSecret(process.env['KEEPER_SECRET']!), vault: process.env['VAULT_CONTRACT']! })
console.log(JSON.stringify(report, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)))
`

/** Misuse the declarations must refuse, one error per line (lines 2–5). */
const MISUSE = `import { makeResult, runCycle, type ProtocolAdapter, type Result } from '${PACKAGE_NAME}'
export const noProfit: Result = { drew: 1n, proceeds: 2n, responseTimeMs: 0 }
export const numberAmount = makeResult({ drew: 1, proceeds: 2n, responseTimeMs: 0 })
export const noExecute: ProtocolAdapter = { name: () => 'x', getTasks: async () => [], estimateCapital: () => 0n }
export const wrongReport: Promise<number> = runCycle(noExecute, { chain: undefined as never, keypair: undefined as never, vault: 'C' })
`

let tmp: string
let scratch: string
let packed: Packed
let built: Run
let installed: Run
let locked: Record<string, LockEntry>
let compiled: Run
let sandbox: Sandbox
let world: VaultWorld
let keeper: Keypair
let vault: VaultContract
let registry: RegistryContract

const scratchEnv = () => ({
  ...process.env,
  CONTRACT_RPC: sandbox.rpcUrl,
  NETWORK_PASSPHRASE: sandbox.networkPassphrase,
  KEEPER_SECRET: keeper.secret(),
  REGISTRY_CONTRACT: world.registry,
  VAULT_CONTRACT: world.vault,
  USDC_CONTRACT: world.usdc,
})

/** Runs a compiled script of the scratch project; its last stdout line is a JSON report. */
function runScript(script: string): { lines: string[]; report: Record<string, any> } {
  const r = run(process.execPath, [join('dist', script)], scratch, scratchEnv())
  expect(r.status, r.output).toBe(0)
  const lines = r.output.trim().split('\n')
  return { lines, report: JSON.parse(lines.at(-1)!) as Record<string, any> }
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'keeper-sdk-'))
  const sandboxStarted = startSandbox()
  try {
    built = run('npm', ['run', 'build'], PACKAGE_DIR)
    if (built.status !== 0) throw new Error(`npm run build failed:\n${built.output}`)
    packed = packPackage(PACKAGE_DIR, tmp)
    scratch = join(tmp, 'project')
    mkdirSync(scratch)
    const peers = Object.keys(readJson<{ peerDependencies: Record<string, string> }>(join(PACKAGE_DIR, 'package.json')).peerDependencies)
    const rootLock = readJson<PackageLock>(join(REPO_ROOT, 'package-lock.json'))
    createScratchProject(scratch, rootLock, peers)
    locked = lockClosure(rootLock, peers)
    installed = installTarball(scratch, packed.tarball)
    if (installed.status !== 0) throw new Error(`npm install of the tarball failed:\n${installed.output}`)
    writeFiles(scratch, [
      ...readmeFiles(readFileSync(join(PACKAGE_DIR, 'README.md'), 'utf8')),
      { path: 'src/exampleCycle.ts', code: EXAMPLE_CYCLE },
      { path: 'tsconfig.json', code: JSON.stringify(SCRATCH_TSCONFIG, null, 2) },
    ])
    compiled = run(process.execPath, [TSC, '-p', 'tsconfig.json'], scratch)
    console.log(
      `[keeper-sdk] build ${built.ms} ms (npm run build), tarball ${(packed.size / 1024).toFixed(1)} KB packed / ` +
        `${(packed.unpackedSize / 1024).toFixed(1)} KB unpacked (${packed.files.length} files), ` +
        `install ${installed.ms} ms, scratch tsc ${compiled.ms} ms`,
    )
  } finally {
    sandbox = await sandboxStarted
  }
  world = await deployVaultWorld(sandbox)
  vault = new VaultContract(world.chain, world.vault)
  registry = new RegistryContract(world.chain, world.registry)
  const depositor = await world.newAccount(1_000n * USDC)
  await vault.deposit(depositor, 1_000n * USDC)
  keeper = await world.newAccount(500n * USDC)
})

afterAll(async () => {
  await sandbox?.stop()
  if (tmp) rmSync(tmp, { recursive: true, force: true })
})

describe('keeper SDK package (packed, installed, compiled, run on the sandbox)', () => {
  it("installs the peers at the repository's locked versions", () => {
    expect(Object.keys(locked)).toContain('node_modules/@stellar/stellar-sdk')
    expect(versionsOffLock(scratch, locked)).toEqual([])
  })

  it('packs dist, the README and the LICENSE only; the installed exports resolve inside the package', () => {
    expect(packed.files.every((f) => f === 'package.json' || f === 'README.md' || f === 'LICENSE' || f.startsWith('dist/')), packed.files.join(', ')).toBe(true)
    for (const f of ['dist/index.js', 'dist/index.d.ts', 'dist/example.js', 'dist/example.d.ts', 'README.md', 'LICENSE']) expect(packed.files).toContain(f)
    const dir = join(scratch, 'node_modules', ...PACKAGE_NAME.split('/'))
    const require = createRequire(join(scratch, 'package.json'))
    expect(require.resolve(`${PACKAGE_NAME}/package.json`)).toBe(join(dir, 'package.json'))
    const manifest = readJson<{ exports: Record<string, { types: string; import: string } | string> }>(join(dir, 'package.json'))
    for (const [, target] of Object.entries(manifest.exports)) {
      for (const file of typeof target === 'string' ? [target] : [target.types, target.import]) {
        expect(() => readFileSync(join(dir, file)), file).not.toThrow()
      }
    }
  })

  it('compiles a strict project against the installed declarations; the declarations type-check on their own; misuse is refused', () => {
    expect(compiled.output).toBe('')
    expect(compiled.status).toBe(0)
    // skipLibCheck off: every declaration of the package resolves (no missing module, no any).
    // The Stellar SDK's own declarations need @types/urijs; only the package's lines count.
    const libCheck = run(process.execPath, [TSC, '-p', 'tsconfig.json', '--noEmit', '--skipLibCheck', 'false'], scratch)
    const ours = libCheck.output.split('\n').filter((l) => l.startsWith(`node_modules/${PACKAGE_NAME}/`) || l.startsWith('src/'))
    expect(ours).toEqual([])

    writeFiles(scratch, [
      { path: 'misuse/wrong.ts', code: MISUSE },
      { path: 'misuse/tsconfig.json', code: JSON.stringify({ extends: '../tsconfig.json', compilerOptions: { rootDir: '.', noEmit: true }, include: ['.'] }) },
    ])
    const misuse = run(process.execPath, [TSC, '-p', 'misuse/tsconfig.json'], scratch)
    expect(misuse.status).not.toBe(0)
    const lines = new Set([...misuse.output.matchAll(/wrong\.ts\((\d+),\d+\): error/g)].map((m) => Number(m[1])))
    expect([...lines].sort(), misuse.output).toEqual([2, 3, 4, 5])
    expect(misuse.output).toMatch(/Property 'profit' is missing/)
    expect(misuse.output).toMatch(/Property 'execute' is missing/)
  })

  it("runs a cycle of the README's adapter: ordered by priority, the oversized task skipped, draws and returns booked on chain", async () => {
    const before = await vault.getState()
    const { lines, report } = runScript('main.js')
    // The keeper stakes the 100 USDC minimum: at a 10 % slash rate its bond backs draws of 90 USDC.
    const drawLimit = (world.minStake * 9n) / 10n
    // 3 USDC of tips are the gross profit: the vault pays the keeper its 10 % fee, books the rest.
    const fee = (gross: bigint) => gross / 10n
    expect(lines.slice(0, 4)).toEqual([
      'urgent: executed',
      `too big: skipped (capital ${5_000n * USDC} is above the vault's idle capital ${1_000n * USDC + 2n * USDC - fee(2n * USDC)})`,
      `unbacked: skipped (capital ${120n * USDC} is above the registry's bond limit for this keeper (draw_limit ${drawLimit}): add bond to raise it)`,
      'calm: executed',
    ])
    expect(report).toMatchObject({
      adapter: 'tip',
      drawn: String(90n * USDC),
      returned: String(93n * USDC),
      booked: String(3n * USDC - fee(3n * USDC)),
      rewards: String(fee(3n * USDC)),
      outstandingDraw: '0',
    })
    expect(report['outcomes'].map((o: { task: { label: string }; capital: string }) => [o.task.label, o.capital])).toEqual([
      ['urgent', String(60n * USDC)],
      ['too big', String(5_000n * USDC)],
      ['unbacked', String(120n * USDC)],
      ['calm', String(30n * USDC)],
    ])
    expect(report['outcomes'][0].result).toMatchObject({ drew: String(60n * USDC), proceeds: String(62n * USDC), profit: String(2n * USDC) })

    const after = await vault.getState()
    expect(after.totalProfit - before.totalProfit).toBe(3n * USDC - fee(3n * USDC))
    expect(after.totalUsdc - before.totalUsdc).toBe(3n * USDC - fee(3n * USDC))
    expect(after.totalShares).toBe(before.totalShares)
    expect(after.activeLiq).toBe(0n)
    const info = await registry.getKeeper(keeper.publicKey())
    expect(info).toMatchObject({ name: 'tip-keeper', stake: world.minStake, drawLimit, totalExecutions: 2, totalProfit: 3n * USDC - fee(3n * USDC), hasActiveDraw: false })
    // the keeper paid the tips and got its fee back
    expect(await tokenBalance(world.chain, world.usdc, keeper.publicKey())).toBe(500n * USDC - world.minStake - 3n * USDC + fee(3n * USDC))
  }, 120_000)

  it('runs the example adapter through the /example entry', async () => {
    const before = await registry.getKeeper(keeper.publicKey())
    const { report } = runScript('exampleCycle.js')
    expect(report).toMatchObject({ adapter: 'round-trip', drawn: String(25n * USDC), returned: String(25n * USDC), booked: '0', outstandingDraw: '0' })
    const after = await registry.getKeeper(keeper.publicKey())
    expect(after.totalExecutions).toBe(before.totalExecutions + 1)
    expect(after.totalProfit).toBe(before.totalProfit)
  }, 60_000)

  it('plugs the adapter compiled against the package into the keeper runtime (extraAdapters)', async () => {
    // The runtime runs on the repository's Stellar SDK, the adapter on the scratch project's copy
    // (one copy in a real application: it is a peer dependency).
    const mod = (await import(pathToFileURL(join(scratch, 'dist', 'adapter.js')).href)) as {
      createTipAdapter(p: { usdc: string; keeper: string; jobs: Array<{ label: string; health: number; amount: bigint; tip: bigint }> }): ProtocolAdapter
    }
    const adapter = mod.createTipAdapter({
      usdc: world.usdc,
      keeper: keeper.publicKey(),
      jobs: [{ label: 'embedded', health: 0.9, amount: 50n * USDC, tip: 5_000_000n }],
    })
    const env = scratchEnv()
    const config = parseConfig({ ...env, KEEPER_NAME: 'tip-keeper', CHANNEL_ACCOUNTS: '0', LEDGER_POLL_MS: '100' })
    const before = await vault.getState()
    const runtime = await startKeeperRuntime(config, { logger: pino({ level: 'silent' }), extraAdapters: [adapter] })
    try {
      expect(runtime.registration).toBe('skipped')
      await runtime.cycle()
      const deadline = Date.now() + 60_000
      while (runtime.state.history.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200))
      // the engine gives the result the keeper fee its return paid: 10 % of the 0.5 USDC tip
      expect(runtime.state.history[0]).toMatchObject({ adapter: 'tip', drew: 50n * USDC, proceeds: 50n * USDC + 5_000_000n, profit: 5_000_000n, reward: 500_000n })
      expect(runtime.state.rewards).toEqual({ total: 500_000n, payments: 1 })
    } finally {
      await runtime.stop()
    }
    const after = await vault.getState()
    expect(after.totalProfit - before.totalProfit).toBe(4_500_000n)
    expect(await vault.getKeeperDraw(keeper.publicKey())).toBe(0n)
  }, 120_000)

  it("reports a draw the adapter leaves outstanding, skips capital work after it, and names a malformed task's field", async () => {
    // The installed bundle in this process, with the scratch project's Stellar SDK.
    const sdkDir = join(scratch, 'node_modules', ...PACKAGE_NAME.split('/'))
    const sdk = (await import(pathToFileURL(join(sdkDir, 'dist', 'index.js')).href)) as typeof Sdk
    const stellar = (await import(pathToFileURL(createRequire(join(scratch, 'package.json')).resolve('@stellar/stellar-sdk')).href)) as typeof import('@stellar/stellar-sdk')
    const chain = sdk.createChain({ rpcUrl: sandbox.rpcUrl, networkPassphrase: sandbox.networkPassphrase })
    const tasks = [
      { priority: 5, estProfit: 0n, label: 'leak', data: 10n * USDC },
      { priority: 1, estProfit: 0n, label: 'after', data: 10n * USDC },
      { priority: 3, estProfit: 1, label: 'malformed', data: 0n },
    ] as Sdk.Task<bigint>[]
    const leaky: Sdk.ProtocolAdapter<bigint> = {
      name: () => 'leaky',
      getTasks: async () => tasks,
      estimateCapital: (t) => t.data,
      async execute(_c, _k, t, v) {
        await v.draw(t.data)
        return sdk.makeResult({ drew: t.data, proceeds: 0n, responseTimeMs: 0, success: false })
      },
    }
    const report = await sdk.runCycle(leaky, { chain, keypair: stellar.Keypair.fromSecret(keeper.secret()), vault: world.vault })
    expect(report.outcomes.map((o) => [o.task.label, o.status, o.reason])).toEqual([
      ['malformed', 'invalid', 'task 2: estProfit must be a bigint (USDC, 7 decimals), got number'],
      ['leak', 'failed', `left a draw of ${10n * USDC} outstanding: return it with returnProceeds before execute resolves`],
      ['after', 'skipped', `the keeper has a draw of ${10n * USDC} outstanding (one draw per keeper)`],
    ])
    expect(report).toMatchObject({ drawn: 10n * USDC, returned: 0n, outstandingDraw: 10n * USDC })
    expect(await vault.getKeeperDraw(keeper.publicKey())).toBe(10n * USDC)
    await vault.returnProceeds(keeper, 10n * USDC, 0)
    expect(await vault.getKeeperDraw(keeper.publicKey())).toBe(0n)
  }, 60_000)
})

