/**
 * Starts a local sandbox node (sandbox/ Rust binary) and hands back an rpc.Server for it.
 *
 * @example
 * import { startSandbox } from '../sandbox/ts/launch.js'
 * const sb = await startSandbox({ manual: true })
 * await sb.server.requestAirdrop(keypair.publicKey())
 * await sb.closeLedgers(1)
 * await sb.stop()
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { rpc } from '@stellar/stellar-sdk'
import { sandboxHttpClient, type SandboxHttpClient } from './httpClient.js'

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const SANDBOX_BINARY = join(REPO_ROOT, 'target', 'sandbox', 'sandbox')
export const DEFAULT_PASSPHRASE = 'Standalone Network ; February 2017'

export interface StartSandboxOptions {
  /** 0 = any free port (the default, so suites can run in parallel). */
  port?: number
  /** Close ledgers only on closeLedgers() / friendbot. */
  manual?: boolean
  /** Seconds between ledger closes (fractions allowed); default 1. */
  ledgerIntervalSeconds?: number
  /** Deterministic PRNG seeds and a virtual clock. */
  seed?: number | bigint
  /** State file loaded at start (if it exists) and written on stop. */
  state?: string
  networkPassphrase?: string
  /** Close a ledger as soon as a transaction is accepted (clients see it applied at once). */
  instant?: boolean
  /**
   * Order an ordinary close applies its transactions in: 'core' (the default, stellar-core's:
   * classic then Soroban, each account's transactions in sequence batches shuffled by the tx
   * set's hash) or 'arrival' (the order they were sent in).
   */
  applyOrder?: 'core' | 'arrival'
  /**
   * What the queue admits from one source account: 'strict' (the default, stellar-core's: one
   * pending transaction per account, another answered TRY_AGAIN_LATER until a ledger takes the
   * first) or 'relaxed' (several, in sequence order, which the network refuses).
   */
  queueRules?: 'strict' | 'relaxed'
  /**
   * Answer an identical simulateTransaction against an unchanged state from the node's
   * simulation memo (default true); false passes --no-simulation-memo (A/B measurement).
   */
  simulationMemo?: boolean
  /** Extra command-line flags for the node. */
  extraArgs?: string[]
}

export interface Sandbox {
  rpcUrl: string
  friendbotUrl: string
  networkPassphrase: string
  server: rpc.Server
  /** Closes `n` ledgers (default 1) and returns the latest ledger sequence. */
  closeLedgers(n?: number): Promise<number>
  /** Moves the ledger clock forward. */
  advanceTime(seconds: number): Promise<void>
  /** Calls any JSON-RPC method (cheats included) and returns its result. */
  call<T = unknown>(method: string, params?: unknown): Promise<T>
  stop(): Promise<void>
}

/**
 * `sandbox_closeLedgers` answer for one ledger (`{count: 1}`, `{count: 1, arrived}`, `{order}`);
 * hashes are hex, as getTransaction takes them.
 */
export interface ClosedLedger {
  latestLedger: number
  /** Transactions applied, in apply order. */
  applied: string[]
  /** Pending transactions the close removed from the queue (timed out, no longer valid, expired). */
  dropped: string[]
  /** Inclusion fee per operation charged, [classic, Soroban]. */
  baseFee: [number, number]
  /** Whether a phase left a transaction out for lack of room (surge pricing), [classic, Soroban]. */
  surged: [boolean, boolean]
  /** Transactions still pending after the close. */
  held: number
}

/** `sandbox_forkStatus` of a node started with `--fork-url` (null otherwise). */
export interface ForkStatus {
  url: string
  forkLedger: number
  /** "upstream", or testnet's and why. */
  settings: string | null
  requests: number
  /** Keys asked of the upstream, failed asks included. */
  keysFetched: number
  cacheHits: number
  cachedEntries: number
  errors: number
}

export class SandboxError extends Error {
  override name = 'SandboxError'
}

function newestMtime(path: string): number {
  const st = statSync(path)
  if (!st.isDirectory()) return st.mtimeMs
  let newest = st.mtimeMs
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)))
  return newest
}

/** Builds target/sandbox/sandbox when it is missing or older than sandbox/src, sandbox/build.rs or sandbox/Cargo.toml. */
export function ensureSandboxBinary(): string {
  const sources = Math.max(...['src', 'build.rs', 'Cargo.toml'].map((p) => newestMtime(join(REPO_ROOT, 'sandbox', p))))
  if (existsSync(SANDBOX_BINARY) && statSync(SANDBOX_BINARY).mtimeMs >= sources) return SANDBOX_BINARY
  const r = spawnSync('cargo', ['build', '--profile', 'sandbox', '-p', 'sandbox'], { cwd: REPO_ROOT, stdio: ['ignore', 'inherit', 'inherit'] })
  if (r.status !== 0) throw new SandboxError(`cargo build --profile sandbox -p sandbox failed (exit ${r.status})`)
  return SANDBOX_BINARY
}

function argsFor(opts: StartSandboxOptions): string[] {
  // The node exits when this process goes away (its stdin pipe closes), even on a crash.
  const args = ['--port', String(opts.port ?? 0), '--quiet', '--exit-on-stdin-close']
  if (opts.manual) args.push('--manual')
  if (opts.instant) args.push('--instant')
  if (opts.applyOrder !== undefined) args.push('--apply-order', opts.applyOrder)
  if (opts.queueRules !== undefined) args.push('--queue-rules', opts.queueRules)
  if (opts.simulationMemo === false) args.push('--no-simulation-memo')
  if (opts.ledgerIntervalSeconds !== undefined) args.push('--ledger-interval', String(opts.ledgerIntervalSeconds))
  if (opts.seed !== undefined) args.push('--seed', String(opts.seed))
  if (opts.state !== undefined) args.push('--state', opts.state)
  if (opts.networkPassphrase !== undefined) args.push('--network-passphrase', opts.networkPassphrase)
  if (opts.extraArgs) args.push(...opts.extraArgs)
  return args
}

function waitForReady(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolveUrl, reject) => {
    let out = ''
    let err = ''
    const timer = setTimeout(() => reject(new SandboxError(`sandbox not ready after ${timeoutMs} ms: ${err}`)), timeoutMs)
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString()
    })
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /sandbox ready (\S+)/.exec(out)
      if (m?.[1]) {
        clearTimeout(timer)
        resolveUrl(m[1])
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new SandboxError(`sandbox exited with code ${code} before it was ready: ${err.trim()}`))
    })
  })
}

export async function startSandbox(opts: StartSandboxOptions = {}): Promise<Sandbox> {
  const bin = ensureSandboxBinary()
  const child = spawn(bin, argsFor(opts), { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', process.env.SANDBOX_DEBUG ? 'inherit' : 'pipe'] })
  const rpcUrl = await waitForReady(child, 30_000)
  const base = rpcUrl.replace(/\/rpc$/, '')
  let id = 0
  const call = async <T>(method: string, params?: unknown): Promise<T> => {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, ...(params === undefined ? {} : { params }) }),
    })
    const body = (await res.json()) as { result?: T; error?: { code: number; message: string } }
    if (body.error) throw new SandboxError(`${method}: ${body.error.message} (code ${body.error.code})`)
    return body.result as T
  }
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  const server = new rpc.Server(rpcUrl, { allowHttp: true })
  const http = sandboxHttpClient()
  // rpc.Server's documented client slot: kept-alive node:http instead of fetch (httpClient.ts).
  ;(server as unknown as { httpClient: SandboxHttpClient }).httpClient = http
  // Without --network-passphrase the node picks its own: a fork's upstream's, a snapshot's
  // public network, else the standalone one. Ask it rather than assume.
  let networkPassphrase = opts.networkPassphrase
  if (networkPassphrase === undefined) {
    try {
      networkPassphrase = (await call<{ passphrase: string }>('getNetwork')).passphrase
    } catch (err) {
      http.close()
      child.kill('SIGTERM')
      throw err
    }
  }
  return {
    rpcUrl,
    friendbotUrl: `${base}/friendbot`,
    networkPassphrase,
    server,
    call,
    async closeLedgers(n = 1) {
      const r = await call<{ latestLedger: number }>('sandbox_closeLedgers', { count: n })
      return r.latestLedger
    },
    async advanceTime(seconds: number) {
      await call('sandbox_advanceTime', { seconds })
    },
    async stop() {
      http.close()
      if (child.exitCode !== null) return
      child.kill('SIGTERM')
      await exited
    },
  }
}
