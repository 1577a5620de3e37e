/**
 * Blend v2 pool storage, read directly with getLedgerEntries.
 *
 * Layout (blend-contracts-v2 pool/src/storage.rs):
 * - instance storage (the contract-instance entry): Symbol keys "Admin", "Name", "Backstop",
 *   "Config" (PoolConfig), ...
 * - persistent: Symbol("ResList") -> Vec<Address>
 * - persistent: PoolDataKey::ResConfig(Address) -> ReserveConfig,
 *   PoolDataKey::ResData(Address) -> ReserveData, PoolDataKey::Positions(Address) -> Positions
 * - temporary: PoolDataKey::Auction(AuctionKey { user, auct_type }) -> AuctionData
 *
 * A `#[contracttype]` enum variant with one field encodes as `Vec[Symbol(variant), field]`; a struct
 * encodes as a Map keyed by Symbol field names (sorted). u32 -> ScvU32, i128 -> ScvI128,
 * u64 -> ScvU64.
 */
import { Address, xdr } from '@stellar/stellar-sdk'
import type { ReserveConfig as CoreReserveConfig, ReserveData as CoreReserveData } from '../../../core/index.js'
import { ledgerKeyId } from '../../../chain/ledgerEntries.js'
import { ErrDecode } from './errors.js'

export interface PoolConfig {
  oracle: string
  min_collateral: bigint
  /** Backstop take rate, 7 decimals. */
  bstop_rate: number
  status: number
  max_positions: number
}

/** A decoded `ResConfig` entry: the core's reserve configuration with every field present. */
export type ReserveConfig = Required<CoreReserveConfig>

/** A decoded `ResData` entry (rates with 12 decimals, `ir_mod` with 7). */
export type ReserveData = CoreReserveData

/** A user's pool positions, keyed by reserve index (b/d token amounts). */
export interface Positions {
  liabilities: Map<number, bigint>
  collateral: Map<number, bigint>
  supply: Map<number, bigint>
}

/** A stored (unscaled) auction: bid and lot keyed by asset address; `block` = start ledger. */
export interface AuctionData {
  bid: Map<string, bigint>
  lot: Map<string, bigint>
  block: number
}

export const AuctionType = { UserLiquidation: 0, BadDebt: 1, Interest: 2 } as const
export type AuctionType = (typeof AuctionType)[keyof typeof AuctionType]

/**
 * Ledger keys are built once per (kind, pool, argument) and their base64 ids once per key object:
 * a scan asks for the same keys every cycle, and checking an address's strkey checksum costs more
 * than the whole key lookup. Callers treat keys as immutable. The cache is emptied when it grows
 * past MAX_CACHED_KEYS: two keys per borrower (positions, auction), so pools of up to 100,000
 * borrowers keep theirs (a larger pool still works, with rebuilds).
 */
const MAX_CACHED_KEYS = 250_000
const cachedKeys = new Map<string, xdr.LedgerKey>()

function cached(id: string, make: () => xdr.LedgerKey): xdr.LedgerKey {
  let key = cachedKeys.get(id)
  if (key === undefined) {
    if (cachedKeys.size >= MAX_CACHED_KEYS) cachedKeys.clear()
    key = make()
    cachedKeys.set(id, key)
  }
  return key
}

function contractDataKey(
  contract: string,
  key: xdr.ScVal,
  durability: xdr.ContractDataDurability,
): xdr.LedgerKey {
  return xdr.LedgerKey.contractData(
    new xdr.LedgerKeyContractData({ contract: new Address(contract).toScAddress(), key, durability }),
  )
}

const persistent = () => xdr.ContractDataDurability.persistent
const temporary = () => xdr.ContractDataDurability.temporary

function variantKey(variant: string, field: xdr.ScVal): xdr.ScVal {
  return xdr.ScVal.scvVec([xdr.ScVal.scvSymbol(variant), field])
}

/** The pool's contract-instance entry (holds "Config", "Backstop", ...). */
export function instanceKey(pool: string): xdr.LedgerKey {
  return cached(`instance|${pool}`, () => contractDataKey(pool, xdr.ScVal.scvLedgerKeyContractInstance(), persistent()))
}

export function resListKey(pool: string): xdr.LedgerKey {
  return cached(`reslist|${pool}`, () => contractDataKey(pool, xdr.ScVal.scvSymbol('ResList'), persistent()))
}

export function resConfigKey(pool: string, asset: string): xdr.LedgerKey {
  return cached(`resconfig|${pool}|${asset}`, () => contractDataKey(pool, variantKey('ResConfig', new Address(asset).toScVal()), persistent()))
}

export function resDataKey(pool: string, asset: string): xdr.LedgerKey {
  return cached(`resdata|${pool}|${asset}`, () => contractDataKey(pool, variantKey('ResData', new Address(asset).toScVal()), persistent()))
}

export function positionsKey(pool: string, user: string): xdr.LedgerKey {
  return cached(`positions|${pool}|${user}`, () => contractDataKey(pool, variantKey('Positions', new Address(user).toScVal()), persistent()))
}

export function auctionKey(pool: string, auctionType: AuctionType, user: string): xdr.LedgerKey {
  return cached(`auction|${pool}|${auctionType}|${user}`, () => {
    // AuctionKey { user, auct_type } as a Map with its Symbol keys in sorted order.
    const key = xdr.ScVal.scvMap([
      new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('auct_type'), val: xdr.ScVal.scvU32(auctionType) }),
      new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('user'), val: new Address(user).toScVal() }),
    ])
    return contractDataKey(pool, variantKey('Auction', key), temporary())
  })
}

/** A stable string id for a ledger key (its base64 XDR), computed once per key object. */
export const keyId = ledgerKeyId

// ---------------------------------------------------------------------------------------------
// ScVal decoding (strict: a missing or mistyped field is an ErrDecode naming it)

function fieldsOf(val: xdr.ScVal, what: string): Map<string, xdr.ScVal> {
  if (val.type !== 'scvMap') throw new ErrDecode(what, `expected a map, got ${val.type}`)
  const out = new Map<string, xdr.ScVal>()
  for (const entry of val.map ?? []) {
    const k = entry.key
    if (k.type !== 'scvSymbol') throw new ErrDecode(what, 'non-symbol field name')
    out.set(k.sym.toString(), entry.val)
  }
  return out
}

function field(fields: Map<string, xdr.ScVal>, name: string, what: string): xdr.ScVal {
  const v = fields.get(name)
  if (v === undefined) throw new ErrDecode(what, `field ${name} missing`)
  return v
}

export function scU32(v: xdr.ScVal, what: string): number {
  if (v.type !== 'scvU32') throw new ErrDecode(what, `expected u32, got ${v.type}`)
  return v.u32
}

export function scU64(v: xdr.ScVal, what: string): bigint {
  if (v.type !== 'scvU64') throw new ErrDecode(what, `expected u64, got ${v.type}`)
  return BigInt(v.u64.toString())
}

export function scI128(v: xdr.ScVal, what: string): bigint {
  if (v.type !== 'scvI128') throw new ErrDecode(what, `expected i128, got ${v.type}`)
  const parts = v.i128
  const hi = BigInt(parts.hi.toString())
  const lo = BigInt(parts.lo.toString())
  return (hi << 64n) | lo
}

export function scBool(v: xdr.ScVal, what: string): boolean {
  if (v.type !== 'scvBool') throw new ErrDecode(what, `expected bool, got ${v.type}`)
  return v.b
}

/** Strkeys of decoded account and contract addresses, by their raw bytes (encoding one costs a checksum). */
const addressStrings = new Map<string, string>()

export function scAddress(v: xdr.ScVal, what: string): string {
  if (v.type !== 'scvAddress') throw new ErrDecode(what, `expected address, got ${v.type}`)
  const a = v.address
  const type = a.type
  const raw =
    a.type === 'scAddressTypeContract' ? a.contractId : a.type === 'scAddressTypeAccount' ? a.accountId.ed25519 : undefined
  if (raw === undefined) return Address.fromScAddress(a).toString()
  const id = `${type}:${xdr.encodeBytes(raw.toBytes(), 'hex')}`
  let text = addressStrings.get(id)
  if (text === undefined) {
    if (addressStrings.size >= MAX_CACHED_KEYS) addressStrings.clear()
    text = Address.fromScAddress(a).toString()
    addressStrings.set(id, text)
  }
  return text
}

export function decodePoolConfig(v: xdr.ScVal): PoolConfig {
  const w = 'PoolConfig'
  const f = fieldsOf(v, w)
  return {
    oracle: scAddress(field(f, 'oracle', w), `${w}.oracle`),
    min_collateral: scI128(field(f, 'min_collateral', w), `${w}.min_collateral`),
    bstop_rate: scU32(field(f, 'bstop_rate', w), `${w}.bstop_rate`),
    status: scU32(field(f, 'status', w), `${w}.status`),
    max_positions: scU32(field(f, 'max_positions', w), `${w}.max_positions`),
  }
}

export function decodeReserveConfig(v: xdr.ScVal): ReserveConfig {
  const w = 'ReserveConfig'
  const f = fieldsOf(v, w)
  const u = (name: string) => scU32(field(f, name, w), `${w}.${name}`)
  return {
    index: u('index'),
    decimals: u('decimals'),
    c_factor: u('c_factor'),
    l_factor: u('l_factor'),
    util: u('util'),
    max_util: u('max_util'),
    r_base: u('r_base'),
    r_one: u('r_one'),
    r_two: u('r_two'),
    r_three: u('r_three'),
    reactivity: u('reactivity'),
    supply_cap: scI128(field(f, 'supply_cap', w), `${w}.supply_cap`),
    enabled: scBool(field(f, 'enabled', w), `${w}.enabled`),
  }
}

export function decodeReserveData(v: xdr.ScVal): ReserveData {
  const w = 'ReserveData'
  const f = fieldsOf(v, w)
  const i = (name: string) => scI128(field(f, name, w), `${w}.${name}`)
  return {
    d_rate: i('d_rate'),
    b_rate: i('b_rate'),
    ir_mod: i('ir_mod'),
    b_supply: i('b_supply'),
    d_supply: i('d_supply'),
    backstop_credit: i('backstop_credit'),
    last_time: scU64(field(f, 'last_time', w), `${w}.last_time`),
  }
}

function decodeIndexMap(v: xdr.ScVal, what: string): Map<number, bigint> {
  if (v.type !== 'scvMap') throw new ErrDecode(what, `expected a map, got ${v.type}`)
  const out = new Map<number, bigint>()
  for (const e of v.map ?? []) out.set(scU32(e.key, `${what} key`), scI128(e.val, `${what} value`))
  return out
}

function decodeAddressMap(v: xdr.ScVal, what: string): Map<string, bigint> {
  if (v.type !== 'scvMap') throw new ErrDecode(what, `expected a map, got ${v.type}`)
  const out = new Map<string, bigint>()
  for (const e of v.map ?? []) out.set(scAddress(e.key, `${what} key`), scI128(e.val, `${what} value`))
  return out
}

export function decodePositions(v: xdr.ScVal): Positions {
  const w = 'Positions'
  const f = fieldsOf(v, w)
  return {
    liabilities: decodeIndexMap(field(f, 'liabilities', w), `${w}.liabilities`),
    collateral: decodeIndexMap(field(f, 'collateral', w), `${w}.collateral`),
    supply: decodeIndexMap(field(f, 'supply', w), `${w}.supply`),
  }
}

export function emptyPositions(): Positions {
  return { liabilities: new Map(), collateral: new Map(), supply: new Map() }
}

export function decodeAuctionData(v: xdr.ScVal): AuctionData {
  const w = 'AuctionData'
  const f = fieldsOf(v, w)
  return {
    bid: decodeAddressMap(field(f, 'bid', w), `${w}.bid`),
    lot: decodeAddressMap(field(f, 'lot', w), `${w}.lot`),
    block: scU32(field(f, 'block', w), `${w}.block`),
  }
}

export function decodeAddressVec(v: xdr.ScVal, what: string): string[] {
  if (v.type !== 'scvVec') throw new ErrDecode(what, `expected a vec, got ${v.type}`)
  return (v.vec ?? []).map((e, i) => scAddress(e, `${what}[${i}]`))
}

/** The instance storage map of a contract-instance ledger entry, by Symbol key. */
export function decodeInstanceStorage(entry: xdr.LedgerEntryData): Map<string, xdr.ScVal> {
  const val = xdr.expectUnionVariant(entry, 'contractData').contractData.val
  if (val.type !== 'scvContractInstance') throw new ErrDecode('pool instance', 'not a contract instance')
  const out = new Map<string, xdr.ScVal>()
  for (const e of val.instance.storage ?? []) {
    const k = e.key
    if (k.type === 'scvSymbol') out.set(k.sym.toString(), e.val)
  }
  return out
}

/** Value of a contract-data ledger entry. */
export function entryValue(entry: xdr.LedgerEntryData): xdr.ScVal {
  return xdr.expectUnionVariant(entry, 'contractData').contractData.val
}

/** For a ResConfig/ResData/Positions/Auction entry: the address in its key (asset or user). */
export function keyAddress(key: xdr.LedgerKey): string | undefined {
  const k = xdr.expectUnionVariant(key, 'contractData').contractData.key
  if (k.type !== 'scvVec') return undefined
  const [, arg] = k.vec ?? []
  if (arg === undefined) return undefined
  if (arg.type === 'scvAddress') return Address.fromScAddress(arg.address).toString()
  return undefined
}
