/**
 * Helpers of the deploy suites: the command as a child process (so a crash point really kills
 * it), in-process runs, and the deployer's transaction history as the node recorded it.
 */
import { spawn } from 'node:child_process'
import { TransactionBuilder, xdr, type rpc } from '@stellar/stellar-sdk'
import { REPO_ROOT } from '../../sandbox/ts/launch.js'
import { runDeployCli } from './run.js'

export interface Ran {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

function cleanEnv(env: Record<string, string>): Record<string, string | undefined> {
  const { DEPLOYER_SECRET: _s, DEPLOY_CRASH_AT: _c, ...rest } = process.env
  return { ...rest, ...env }
}

/** `tsx src/deploy/cli.ts ...args` with `env` added to this process's (less any DEPLOYER_SECRET / DEPLOY_CRASH_AT of its own). */
export function deployProcess(args: readonly string[], env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/deploy/cli.ts', ...args], { cwd: REPO_ROOT, env: cleanEnv(env) })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('error', reject)
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }))
  })
}

/** The same command in this process (faster; no crash points). */
export async function deployInProcess(args: readonly string[], env: Record<string, string> = {}): Promise<Ran> {
  let stdout = ''
  let stderr = ''
  const code = await runDeployCli(args, { out: (t) => (stdout += t), err: (t) => (stderr += t), env: cleanEnv(env), cwd: REPO_ROOT })
  return { code, signal: null, stdout, stderr }
}

/** One transaction of an account: its status and what each operation did ("upload", "create", "sac", "invoke:<fn>", or the classic type). */
export interface HistoryEntry {
  hash: string
  status: string
  ops: string[]
}

function describeOp(op: xdr.Operation): string {
  const body = op.body
  if (body.type !== 'invokeHostFunction') return body.type
  const fn = body.invokeHostFunctionOp.hostFunction
  switch (fn.type) {
    case 'hostFunctionTypeUploadContractWasm':
      return 'upload'
    case 'hostFunctionTypeInvokeContract':
      return `invoke:${fn.invokeContract.functionName.toString()}`
    case 'hostFunctionTypeCreateContractV2':
      return fn.createContractV2.contractIdPreimage.type === 'contractIdPreimageFromAsset' ? 'sac' : 'create'
    default:
      return fn.createContract.contractIdPreimage.type === 'contractIdPreimageFromAsset' ? 'sac' : 'create'
  }
}

/** Every transaction `source` sent that the node still keeps, oldest first. */
export async function transactionsOf(server: rpc.Server, networkPassphrase: string, source: string): Promise<HistoryEntry[]> {
  const out: HistoryEntry[] = []
  const { oldestLedger } = await server.getHealth()
  let page = await server.getTransactions({ startLedger: oldestLedger, pagination: { limit: 200 } })
  for (;;) {
    for (const t of page.transactions) {
      const tx = TransactionBuilder.fromXdr(t.envelopeXdr, networkPassphrase)
      if ('innerTransaction' in tx || tx.source !== source) continue
      out.push({ hash: t.txHash, status: t.status, ops: xdr.expectUnionVariant(tx.toEnvelope(), 'envelopeTypeTx').v1.tx.operations.map(describeOp) })
    }
    if (page.transactions.length < 200) return out
    page = await server.getTransactions({ pagination: { cursor: page.cursor, limit: 200 } })
  }
}
