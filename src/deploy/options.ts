/**
 * The command line of `npm run deploy` and its environment (DEPLOYER_SECRET, DEPLOY_CRASH_AT),
 * validated into `DeployOptions`. Every problem is a UsageError naming the flag; a secret is
 * never part of a message.
 */
import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Keypair, StrKey } from '@stellar/stellar-sdk'
import type { ParseArgsOptionsConfig } from 'node:util'
import { parseFlags } from '../cli/flags.js'
import { UsageError } from './errors.js'
import { PARAMETER_BOUNDS, PARAMETER_NAMES, PRESETS, boundsText, isPresetName, parseUsdc, type PresetName, type ServiceParameters } from './preset.js'
import { STEP_NAMES, type StepName } from './state.js'

export const NETWORKS = ['testnet', 'local'] as const
export type NetworkName = (typeof NETWORKS)[number]

/** Default RPC of each network. */
export const DEFAULT_RPC: Record<NetworkName, string> = {
  testnet: 'https://soroban-testnet.stellar.org',
  local: 'http://127.0.0.1:8000/rpc',
}

/** Repository root (this file is src/deploy/options.ts). */
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')

export const USAGE = `usage:
  npm run deploy -- --network testnet|local [options]

options:
  --network testnet|local    which network (required); the RPC's passphrase must be the testnet's
                             for testnet; local is any other network (default RPC the sandbox's)
  --rpc-url URL              Stellar RPC (default: the file's, else ${DEFAULT_RPC.testnet}
                             for testnet, ${DEFAULT_RPC.local} for local)
  --preset testnet           the contracts' parameters (the default and only preset): min_stake 100 USDC,
                             slash_timeout 3600 s, slash_rate_bps 1000, deposit_cap 10,000,000 USDC,
                             withdraw_cooldown 3600 s, max_draw_per_keeper 10,000 USDC, keeper_fee_bps
                             1000, profit_unlock_secs 3600 s; on the testnet also Circle's USDC
  --min-stake USDC  --slash-timeout SECONDS  --slash-rate-bps BPS
  --deposit-cap USDC  --withdraw-cooldown SECONDS  --max-draw-per-keeper USDC
  --keeper-fee-bps BPS  --profit-unlock-secs SECONDS
                             one parameter instead of the preset's (USDC with up to 7 decimals);
                             slash_timeout 1-604800 s, slash_rate_bps 1-5000, withdraw_cooldown
                             0-2592000 s, keeper_fee_bps 0-5000, profit_unlock_secs 1-2592000 s
  --lending-pool C...        the lending pool approved executors may use (registry.set_venues)
  --dex-router C...          a DEX router they may use (repeat the flag for several); without
                             either flag the registry's venues are left unset
  --usdc C...                the USDC Stellar Asset Contract (default: the preset's on the testnet; on
                             a local network a USDC issued by a key derived from the deployer's)
  --secret-file FILE         the deployer's secret key (S...); or the DEPLOYER_SECRET variable. On a
                             local network without one, a deployer is created and funded by friendbot
                             and its secret written next to the deployments file
  --out FILE                 the deployments file (default deployments/<network>.json)
  --salt LABEL               the contracts' addresses derive from the deployer and this label
                             (default service); another label deploys another pair
  --wasm-dir DIR             where vault.wasm, executor.wasm and registry.wasm are (default target/wasm)
  --allow-mainnet            deploy even when the RPC is on the public network
  -h, --help                 this text

A rerun continues an unfinished deployment from the file, or verifies a finished one and sends
nothing. Exit status: 0 deployed (or already complete), 1 a step failed on the chain (rerun to
resume), 2 bad command line or a refused file or network.

example:
  npm run deploy -- --network local --out deployments/local.json`

/** What approved executors may use: the lending pool and the DEX routers (registry.set_venues). */
export interface Venues {
  pool: string | undefined
  routers: string[]
}

/** The venues as the registry's list: the pool first, then the routers, each once. */
export function venueList(v: Venues): string[] {
  return [...new Set([...(v.pool === undefined ? [] : [v.pool]), ...v.routers])]
}

/** Where a test makes the deployment crash: after a step is recorded, or after its transaction landed but before it is recorded. */
export type CrashPoint = `${'after' | 'sent'}:${StepName}`

export interface DeployOptions {
  network: NetworkName
  /** undefined: the file's RPC, else the network's default. */
  rpcUrl: string | undefined
  preset: PresetName
  /** The parameters: the preset's with the flags' overrides. */
  parameters: ServiceParameters
  /** Whether --preset or a parameter flag was given (a rerun otherwise keeps the file's parameters). */
  parametersGiven: boolean
  /**
   * The pool and routers for `registry.set_venues` (--lending-pool, --dex-router); undefined when
   * neither flag was given (a rerun then keeps the file's).
   */
  venues: Venues | undefined
  usdc: string | undefined
  /** The deployer's key and where it came from ("--secret-file F", "DEPLOYER_SECRET"). */
  deployer: { keypair: Keypair; from: string } | undefined
  out: string
  salt: string | undefined
  wasmDir: string
  allowMainnet: boolean
  crashAt: CrashPoint | undefined
}

const AMOUNT_FLAGS = { 'min-stake': 'min_stake', 'deposit-cap': 'deposit_cap', 'max-draw-per-keeper': 'max_draw_per_keeper' } as const
const SECONDS_FLAGS = { 'slash-timeout': 'slash_timeout', 'withdraw-cooldown': 'withdraw_cooldown', 'profit-unlock-secs': 'profit_unlock_secs' } as const
const BPS_FLAGS = { 'slash-rate-bps': 'slash_rate_bps', 'keeper-fee-bps': 'keeper_fee_bps' } as const

function contractFlag(flag: string, raw: string): string {
  if (!StrKey.isValidContract(raw)) throw new UsageError(`--${flag} must be a contract address (C..., 56 characters), got ${JSON.stringify(raw)}`)
  return raw
}

function httpUrl(raw: string): string {
  if (!URL.canParse(raw) || !/^https?:$/.test(new URL(raw).protocol)) throw new UsageError(`--rpc-url must be an http(s) URL, got ${JSON.stringify(raw)}`)
  return raw
}

function secretKey(text: string, from: string): Keypair {
  const s = text.trim()
  if (!StrKey.isValidEd25519SecretSeed(s)) throw new UsageError(`${from}: not a Stellar secret key (S..., 56 characters)`)
  return Keypair.fromSecret(s)
}

function readSecretFile(path: string): Keypair {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    throw new UsageError(`--secret-file ${path}: cannot read the file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`)
  }
  return secretKey(text, `--secret-file ${path}`)
}

function crashPoint(raw: string | undefined): CrashPoint | undefined {
  if (raw === undefined || raw.trim() === '') return undefined
  const [when, step] = raw.trim().split(':')
  if ((when !== 'after' && when !== 'sent') || !(STEP_NAMES as readonly string[]).includes(step ?? '')) {
    throw new UsageError(`DEPLOY_CRASH_AT must be after:<step> or sent:<step> with a step of ${STEP_NAMES.join(', ')}; got ${JSON.stringify(raw)}`)
  }
  return raw.trim() as CrashPoint
}

/** The flags parse accepts (the usage names each). */
export const DEPLOY_FLAGS = {
  network: { type: 'string' },
  'rpc-url': { type: 'string' },
  preset: { type: 'string' },
  'min-stake': { type: 'string' },
  'slash-timeout': { type: 'string' },
  'slash-rate-bps': { type: 'string' },
  'deposit-cap': { type: 'string' },
  'withdraw-cooldown': { type: 'string' },
  'max-draw-per-keeper': { type: 'string' },
  'keeper-fee-bps': { type: 'string' },
  'profit-unlock-secs': { type: 'string' },
  'lending-pool': { type: 'string' },
  'dex-router': { type: 'string', multiple: true },
  usdc: { type: 'string' },
  'secret-file': { type: 'string' },
  out: { type: 'string' },
  salt: { type: 'string' },
  'wasm-dir': { type: 'string' },
  'allow-mainnet': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies ParseArgsOptionsConfig

/**
 * Parses the arguments after `npm run deploy --` and the environment.
 * @throws UsageError
 */
export function parseOptions(argv: readonly string[], env: Record<string, string | undefined>, cwd = process.cwd()): DeployOptions | 'help' {
  const values = parseFlags(
    argv,
    DEPLOY_FLAGS,
    (message) => new UsageError(message),
  )
  if (values.help) return 'help'

  const network = values.network
  if (network === undefined) throw new UsageError('give --network testnet or --network local')
  if (!(NETWORKS as readonly string[]).includes(network)) throw new UsageError(`--network must be testnet or local, got ${JSON.stringify(network)}`)

  const preset = values.preset ?? 'testnet'
  if (!isPresetName(preset)) throw new UsageError(`--preset must be one of ${Object.keys(PRESETS).join(', ')}, got ${JSON.stringify(preset)}`)
  const parameters: ServiceParameters = { ...PRESETS[preset].parameters }
  for (const [flag, key] of Object.entries(AMOUNT_FLAGS)) {
    const raw = values[flag as keyof typeof AMOUNT_FLAGS]
    if (raw === undefined) continue
    const v = parseUsdc(raw)
    if (v === undefined || v <= 0n) throw new UsageError(`--${flag} must be a USDC amount above 0 with at most 7 decimals (e.g. 100 or 0.5), got ${JSON.stringify(raw)}`)
    parameters[key] = v
  }
  for (const [flag, key] of Object.entries(SECONDS_FLAGS)) {
    const raw = values[flag as keyof typeof SECONDS_FLAGS]
    if (raw === undefined) continue
    const { min, max } = PARAMETER_BOUNDS[key]
    if (!/^\d+$/.test(raw) || BigInt(raw) < min || BigInt(raw) > max) throw new UsageError(`--${flag} must be a whole number of seconds ${boundsText(key)}, got ${JSON.stringify(raw)}`)
    parameters[key] = BigInt(raw)
  }
  for (const [flag, key] of Object.entries(BPS_FLAGS)) {
    const raw = values[flag as keyof typeof BPS_FLAGS]
    if (raw === undefined) continue
    const { min, max } = PARAMETER_BOUNDS[key]
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new UsageError(`--${flag} must be an integer ${boundsText(key)}, got ${JSON.stringify(raw)}`)
    parameters[key] = Number(raw)
  }
  const parametersGiven = values.preset !== undefined || PARAMETER_NAMES.some((k) => values[k.replaceAll('_', '-') as 'min-stake'] !== undefined)

  if (values.usdc !== undefined) contractFlag('usdc', values.usdc)
  const pool = values['lending-pool'] === undefined ? undefined : contractFlag('lending-pool', values['lending-pool'])
  const routers = (values['dex-router'] ?? []).map((r) => contractFlag('dex-router', r))
  const venues = pool === undefined && routers.length === 0 ? undefined : { pool, routers: [...new Set(routers)] }
  if (values.salt !== undefined && !/^[A-Za-z0-9._-]{1,64}$/.test(values.salt)) {
    throw new UsageError(`--salt must be 1-64 letters, digits, '.', '_' or '-', got ${JSON.stringify(values.salt)}`)
  }

  const fromEnv = env.DEPLOYER_SECRET !== undefined && env.DEPLOYER_SECRET.trim() !== ''
  if (fromEnv && values['secret-file'] !== undefined) throw new UsageError('give the deployer key once: --secret-file or DEPLOYER_SECRET, not both')
  const deployer =
    values['secret-file'] !== undefined
      ? { keypair: readSecretFile(values['secret-file']), from: `--secret-file ${values['secret-file']}` }
      : fromEnv
        ? { keypair: secretKey(env.DEPLOYER_SECRET!, 'DEPLOYER_SECRET'), from: 'DEPLOYER_SECRET' }
        : undefined

  return {
    network: network as NetworkName,
    rpcUrl: values['rpc-url'] === undefined ? undefined : httpUrl(values['rpc-url']),
    preset,
    parameters,
    parametersGiven,
    venues,
    usdc: values.usdc,
    deployer,
    out: resolve(cwd, values.out ?? join('deployments', `${network}.json`)),
    salt: values.salt,
    wasmDir: values['wasm-dir'] === undefined ? join(REPO_ROOT, 'target', 'wasm') : resolve(cwd, values['wasm-dir']),
    allowMainnet: values['allow-mainnet'],
    crashAt: crashPoint(env.DEPLOY_CRASH_AT),
  }
}
