/**
 * The deployments file while and after `npm run deploy` writes it: the src/chain/deployments.ts
 * format (network, service, assets.usdc) plus a `deploy` section recording the plan (preset,
 * parameters, deployer, salt, USDC source), every step done and every transaction sent. The file
 * is rewritten (atomically: a temporary file renamed over it) after each step, so a rerun after a
 * crash knows how far the last run got. `service` is written only once the deployment is complete
 * and verified: until then the keeper, the dashboard and the auditor refuse the file.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { z } from 'zod'
import { UsageError } from './errors.js'
import { STEP_NAMES } from './stepNames.js'

export { STEP_NAMES, type StepName } from './stepNames.js'

const contractId = z.string().regex(/^C[A-Z2-7]{55}$/, 'must be a contract address (C…)')
const accountId = z.string().regex(/^G[A-Z2-7]{55}$/, 'must be an account address (G…)')
const hex32 = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 hex digits')
const decimal = z.string().regex(/^\d+$/, 'must be a decimal integer string')

const transactionSchema = z.object({
  step: z.enum(STEP_NAMES),
  hash: hex32,
  ledger: z.number().int().nonnegative(),
  /** Stroops the network charged. */
  feeCharged: decimal,
})
export type RecordedTransaction = z.infer<typeof transactionSchema>

const stepSchema = z.looseObject({
  /** When the step was recorded done (ISO time). */
  at: z.string(),
  /** What it did or found, in words. */
  detail: z.string(),
  /** The transaction it sent, if any. */
  tx: hex32.optional(),
})

/**
 * The record's format. 2: the vault's keeper fee and profit unlock period, the executor code the
 * registry deploys, the registry's venues. A version 1 record is of the contracts before those.
 */
export const DEPLOY_FILE_VERSION = 2

export const deploySectionSchema = z.looseObject({
  version: z.literal(DEPLOY_FILE_VERSION),
  status: z.enum(['in-progress', 'complete']),
  preset: z.string(),
  parameters: z.object({
    min_stake: decimal,
    slash_timeout: decimal,
    slash_rate_bps: z.number().int(),
    deposit_cap: decimal,
    withdraw_cooldown: decimal,
    max_draw_per_keeper: decimal,
    keeper_fee_bps: z.number().int(),
    profit_unlock_secs: decimal,
  }),
  deployer: accountId,
  /** Where the deployer's secret was written when the deployment created the deployer. */
  deployerSecretFile: z.string().optional(),
  /** The contracts' salts derive from it: the same deployer and salt give the same addresses. */
  salt: z.string(),
  usdcSource: z.enum(['flag', 'preset', 'created']),
  usdc: contractId.optional(),
  /** The pool and DEX routers the registry's venues are set to (empty when the deployment knows none). */
  venues: z.object({ pool: contractId.optional(), routers: z.array(contractId) }),
  wasm: z.object({ vault: hex32.optional(), executor: hex32.optional(), registry: hex32.optional() }),
  contracts: z.object({ vault: contractId.optional(), registry: contractId.optional() }),
  steps: z.partialRecord(z.enum(STEP_NAMES), stepSchema),
  transactions: z.array(transactionSchema),
  startedAt: z.string(),
  completedAt: z.string().optional(),
  /** Time spent by the runs that sent or checked steps, summed over reruns (ms). */
  elapsedMs: z.number().nonnegative(),
})
export type DeploySection = z.infer<typeof deploySectionSchema>

const fileSchema = z.looseObject({
  network: z.looseObject({
    name: z.string().optional(),
    rpcUrl: z.string(),
    networkPassphrase: z.string(),
    friendbotUrl: z.string().optional(),
  }),
  /** Written once the deployment is complete and verified. */
  service: z.looseObject({ vault: contractId, registry: contractId }).optional(),
  assets: z.looseObject({ usdc: z.looseObject({ code: z.string(), issuer: accountId, contract: contractId }).optional() }).optional(),
  deploy: deploySectionSchema,
})
export type DeployFile = z.infer<typeof fileSchema>

/**
 * The file at `path` as a deployment in progress or done; undefined when there is none.
 * @throws UsageError when it exists but is not one (unreadable, not JSON, no valid deploy section)
 */
export function readDeployFile(path: string): DeployFile | undefined {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw new UsageError(`${path}: cannot read the file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (err) {
    throw new UsageError(`${path}: not JSON (${(err as Error).message}); move it away or choose another --out`)
  }
  if (typeof json !== 'object' || json === null || !('deploy' in json)) {
    throw new UsageError(`${path} exists and was not written by npm run deploy (no deploy section); move it away or choose another --out`)
  }
  const version = (json.deploy as { version?: unknown } | null)?.version
  if (typeof version === 'number' && version < DEPLOY_FILE_VERSION) {
    throw new UsageError(
      `${path} records a deployment of version ${version}, contracts older than these (no keeper fee, profit unlock or registry-deployed executors): deploy the current contracts with another --out, or move the file away`,
    )
  }
  const parsed = fileSchema.safeParse(json)
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
    throw new UsageError(`${path}: not a deployment record (${problems.join('; ')}); move it away or choose another --out`)
  }
  return parsed.data
}

/** Writes the file: a temporary file next to it, renamed over it (a crash leaves the old or the new one). */
export function writeDeployFile(path: string, file: DeployFile): void {
  mkdirSync(dirname(path), { recursive: true })
  // network, service and assets first, the deploy record last; other fields are kept.
  const { network, service, assets, deploy, ...rest } = file
  const ordered = { network, ...(service === undefined ? {} : { service }), ...(assets === undefined ? {} : { assets }), ...rest, deploy }
  const tmp = `${path}.${process.pid}.tmp`
  writeFileSync(tmp, `${JSON.stringify(ordered, null, 2)}\n`)
  renameSync(tmp, path)
}
