/**
 * The service's steps: deploy the vault and the registry (at the addresses the deployer and the
 * salt determine; the registry with the hash of the executor code it deploys), link them
 * (`vault.set_registry`, `registry.set_vault`, each once), set the registry's venues (the lending
 * pool and DEX routers approved executors may use) when the plan names any, and read everything
 * back. A contract found at its address must hold exactly the planned parameters.
 */
import { hash, xdr } from '@stellar/stellar-sdk'
import { ContractConflictError, ensureContractDeployed } from '../chain/deployOnce.js'
import { contractExecutable, contractIdFor } from '../chain/ledgerEntries.js'
import { ContractError, addr, i128, invoke, read, struct, u32, u64, toRegistryConfig, toVaultConfig } from '../chain/index.js'
import { venueList } from './options.js'
import { sentTransaction } from '../chain/deployOnce.js'
import { signer, type Step, type StepContext, type StepResult } from './context.js'
import type { ServiceParameters } from './preset.js'

type Service = 'vault' | 'registry'

/** The 32-byte salt of a service contract: the same label and deployer give the same address. */
export function serviceSalt(label: string, contract: Service): Buffer {
  return Buffer.from(hash(Buffer.from(`stellar-pooled-liquidations/deploy/${label}/${contract}`)))
}

/** The address the contract gets (or has) for this plan. */
export function plannedAddress(ctx: StepContext, contract: Service): string {
  return contractIdFor(ctx.plan.network.passphrase, ctx.plan.deployer.publicKey, serviceSalt(ctx.plan.salt, contract))
}

function usdcOf(ctx: StepContext): string {
  const usdc = ctx.file.assets?.usdc?.contract
  if (usdc === undefined) throw new Error('no USDC recorded (the usdc step did not run)')
  return usdc
}

function wasmOf(ctx: StepContext, contract: Service | 'executor'): string {
  const h = ctx.file.deploy.wasm[contract]
  if (h === undefined) throw new Error(`no ${contract} code recorded (the upload-${contract} step did not run)`)
  return h
}

function constructorArgs(ctx: StepContext, contract: Service): xdr.ScVal[] {
  const p = ctx.plan.parameters
  const admin = addr(ctx.plan.deployer.publicKey)
  if (contract === 'vault') {
    return [
      admin,
      addr(usdcOf(ctx)),
      struct({
        deposit_cap: i128(p.deposit_cap),
        keeper_fee_bps: u32(p.keeper_fee_bps),
        max_draw_per_keeper: i128(p.max_draw_per_keeper),
        profit_unlock_secs: u64(p.profit_unlock_secs),
        withdraw_cooldown: u64(p.withdraw_cooldown),
      }),
    ]
  }
  return [
    admin,
    struct({
      executor_wasm: xdr.ScVal.scvBytes(Buffer.from(wasmOf(ctx, 'executor'), 'hex')),
      min_stake: i128(p.min_stake),
      slash_rate_bps: u32(p.slash_rate_bps),
      slash_timeout: u64(p.slash_timeout),
      usdc_token: addr(usdcOf(ctx)),
    }),
  ]
}

/** Differences between a contract's configuration on chain and the plan, in words (empty when none). */
export async function configDifferences(ctx: StepContext, contract: Service, id: string): Promise<string[]> {
  const { chain } = ctx.plan
  const p: ServiceParameters = ctx.plan.parameters
  const usdc = usdcOf(ctx)
  const out: string[] = []
  const cmp = (name: string, actual: bigint | number | string, planned: bigint | number | string) => {
    if (String(actual) !== String(planned)) out.push(`${name} ${actual} (planned ${planned})`)
  }
  if (contract === 'vault') {
    const [config, token] = await Promise.all([read(chain, id, 'get_config').then(toVaultConfig), read<string>(chain, id, 'get_usdc')])
    cmp('deposit_cap', config.depositCap, p.deposit_cap)
    cmp('withdraw_cooldown', config.withdrawCooldown, p.withdraw_cooldown)
    cmp('max_draw_per_keeper', config.maxDrawPerKeeper, p.max_draw_per_keeper)
    cmp('keeper_fee_bps', config.keeperFeeBps, p.keeper_fee_bps)
    cmp('profit_unlock_secs', config.profitUnlockSecs, p.profit_unlock_secs)
    cmp('usdc', token, usdc)
  } else {
    const config = toRegistryConfig(await read(chain, id, 'get_config'))
    cmp('min_stake', config.minStake, p.min_stake)
    cmp('slash_timeout', config.slashTimeout, p.slash_timeout)
    cmp('slash_rate_bps', config.slashRateBps, p.slash_rate_bps)
    cmp('usdc_token', config.usdcToken, usdc)
    cmp('executor_wasm', config.executorWasm, wasmOf(ctx, 'executor'))
  }
  return out
}

function deployStep(contract: Service): Step {
  const step = `deploy-${contract}` as const
  const found = async (ctx: StepContext, id: string): Promise<StepResult> => {
    const differ = await configDifferences(ctx, contract, id)
    if (differ.length > 0) {
      throw new ContractConflictError(`the ${contract} at ${id} exists with other parameters: ${differ.join(', ')}; deploy a new pair with another --salt`)
    }
    ctx.file.deploy.contracts[contract] = id
    return { detail: `${contract} ${id} exists with the planned parameters` }
  }
  return {
    name: step,
    async check(ctx) {
      const id = plannedAddress(ctx, contract)
      const exe = await contractExecutable(ctx.plan.server, id)
      if (exe === undefined) return undefined
      if (exe.kind !== 'wasm' || exe.wasmHash !== wasmOf(ctx, contract)) {
        throw new ContractConflictError(`a contract at ${id} runs other code than the ${contract} (${wasmOf(ctx, contract)}); deploy with another --salt`)
      }
      return found(ctx, id)
    },
    async run(ctx) {
      const { contractId, sent } = await ensureContractDeployed(ctx.plan.chain, ctx.plan.server, signer(ctx, step), {
        wasmHash: wasmOf(ctx, contract),
        salt: serviceSalt(ctx.plan.salt, contract),
        constructorArgs: constructorArgs(ctx, contract),
      })
      if (sent === undefined) return found(ctx, contractId)
      ctx.file.deploy.contracts[contract] = contractId
      return { detail: `deployed the ${contract} at ${contractId}`, sent }
    },
  }
}

function contractOf(ctx: StepContext, contract: Service): string {
  const id = ctx.file.deploy.contracts[contract]
  if (id === undefined) throw new Error(`no ${contract} recorded (the deploy-${contract} step did not run)`)
  return id
}

/** The link a contract holds (`get_registry` / `get_vault`), undefined while unset. */
async function linkOf(ctx: StepContext, from: Service): Promise<string | undefined> {
  const [getter, notSet] = from === 'vault' ? (['get_registry', 101] as const) : (['get_vault', 204] as const)
  try {
    return await read<string>(ctx.plan.chain, contractOf(ctx, from), getter)
  } catch (err) {
    if (err instanceof ContractError && err.code === notSet) return undefined
    throw err
  }
}

function linkStep(from: Service): Step {
  const to: Service = from === 'vault' ? 'registry' : 'vault'
  const step = `link-${from}` as const
  const setter = from === 'vault' ? 'set_registry' : 'set_vault'
  return {
    name: step,
    async check(ctx) {
      const linked = await linkOf(ctx, from)
      if (linked === undefined) return undefined
      const want = contractOf(ctx, to)
      if (linked !== want) throw new ContractConflictError(`the ${from} ${contractOf(ctx, from)} is linked to ${linked}, not to the ${to} ${want}; deploy a new pair with another --salt`)
      return { detail: `${from}.${setter === 'set_registry' ? 'get_registry' : 'get_vault'}() is ${want}` }
    },
    async run(ctx) {
      const res = await invoke(ctx.plan.chain, signer(ctx, step), contractOf(ctx, from), setter, [addr(contractOf(ctx, to))])
      return { detail: `${from}.${setter}(${contractOf(ctx, to)})`, sent: await sentTransaction(ctx.plan.chain, res) }
    },
  }
}

/** The registry's venues on the chain. */
async function venuesOf(ctx: StepContext): Promise<string[]> {
  const v = await read<unknown[]>(ctx.plan.chain, contractOf(ctx, 'registry'), 'get_venues')
  return (Array.isArray(v) ? v : []).map(String)
}

/** Differences between the registry's venues and the plan's, in words (empty when none; a plan without venues accepts any). */
async function venueDifferences(ctx: StepContext): Promise<string[]> {
  const planned = venueList(ctx.plan.venues)
  if (planned.length === 0) return []
  const actual = await venuesOf(ctx)
  return actual.join() === planned.join() ? [] : [`venues ${actual.join(', ') || '(none)'} (planned ${planned.join(', ')})`]
}

const venuesStep: Step = {
  name: 'set-venues',
  async check(ctx) {
    const planned = venueList(ctx.plan.venues)
    if (planned.length === 0) {
      const actual = await venuesOf(ctx)
      return { detail: actual.length === 0 ? 'no lending pool or DEX router given: the registry has no venues (approved executors cannot fill until registry.set_venues)' : `no venues given; the registry's are ${actual.join(', ')}` }
    }
    if ((await venueDifferences(ctx)).length > 0) return undefined
    return { detail: `registry.get_venues() is ${planned.join(', ')}` }
  },
  async run(ctx) {
    const planned = venueList(ctx.plan.venues)
    const res = await invoke(ctx.plan.chain, signer(ctx, 'set-venues'), contractOf(ctx, 'registry'), 'set_venues', [xdr.ScVal.scvVec(planned.map(addr))])
    return { detail: `registry.set_venues(${planned.join(', ')})`, sent: await sentTransaction(ctx.plan.chain, res) }
  },
}

const verifyStep: Step = {
  name: 'verify',
  async check(ctx) {
    const vault = contractOf(ctx, 'vault')
    const registry = contractOf(ctx, 'registry')
    const problems = [
      ...(await configDifferences(ctx, 'vault', vault)).map((d) => `vault ${d}`),
      ...(await configDifferences(ctx, 'registry', registry)).map((d) => `registry ${d}`),
      ...(await venueDifferences(ctx)).map((d) => `registry ${d}`),
    ]
    if ((await linkOf(ctx, 'vault')) !== registry) problems.push(`vault not linked to ${registry}`)
    if ((await linkOf(ctx, 'registry')) !== vault) problems.push(`registry not linked to ${vault}`)
    if (problems.length > 0) throw new Error(`read back: ${problems.join('; ')}`)
    const venues = venueList(ctx.plan.venues).length > 0 ? ', the venues as planned' : ''
    return { detail: `read back: both configurations as planned, both on the same USDC, linked to each other${venues}` }
  },
  async run(ctx) {
    const result = await this.check(ctx)
    if (result === undefined) throw new Error('verification found nothing')
    return result
  },
}

/** The steps after the contract code: the two contracts, their links, the venues and the read-back. */
export const serviceSteps: readonly Step[] = [deployStep('vault'), deployStep('registry'), linkStep('vault'), linkStep('registry'), venuesStep, verifyStep]
