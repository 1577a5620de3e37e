/**
 * Before anything is sent: the network the RPC is on (refusing the public network without
 * --allow-mainnet, and a file or --network that names another network), the deployer's key, and
 * the plan (parameters, salt, USDC) reconciled with what an earlier run recorded in the file.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'
import { Keypair, Networks, rpc } from '@stellar/stellar-sdk'
import { createChain, type Chain } from '../chain/index.js'
import { UsageError } from './errors.js'
import { DEFAULT_RPC, venueList, type DeployOptions, type NetworkName, type Venues } from './options.js'
import { PRESETS, differingParameters, parameterProblems, parametersFromJson, type ServiceParameters } from './preset.js'
import { readDeployFile, type DeployFile } from './state.js'

export const MAINNET_PASSPHRASE = Networks.PUBLIC
export const DEFAULT_SALT = 'service'

export interface Plan {
  out: string
  network: { name: NetworkName; rpcUrl: string; passphrase: string; friendbotUrl: string | undefined }
  server: rpc.Server
  chain: Chain
  /** The deployer: its key when one is available (a rerun that only verifies needs none). */
  deployer: { publicKey: string; keypair: Keypair | undefined; note: string; secretFile: string | undefined }
  preset: string
  parameters: ServiceParameters
  salt: string
  /** What registry.set_venues sets: the flags', else the file's; none when neither names any. */
  venues: Venues
  /** The USDC contract when it is known before the usdc step (given, the preset's or recorded). */
  usdc: { source: 'flag' | 'preset' | 'created'; contract: string | undefined }
  /** What an earlier run recorded; undefined for a new deployment. */
  existing: DeployFile | undefined
  /** Things the output should say before the steps (a changed RPC URL, a created deployer, ...). */
  notes: string[]
}

/** Where the secret of a deployer this command creates is kept: next to the deployments file. */
export function deployerSecretPath(out: string): string {
  return join(dirname(out), `${basename(out, '.json')}.deployer.secret`)
}

async function networkOf(server: rpc.Server, rpcUrl: string): Promise<{ passphrase: string; friendbotUrl: string | undefined }> {
  try {
    const n = await server.getNetwork()
    return { passphrase: n.passphrase, friendbotUrl: n.friendbotUrl }
  } catch (err) {
    throw new Error(`cannot read the network from the RPC at ${rpcUrl} (getNetwork: ${(err as Error).message})`, { cause: err })
  }
}

function readSecret(path: string): Keypair {
  try {
    return Keypair.fromSecret(readFileSync(path, 'utf8').trim())
  } catch {
    throw new UsageError(`${path}: not a Stellar secret key (S..., 56 characters)`)
  }
}

function writeSecret(path: string, keypair: Keypair): void {
  try {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, `${keypair.secret()}\n`, { mode: 0o600, flag: 'wx' })
  } catch (err) {
    throw new UsageError(`cannot write the new deployer's secret to ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`)
  }
}

function resolveDeployer(opts: DeployOptions, existing: DeployFile | undefined, passphrase: string): Plan['deployer'] {
  const recorded = existing?.deploy.deployer
  const secretPath = deployerSecretPath(opts.out)
  const secretFile = existing?.deploy.deployerSecretFile
  if (opts.deployer !== undefined) {
    const pk = opts.deployer.keypair.publicKey()
    if (recorded !== undefined && recorded !== pk) {
      throw new UsageError(`${opts.out} was deployed by ${recorded}, but the key from ${opts.deployer.from} is ${pk}: give that deployer's key, or choose another --out`)
    }
    return { publicKey: pk, keypair: opts.deployer.keypair, note: `deployer ${pk} (key from ${opts.deployer.from})`, secretFile }
  }
  if (existsSync(secretPath)) {
    const keypair = readSecret(secretPath)
    if (recorded === undefined || recorded === keypair.publicKey()) {
      return {
        publicKey: keypair.publicKey(),
        keypair,
        note: `deployer ${keypair.publicKey()} (key from ${secretPath}, created by an earlier run)`,
        secretFile: relative(dirname(opts.out), secretPath),
      }
    }
  }
  if (recorded !== undefined) {
    return { publicKey: recorded, keypair: undefined, note: `deployer ${recorded} (no key given: checking only, nothing can be sent)`, secretFile }
  }
  if (opts.network !== 'local' || passphrase === MAINNET_PASSPHRASE) {
    throw new UsageError(
      `give the deployer's secret key: --secret-file FILE or the DEPLOYER_SECRET variable${opts.network === 'local' ? ' (a deployer is created only off the public network)' : ''}`,
    )
  }
  const keypair = Keypair.random()
  // Kept before anything is funded or sent: a rerun after a crash signs with the same key.
  writeSecret(secretPath, keypair)
  return {
    publicKey: keypair.publicKey(),
    keypair,
    note: `no deployer key given (--secret-file or DEPLOYER_SECRET): created deployer ${keypair.publicKey()} for this local network, to be funded by friendbot; its secret is in ${secretPath} (mode 600)`,
    secretFile: relative(dirname(opts.out), secretPath),
  }
}

function resolveUsdc(opts: DeployOptions, existing: DeployFile | undefined, rpcUrl: string, passphrase: string, conflicts: string[]): Plan['usdc'] {
  const recorded = existing?.deploy
  if (opts.usdc !== undefined) {
    const recordedContract = recorded?.usdc ?? existing?.assets?.usdc?.contract
    if (recordedContract !== undefined && recordedContract !== opts.usdc) conflicts.push(`--usdc ${opts.usdc}, but the file's USDC is ${recordedContract}`)
    return { source: 'flag', contract: opts.usdc }
  }
  if (recorded !== undefined) return { source: recorded.usdcSource, contract: recorded.usdc ?? existing?.assets?.usdc?.contract }
  const presetUsdc = PRESETS[opts.preset].usdc
  if (presetUsdc.networkPassphrase === passphrase) return { source: 'preset', contract: presetUsdc.asset.contract }
  if (opts.network === 'local' && passphrase !== MAINNET_PASSPHRASE) return { source: 'created', contract: undefined }
  throw new UsageError(`give --usdc C... (the USDC Stellar Asset Contract of the network at ${rpcUrl}): the preset has none for it`)
}

/**
 * Reads the file, asks the RPC which network it is on and settles the plan.
 * @throws UsageError when the command cannot go ahead as asked (nothing is sent)
 */
export async function preparePlan(opts: DeployOptions): Promise<Plan> {
  const existing = readDeployFile(opts.out)
  const notes: string[] = []
  if (existing?.network.name !== undefined && existing.network.name !== opts.network) {
    throw new UsageError(`${opts.out} is a deployment on the ${existing.network.name} network, not ${opts.network}: give --network ${existing.network.name}, or another --out`)
  }
  const rpcUrl = opts.rpcUrl ?? existing?.network.rpcUrl ?? DEFAULT_RPC[opts.network]
  if (existing !== undefined && opts.rpcUrl !== undefined && opts.rpcUrl !== existing.network.rpcUrl) {
    notes.push(`RPC URL ${opts.rpcUrl} replaces the file's ${existing.network.rpcUrl}`)
  }
  const server = new rpc.Server(rpcUrl, { allowHttp: rpcUrl.startsWith('http://') })
  const { passphrase, friendbotUrl } = await networkOf(server, rpcUrl)

  if (passphrase === MAINNET_PASSPHRASE && !opts.allowMainnet) {
    throw new UsageError(`the RPC at ${rpcUrl} is on the public network ("${passphrase}"): refusing to deploy there without --allow-mainnet`)
  }
  if (opts.network === 'testnet' && passphrase !== Networks.TESTNET) {
    throw new UsageError(`--network testnet, but the RPC at ${rpcUrl} is on "${passphrase}", not the testnet ("${Networks.TESTNET}"): give the testnet's --rpc-url, or --network local`)
  }
  if (existing !== undefined && existing.network.networkPassphrase !== passphrase) {
    throw new UsageError(
      `${opts.out} records a deployment on "${existing.network.networkPassphrase}", but the RPC at ${rpcUrl} is on "${passphrase}": give the RPC of the file's network with --rpc-url, or another --out for this network`,
    )
  }

  const conflicts: string[] = []
  const recorded = existing?.deploy
  if (opts.salt !== undefined && recorded !== undefined && opts.salt !== recorded.salt) conflicts.push(`--salt ${opts.salt}, but the file's salt is ${recorded.salt}`)
  let parameters = opts.parameters
  let preset: string = opts.preset
  if (recorded !== undefined) {
    const before = parametersFromJson(recorded.parameters)
    const differ = differingParameters(before, opts.parameters)
    if (opts.parametersGiven && differ.length > 0) {
      conflicts.push(`the parameters differ from the file's (${differ.map((k) => `${k} ${opts.parameters[k]} instead of ${before[k]}`).join(', ')})`)
    }
    parameters = before
    preset = recorded.preset
  }
  const usdc = resolveUsdc(opts, existing, rpcUrl, passphrase, conflicts)
  // Venues are the registry admin's to change: flags that differ from the file's replace them.
  const recordedVenues = recorded?.venues === undefined ? undefined : { pool: recorded.venues.pool, routers: recorded.venues.routers }
  const venues = opts.venues ?? recordedVenues ?? { pool: undefined, routers: [] }
  if (recordedVenues !== undefined && opts.venues !== undefined && venueList(opts.venues).join() !== venueList(recordedVenues).join()) {
    notes.push(`venues ${venueList(opts.venues).join(', ')} replace the file's (${venueList(recordedVenues).join(', ') || 'none'})`)
  }
  if (conflicts.length > 0) {
    throw new UsageError(`${opts.out} was started with other settings: ${conflicts.join('; ')}. Rerun with the settings it was started with, or choose another --out`)
  }
  const problems = parameterProblems(parameters)
  if (problems.length > 0) throw new UsageError(`the contracts would refuse these parameters: ${problems.join('; ')}`)
  // Last: it may create (and write) a new deployer key, which only a plan that goes ahead needs.
  const deployer = resolveDeployer(opts, existing, passphrase)

  const network = { name: opts.network, rpcUrl, passphrase, friendbotUrl: friendbotUrl ?? existing?.network.friendbotUrl }
  const chain = createChain({ rpcUrl, networkPassphrase: passphrase, server, ...(network.friendbotUrl === undefined ? {} : { friendbotUrl: network.friendbotUrl }) })
  return { out: opts.out, network, server, chain, deployer, preset, parameters, salt: opts.salt ?? recorded?.salt ?? DEFAULT_SALT, venues, usdc, existing, notes }
}
