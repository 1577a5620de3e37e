/**
 * The first steps of a deployment: the deployer's account, the USDC (given, the preset's, or
 * created on a local network) and the code of the vault, the executor (which the registry
 * deploys for keepers: its hash is part of the registry's configuration) and the registry.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Asset, Keypair, hash } from '@stellar/stellar-sdk'
import { ensureAssetContract, ensureWasmUploaded, wasmHashOf } from '../chain/deployOnce.js'
import { accountExists, contractCodeExists, contractExecutable } from '../chain/ledgerEntries.js'
import { fundAccount, read } from '../chain/index.js'
import { signer, type Step, type StepContext, type StepResult } from './context.js'
import { UsageError } from './errors.js'
import { PRESETS, type UsdcAsset } from './preset.js'

/** The issuer of a USDC this command creates on a local network: derived from the deployer's secret, so a rerun finds it. */
export function localUsdcIssuer(deployer: Keypair): Keypair {
  return Keypair.fromRawEd25519Seed(hash(Buffer.concat([Buffer.from('stellar-pooled-liquidations/deploy/usdc-issuer/'), deployer.rawSecretKey()])))
}

const deployerStep: Step = {
  name: 'deployer',
  async check(ctx) {
    const { deployer } = ctx.plan
    return (await accountExists(ctx.plan.server, deployer.publicKey)) ? { detail: `account ${deployer.publicKey} exists` } : undefined
  },
  async run(ctx) {
    const { deployer, network } = ctx.plan
    if (network.name !== 'local' || network.friendbotUrl === undefined) {
      const hint = network.friendbotUrl === undefined ? '' : ` (e.g. ${network.friendbotUrl}?addr=${deployer.publicKey})`
      throw new Error(`the deployer account ${deployer.publicKey} does not exist on this network: fund it first${hint}`)
    }
    await fundAccount(network.friendbotUrl, deployer.publicKey)
    return { detail: `account ${deployer.publicKey} created and funded by friendbot` }
  },
}

function usdcEntry(ctx: StepContext, asset: UsdcAsset): void {
  ctx.file.assets = { ...ctx.file.assets, usdc: { code: asset.code, issuer: asset.issuer, contract: asset.contract, decimals: 7 } }
  ctx.file.deploy.usdc = asset.contract
}

/** A given or preset USDC: it must be the Stellar Asset Contract of a classic asset (the file records code and issuer). */
async function existingUsdc(ctx: StepContext, contract: string): Promise<StepResult> {
  const { chain, server } = ctx.plan
  const exe = await contractExecutable(server, contract)
  if (exe === undefined) throw new Error(`the USDC contract ${contract} does not exist on this network`)
  if (exe.kind !== 'stellar-asset') throw new Error(`the USDC contract ${contract} is not a Stellar Asset Contract (it runs code ${exe.wasmHash}); the deployments file needs the classic asset's code and issuer`)
  const name = await read<string>(chain, contract, 'name')
  const [code, issuer] = name.split(':')
  if (code === undefined || issuer === undefined || new Asset(code, issuer).contractId(chain.networkPassphrase) !== contract) {
    throw new Error(`the USDC contract ${contract} is the Stellar Asset Contract of "${name}", not of a credit asset`)
  }
  const preset = PRESETS.testnet.usdc.asset
  if (ctx.plan.usdc.source === 'preset' && (code !== preset.code || issuer !== preset.issuer)) {
    throw new Error(`the preset's USDC ${contract} is ${code}:${issuer} on this network, not ${preset.code}:${preset.issuer}`)
  }
  usdcEntry(ctx, { code, issuer, contract })
  return { detail: `${code}:${issuer}, Stellar Asset Contract ${contract} (${ctx.plan.usdc.source === 'preset' ? 'the preset' : '--usdc'})` }
}

/** The asset of a USDC created here: the recorded one, else the one the deployer's key derives. */
function createdAsset(ctx: StepContext): Asset | undefined {
  const recorded = ctx.file.assets?.usdc
  if (recorded !== undefined) return new Asset(recorded.code, recorded.issuer)
  const kp = ctx.plan.deployer.keypair
  return kp === undefined ? undefined : new Asset('USDC', localUsdcIssuer(kp).publicKey())
}

const usdcStep: Step = {
  name: 'usdc',
  async check(ctx) {
    const { usdc, server, network } = ctx.plan
    if (usdc.source !== 'created') return existingUsdc(ctx, usdc.contract!)
    const asset = createdAsset(ctx)
    if (asset === undefined) return undefined
    const contract = asset.contractId(network.passphrase)
    const issuerId = asset.getIssuer()! // a created USDC is an issued asset
    const [sac, issuer] = await Promise.all([contractExecutable(server, contract), accountExists(server, issuerId)])
    if (sac?.kind !== 'stellar-asset' || !issuer) return undefined
    usdcEntry(ctx, { code: asset.getCode(), issuer: issuerId, contract })
    return { detail: `USDC:${issuerId}, Stellar Asset Contract ${contract} (created for this network)` }
  },
  async run(ctx) {
    const { chain, server, network } = ctx.plan
    const deployer = signer(ctx, 'usdc')
    const issuer = localUsdcIssuer(deployer)
    if (!(await accountExists(server, issuer.publicKey()))) {
      if (network.friendbotUrl === undefined) throw new Error(`no friendbot to create the USDC issuer ${issuer.publicKey()}: give --usdc`)
      await fundAccount(network.friendbotUrl, issuer.publicKey())
    }
    const asset = new Asset('USDC', issuer.publicKey())
    const { contractId, sent } = await ensureAssetContract(chain, server, deployer, asset)
    usdcEntry(ctx, { code: 'USDC', issuer: issuer.publicKey(), contract: contractId })
    return { detail: `created USDC issued by ${issuer.publicKey()} (a key derived from the deployer's), Stellar Asset Contract ${contractId}`, ...(sent ? { sent } : {}) }
  },
}

/** The contract code a deployment uploads. */
export type UploadedCode = 'vault' | 'executor' | 'registry'

function readWasm(ctx: StepContext, name: UploadedCode): Buffer {
  const path = join(ctx.wasmDir, `${name}.wasm`)
  try {
    return readFileSync(path)
  } catch (err) {
    throw new UsageError(`cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): build it with npm run build:wasm, or give --wasm-dir`)
  }
}

function uploadStep(name: UploadedCode): Step {
  const step = `upload-${name}` as const
  return {
    name: step,
    async check(ctx) {
      // The recorded hash is what the contracts run; the local file may have been rebuilt since.
      const wasmHash = ctx.file.deploy.wasm[name] ?? wasmHashOf(readWasm(ctx, name))
      if (!(await contractCodeExists(ctx.plan.server, wasmHash))) return undefined
      ctx.file.deploy.wasm[name] = wasmHash
      return { detail: `${name} code ${wasmHash} is on the ledger` }
    },
    async run(ctx) {
      const { wasmHash, sent } = await ensureWasmUploaded(ctx.plan.chain, ctx.plan.server, signer(ctx, step), readWasm(ctx, name))
      ctx.file.deploy.wasm[name] = wasmHash
      return { detail: `uploaded ${name} code ${wasmHash}`, ...(sent ? { sent } : {}) }
    },
  }
}

/** The steps up to the contract code: deployer account, USDC, vault, executor and registry code. */
export const setupSteps: readonly Step[] = [deployerStep, usdcStep, uploadStep('vault'), uploadStep('executor'), uploadStep('registry')]
