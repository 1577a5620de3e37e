/**
 * The deployment: settle the plan (plan.ts), then every step in order (setupSteps.ts,
 * serviceSteps.ts), each checked on the chain before it runs, each recorded in the deployments
 * file as soon as it is done. A complete file is verified on the chain and left as it is.
 *
 * @example
 * import { deploy, parseOptions } from './index.js'
 * const opts = parseOptions(['--network', 'local', '--rpc-url', sandbox.rpcUrl, '--out', 'target/local.json'], {})
 * const outcome = await deploy(opts as DeployOptions, { log: console.log })
 * outcome.file.service // { vault: 'C…', registry: 'C…' }
 */
import { parametersToJson } from './preset.js'
import type { Step, StepContext } from './context.js'
import { formatXlm } from './context.js'
import { StepFailedError, UsageError } from './errors.js'
import { venueList, type CrashPoint, type DeployOptions } from './options.js'
import { preparePlan, type Plan } from './plan.js'
import { serviceSteps } from './serviceSteps.js'
import { setupSteps } from './setupSteps.js'
import { DEPLOY_FILE_VERSION, writeDeployFile, type DeployFile, type RecordedTransaction } from './state.js'

/** Every step, in the order they run. */
export const STEPS: readonly Step[] = [...setupSteps, ...serviceSteps]

export interface DeployIo {
  log(line: string): void
  /** Ends the process at a crash point (the command line: SIGKILL). Default: throws. */
  crash?: (point: CrashPoint) => void
  now?: () => number
}

export interface DeployOutcome {
  file: DeployFile
  plan: Plan
  /** Transactions this run sent. */
  sent: RecordedTransaction[]
  /** The file was complete before this run (it was verified and not changed). */
  alreadyComplete: boolean
  /** Whether this run wrote the file. */
  wrote: boolean
  elapsedMs: number
}

function venuesJson(plan: Plan): DeployFile['deploy']['venues'] {
  return { ...(plan.venues.pool === undefined ? {} : { pool: plan.venues.pool }), routers: [...plan.venues.routers] }
}

function newFile(plan: Plan, at: string): DeployFile {
  const { network } = plan
  return {
    network: {
      name: network.name,
      rpcUrl: network.rpcUrl,
      networkPassphrase: network.passphrase,
      ...(network.friendbotUrl === undefined ? {} : { friendbotUrl: network.friendbotUrl }),
    },
    deploy: {
      version: DEPLOY_FILE_VERSION,
      status: 'in-progress',
      preset: plan.preset,
      parameters: parametersToJson(plan.parameters) as DeployFile['deploy']['parameters'],
      deployer: plan.deployer.publicKey,
      ...(plan.deployer.secretFile === undefined ? {} : { deployerSecretFile: plan.deployer.secretFile }),
      salt: plan.salt,
      usdcSource: plan.usdc.source,
      ...(plan.usdc.contract === undefined ? {} : { usdc: plan.usdc.contract }),
      venues: venuesJson(plan),
      wasm: {},
      contracts: {},
      steps: {},
      transactions: [],
      startedAt: at,
      elapsedMs: 0,
    },
  }
}

/**
 * Deploys (or resumes, or verifies) the vault and the registry (with the executor code it
 * deploys, and its venues) as `opts` asks.
 * @throws UsageError when it cannot start as asked (nothing sent); StepFailedError when a step fails (the file holds what was done)
 */
export async function deploy(opts: DeployOptions, io: DeployIo): Promise<DeployOutcome> {
  const now = io.now ?? Date.now
  const started = now()
  const crash = (point: CrashPoint) => {
    if (opts.crashAt !== point) return
    if (io.crash) io.crash(point)
    else throw new Error(`crash injected at ${point}`)
  }
  const plan = await preparePlan(opts)
  const { network } = plan
  io.log(`network ${network.name}: "${network.passphrase}" at ${network.rpcUrl}`)
  io.log(plan.deployer.note)
  for (const note of plan.notes) io.log(note)

  const existing = plan.existing
  const alreadyComplete = existing?.deploy.status === 'complete'
  const file: DeployFile = existing ?? newFile(plan, new Date(started).toISOString())
  const elapsedBefore = file.deploy.elapsedMs
  let dirty = existing === undefined
  if (file.network.rpcUrl !== network.rpcUrl) {
    file.network.rpcUrl = network.rpcUrl
    dirty = true
  }
  if (venueList({ pool: file.deploy.venues.pool, routers: file.deploy.venues.routers }).join() !== venueList(plan.venues).join()) {
    // Other venues than the file's (the registry admin may change them): a new set-venues step.
    file.deploy.venues = venuesJson(plan)
    delete file.deploy.steps['set-venues']
    dirty = true
  }
  let wrote = false
  const save = () => {
    file.deploy.elapsedMs = elapsedBefore + (now() - started)
    writeDeployFile(plan.out, file)
    wrote = true
    dirty = false
  }
  if (existing === undefined) save()
  else io.log(alreadyComplete ? `${plan.out}: complete; verifying it on the chain` : `${plan.out}: resuming (${Object.keys(existing.deploy.steps).length} of ${STEPS.length} steps recorded)`)

  const ctx: StepContext = { plan, file, wasmDir: opts.wasmDir }
  const sent: RecordedTransaction[] = []
  for (const [i, step] of STEPS.entries()) {
    const label = `[${i + 1}/${STEPS.length}] ${step.name}`
    const recorded = file.deploy.steps[step.name]
    let result
    let ran = false
    try {
      result = await step.check(ctx)
      if (result === undefined) {
        if (recorded !== undefined) io.log(`${label}: recorded as done, but the chain does not show it: doing it again`)
        ran = true
        result = await step.run(ctx)
        crash(`sent:${step.name}`)
      }
    } catch (err) {
      if (dirty) save()
      if (err instanceof UsageError) throw err
      throw new StepFailedError(step.name, err)
    }
    const tx = result.sent
    const how = tx ? ` (tx ${tx.hash}, ledger ${tx.ledger}, fee ${formatXlm(tx.feeCharged)})` : ran || recorded !== undefined ? '' : ' (found on the chain, not recorded yet)'
    io.log(`${label}: ${result.detail}${how}`)
    if (recorded === undefined || tx !== undefined) {
      file.deploy.steps[step.name] = { at: new Date(now()).toISOString(), detail: result.detail, ...(tx ? { tx: tx.hash } : {}) }
      dirty = true
    }
    if (tx !== undefined) {
      const entry = { step: step.name, hash: tx.hash, ledger: tx.ledger, feeCharged: tx.feeCharged.toString() }
      file.deploy.transactions.push(entry)
      sent.push(entry)
    }
    if (dirty) save()
    crash(`after:${step.name}`)
  }

  const { vault, registry } = file.deploy.contracts
  if (file.deploy.status !== 'complete' || file.service?.vault !== vault || file.service?.registry !== registry) {
    file.service = { vault: vault!, registry: registry! }
    file.deploy.status = 'complete'
    file.deploy.completedAt = new Date(now()).toISOString()
    dirty = true
  }
  if (dirty) save()
  return { file, plan, sent, alreadyComplete, wrote, elapsedMs: now() - started }
}
