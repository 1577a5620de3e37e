/**
 * The auditor's command line: flags, the addresses file and the depositors list, validated into
 * one `CliOptions`. Every problem is a `UsageError` with one line saying what is wrong; nothing
 * is read from the chain here.
 */
import { readFileSync } from 'node:fs'
import { StrKey } from '@stellar/stellar-sdk'
import { DeploymentsError, type Deployments } from '../../chain/deployments.js'
import { readDeploymentsFile } from '../../chain/deploymentsFile.js'
import type { ParseArgsOptionsConfig } from 'node:util'
import { parseFlags } from '../../cli/flags.js'

/** Bad flags, an unreadable or malformed file: the audit cannot start (exit 2). */
export class UsageError extends Error {
  override name = 'UsageError'
}

export const USAGE = `usage:
  npm run audit -- --addresses <file> [options]
  npm run audit -- --rpc-url <url> --vault <C...> --registry <C...> [--usdc <C...>] [options]

options:
  --from-ledger N          first ledger of vault events to read (default: the oldest the node keeps)
  --depositors <file>      more depositor addresses to check, one G... per line (# comments)
  --rpc-header 'Name: v'   an HTTP header for every RPC request (repeatable), e.g. an API key
  --concurrency N          simulations in flight (default 8)
  --json                   print the report as one JSON document (one per line with --watch)
  --watch                  keep auditing as ledgers close, until Ctrl-C
  --interval-ledgers N     with --watch: audit every N ledgers (default 1)
  --metrics-port P         with --watch: serve Prometheus metrics on P (0 picks a free port)
  --metrics-host H         with --metrics-port: address to bind (default 0.0.0.0)

  -h, --help               this text

exit status: 0 every invariant holds (warnings allowed), 1 an invariant is broken,
             2 the audit could not run (bad input, or the chain could not be read)

example:
  npm run audit -- --addresses target/demo/addresses.json --watch --metrics-port 9464`

export interface CliOptions {
  rpcUrl: string
  rpcHeaders: Record<string, string>
  vault: string
  registry: string
  usdc?: string
  fromLedger?: number
  depositors: string[]
  concurrency?: number
  json: boolean
  watch?: { intervalLedgers: number; metrics?: { port: number; host: string } }
  /** Where the addresses came from, for the report header. */
  source: string
}

/**
 * The addresses file: a deployments file (src/chain/deployments: `npm run deploy`'s
 * deployments/<network>.json or a world's addresses file). The auditor takes `network.rpcUrl`,
 * `service.vault`, `service.registry` and `assets.usdc.contract` from it.
 */
function readAddressesFile(path: string): Deployments {
  try {
    return readDeploymentsFile(path)
  } catch (err) {
    // DeploymentsError's message is "<file>: <problems>".
    if (err instanceof DeploymentsError) throw new UsageError(`--addresses ${err.message}`)
    throw err
  }
}

function readDepositors(path: string): string[] {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    throw new UsageError(`--depositors ${path}: cannot read the file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`)
  }
  const out: string[] = []
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/#.*/, '').trim()
    if (line === '') return
    if (!StrKey.isValidEd25519PublicKey(line) && !StrKey.isValidContract(line))
      throw new UsageError(`--depositors ${path}:${i + 1}: ${JSON.stringify(line)} is not a G... or C... address`)
    out.push(line)
  })
  return out
}

function integer(flag: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined
  const v = Number(raw)
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(v) || v < min || v > max)
    throw new UsageError(`--${flag} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`)
  return v
}

function contractFlag(flag: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined
  if (!StrKey.isValidContract(raw)) throw new UsageError(`--${flag} must be a contract address (C..., 56 characters), got ${JSON.stringify(raw)}`)
  return raw
}

function rpcUrl(raw: string, from: string): string {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new UsageError(`${from}: ${JSON.stringify(raw)} is not a URL`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${from}: the RPC URL must be http:// or https://, got ${JSON.stringify(raw)}`)
  return raw
}

function headers(list: string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  for (const h of list ?? []) {
    const colon = h.indexOf(':')
    const name = colon > 0 ? h.slice(0, colon).trim() : ''
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError(`--rpc-header ${JSON.stringify(h)}: expected 'Name: value'`)
    out[name] = h.slice(colon + 1).trim()
  }
  return out
}

/** The flags parse accepts (the usage names each). */
export const AUDIT_FLAGS = {
  addresses: { type: 'string' },
  'rpc-url': { type: 'string' },
  'rpc-header': { type: 'string', multiple: true },
  vault: { type: 'string' },
  registry: { type: 'string' },
  usdc: { type: 'string' },
  'from-ledger': { type: 'string' },
  depositors: { type: 'string' },
  concurrency: { type: 'string' },
  json: { type: 'boolean', default: false },
  watch: { type: 'boolean', default: false },
  'interval-ledgers': { type: 'string' },
  'metrics-port': { type: 'string' },
  'metrics-host': { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies ParseArgsOptionsConfig

/** Parses the arguments after `npm run audit --`. @throws UsageError */
export function parseCli(argv: readonly string[]): CliOptions | 'help' {
  const values = parseFlags(
    argv,
    AUDIT_FLAGS,
    (message) => new UsageError(message),
  )
  if (values.help) return 'help'

  const flags = { vault: contractFlag('vault', values.vault), registry: contractFlag('registry', values.registry), usdc: contractFlag('usdc', values.usdc) }
  const file = values.addresses === undefined ? undefined : readAddressesFile(values.addresses)
  const rawUrl = values['rpc-url'] ?? file?.network.rpcUrl
  if (rawUrl === undefined) throw new UsageError('give --addresses <file>, or --rpc-url with --vault and --registry')
  const vault = flags.vault ?? file?.service.vault
  const registry = flags.registry ?? file?.service.registry
  if (vault === undefined || registry === undefined) throw new UsageError(`give ${vault === undefined ? '--vault' : '--registry'} (or --addresses <file>)`)
  const usdc = flags.usdc ?? file?.assets.usdc.contract

  if (!values.watch) {
    for (const flag of ['interval-ledgers', 'metrics-port', 'metrics-host'] as const)
      if (values[flag] !== undefined) throw new UsageError(`--${flag} needs --watch`)
  } else if (values['metrics-host'] !== undefined && values['metrics-port'] === undefined) throw new UsageError('--metrics-host needs --metrics-port')

  const metricsPort = integer('metrics-port', values['metrics-port'], 0, 65_535)
  const opts: CliOptions = {
    rpcUrl: rpcUrl(rawUrl, values['rpc-url'] !== undefined ? '--rpc-url' : `--addresses ${values.addresses} network.rpcUrl`),
    rpcHeaders: headers(values['rpc-header']),
    vault,
    registry,
    depositors: values.depositors === undefined ? [] : readDepositors(values.depositors),
    json: values.json,
    source: values.addresses ?? 'the command line',
  }
  if (usdc !== undefined) opts.usdc = usdc
  const fromLedger = integer('from-ledger', values['from-ledger'], 1, 2 ** 32 - 1)
  if (fromLedger !== undefined) opts.fromLedger = fromLedger
  const concurrency = integer('concurrency', values.concurrency, 1, 256)
  if (concurrency !== undefined) opts.concurrency = concurrency
  if (values.watch) {
    opts.watch = { intervalLedgers: integer('interval-ledgers', values['interval-ledgers'], 1, 1_000_000) ?? 1 }
    if (metricsPort !== undefined) opts.watch.metrics = { port: metricsPort, host: values['metrics-host'] ?? '0.0.0.0' }
  }
  return opts
}
