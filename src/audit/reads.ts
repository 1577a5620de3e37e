/**
 * Typed reads of the vault, the registry and the USDC token, each one simulation through
 * `simulate` (rpc.ts), with the field names of contracts/vault and contracts/registry.
 */
import { readKeeperPages } from '../chain/records/keeperPages.js'
import { toHex } from '../chain/records/convert.js'
import { toVaultConfig, toVaultState, type VaultConfig, type VaultState } from '../chain/records/vault.js'
import { addr, u32 } from '../chain/scval.js'
import { simulate, simulateOrCode, type AuditConnection, type Read } from './rpc.js'

/** The vault's books (`VaultState`, decoded by src/chain/records). */
export type VaultBooks = VaultState

/** The vault's configuration (`VaultConfig`, decoded by src/chain/records): the keeper fee and the unlock period. */
export type VaultSettings = VaultConfig

/** A depositor's record (`DepositorInfo`) and, when read, the vault's `balance` for it. */
export interface DepositorRecord {
  account: string
  shares: bigint
  costBasis: bigint
  totalDeposited: bigint
  totalWithdrawn: bigint
  /** Shares the depositor asked to withdraw (`request_withdraw`). */
  withdrawRequest: bigint
  /** `vault.balance(account)`; undefined when the call failed (see `balanceError`). */
  balance?: bigint
  /** The contract error the `balance` call returned, e.g. `contract error #103`. */
  balanceError?: string
}

/** A registered keeper's record (`KeeperInfo`), the fields the auditor uses. */
export interface KeeperRecord {
  operator: string
  name: string
  stake: bigint
  hasActiveDraw: boolean
  drawAmount: bigint
  /** Ledger timestamp (s) the current draw was marked; 0 when none. */
  drawTimestamp: bigint
  slashed: boolean
  totalSlashed: bigint
  /** An executor the registry deployed (may flash-draw). */
  approved: boolean
  /** The largest new draw the stake backs. */
  drawLimit: bigint
}

/** The registry's configuration (`RegistryConfig`). */
export interface RegistrySettings {
  minStake: bigint
  slashTimeout: bigint
  slashRateBps: number
  usdcToken: string
  /** Hash (hex) of the executor code the registry deploys. */
  executorWasm: string
}

type Raw = Record<string, unknown>

const big = (v: unknown): bigint => {
  if (typeof v === 'bigint') return v
  if (typeof v === 'number' || (typeof v === 'string' && /^-?\d+$/.test(v))) return BigInt(v)
  return 0n
}

const record = (v: unknown): Raw => (v !== null && typeof v === 'object' ? (v as Raw) : {})

export const toBooks: (v: unknown) => VaultBooks = toVaultState

export function toKeeper(v: unknown): KeeperRecord {
  const r = record(v)
  return {
    operator: String(r.operator),
    name: typeof r.name === 'string' ? r.name : String(r.name ?? ''),
    stake: big(r.stake),
    hasActiveDraw: r.has_active_draw === true,
    drawAmount: big(r.draw_amount),
    drawTimestamp: big(r.draw_timestamp),
    slashed: r.slashed === true,
    totalSlashed: big(r.total_slashed),
    approved: r.approved === true,
    drawLimit: big(r.draw_limit),
  }
}

const map = <A, B>(r: Read<A>, f: (a: A) => B): Read<B> => ({ value: f(r.value), ledger: r.ledger })

export const readBooks = async (c: AuditConnection, vault: string): Promise<Read<VaultBooks>> =>
  map(await simulate(c, 'vault.get_state', vault, 'get_state'), toBooks)

export async function readDepositor(c: AuditConnection, vault: string, account: string): Promise<Read<DepositorRecord>> {
  const r = await simulate(c, `vault.get_depositor(${account})`, vault, 'get_depositor', [addr(account)])
  return map(r, (v) => {
    const x = record(v)
    return {
      account,
      shares: big(x.shares),
      costBasis: big(x.cost_basis),
      totalDeposited: big(x.total_deposited),
      totalWithdrawn: big(x.total_withdrawn),
      withdrawRequest: big(x.withdraw_request),
    }
  })
}

/** `vault.balance(account)`, or the contract error it returned. */
export async function readVaultBalance(
  c: AuditConnection,
  vault: string,
  account: string,
): Promise<{ balance: bigint } | { error: string }> {
  const r = await simulateOrCode(c, `vault.balance(${account})`, vault, 'balance', [addr(account)])
  return r.ledger === undefined ? { error: `contract error #${r.code}` } : { balance: big(r.value) }
}

export const readKeeperDraw = async (c: AuditConnection, vault: string, keeper: string): Promise<Read<bigint>> =>
  map(await simulate(c, `vault.get_keeper_draw(${keeper})`, vault, 'get_keeper_draw', [addr(keeper)]), big)

/**
 * Every keeper, `get_keepers(start, 200)` page after page until a short one (one read for fewer
 * than 200 keepers); the ledger is the latest any page was read at.
 */
export async function readKeepers(c: AuditConnection, registry: string): Promise<Read<KeeperRecord[]>> {
  let ledger = 0
  // A page past the end (the list shrank meanwhile) is a ChainReadError caused by PageOutOfRange,
  // which readKeeperPages takes as the end of the list.
  const keepers = await readKeeperPages(async (start, limit) => {
    const r = await simulate<unknown[]>(c, 'registry.get_keepers', registry, 'get_keepers', [u32(start), u32(limit)])
    ledger = Math.max(ledger, r.ledger)
    return (Array.isArray(r.value) ? r.value : []).map(toKeeper)
  })
  return { value: keepers, ledger }
}

/** SEP-41 `balance(holder)` (a Stellar Asset Contract answers it too). */
export const readTokenBalance = async (c: AuditConnection, label: string, token: string, holder: string): Promise<Read<bigint>> =>
  map(await simulate(c, label, token, 'balance', [addr(holder)]), big)

export const readRegistrySettings = async (c: AuditConnection, registry: string): Promise<RegistrySettings> => {
  const r = record((await simulate(c, 'registry.get_config', registry, 'get_config')).value)
  return {
    minStake: big(r.min_stake),
    slashTimeout: big(r.slash_timeout),
    slashRateBps: Number(r.slash_rate_bps),
    usdcToken: String(r.usdc_token),
    executorWasm: toHex(r.executor_wasm),
  }
}

export const readVaultSettings = async (c: AuditConnection, vault: string): Promise<VaultSettings> =>
  toVaultConfig((await simulate(c, 'vault.get_config', vault, 'get_config')).value)

/** `vault.get_locked_profit()`: the profit still locked at the node's simulation time. */
export const readLockedProfit = async (c: AuditConnection, vault: string): Promise<Read<bigint>> =>
  map(await simulate(c, 'vault.get_locked_profit', vault, 'get_locked_profit'), big)

export const readVaultUsdc = async (c: AuditConnection, vault: string): Promise<string> =>
  String((await simulate(c, 'vault.get_usdc', vault, 'get_usdc')).value)

/** The address a contract links to, or the contract error when it is not set (NotInit, VaultNotSet). */
export async function readLink(
  c: AuditConnection,
  label: string,
  contract: string,
  method: 'get_registry' | 'get_vault',
): Promise<{ address: string } | { error: string }> {
  const r = await simulateOrCode(c, label, contract, method)
  return r.ledger === undefined ? { error: `contract error #${r.code}` } : { address: String(r.value) }
}
