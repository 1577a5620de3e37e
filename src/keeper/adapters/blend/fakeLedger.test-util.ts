/**
 * Test helpers: encode Blend v2 storage values the way the pool contract stores them, and a
 * ledger-entry reader over an in-memory map that counts its calls. Used by unit tests only.
 */
import { Address, Keypair, nativeToScVal, xdr, type rpc } from '@stellar/stellar-sdk'
import { keyId } from './storage.js'
import type { AuctionData, PoolConfig, Positions, ReserveConfig, ReserveData } from './storage.js'

const sym = (s: string) => xdr.ScVal.scvSymbol(s)
const u32 = (n: number) => xdr.ScVal.scvU32(n)
const i128 = (n: bigint) => nativeToScVal(n, { type: 'i128' })
const u64 = (n: bigint) => nativeToScVal(n, { type: 'u64' })
const addr = (a: string) => new Address(a).toScVal()

function struct(fields: Record<string, xdr.ScVal>): xdr.ScVal {
  const names = Object.keys(fields).sort()
  return xdr.ScVal.scvMap(names.map((n) => new xdr.ScMapEntry({ key: sym(n), val: fields[n]! })))
}

export function encodePoolConfig(c: PoolConfig): xdr.ScVal {
  return struct({
    oracle: addr(c.oracle),
    min_collateral: i128(c.min_collateral),
    bstop_rate: u32(c.bstop_rate),
    status: u32(c.status),
    max_positions: u32(c.max_positions),
  })
}

export function encodeReserveConfig(c: ReserveConfig): xdr.ScVal {
  return struct({
    index: u32(c.index),
    decimals: u32(c.decimals),
    c_factor: u32(c.c_factor),
    l_factor: u32(c.l_factor),
    util: u32(c.util),
    max_util: u32(c.max_util),
    r_base: u32(c.r_base),
    r_one: u32(c.r_one),
    r_two: u32(c.r_two),
    r_three: u32(c.r_three),
    reactivity: u32(c.reactivity),
    supply_cap: i128(c.supply_cap),
    enabled: xdr.ScVal.scvBool(c.enabled),
  })
}

export function encodeReserveData(d: ReserveData): xdr.ScVal {
  return struct({
    d_rate: i128(d.d_rate),
    b_rate: i128(d.b_rate),
    ir_mod: i128(d.ir_mod),
    b_supply: i128(d.b_supply),
    d_supply: i128(d.d_supply),
    backstop_credit: i128(d.backstop_credit),
    last_time: u64(d.last_time),
  })
}

function indexMap(m: Map<number, bigint>): xdr.ScVal {
  const ks = [...m.keys()].sort((a, b) => a - b)
  return xdr.ScVal.scvMap(ks.map((k) => new xdr.ScMapEntry({ key: u32(k), val: i128(m.get(k)!) })))
}

export function encodePositions(p: Positions): xdr.ScVal {
  return struct({ liabilities: indexMap(p.liabilities), collateral: indexMap(p.collateral), supply: indexMap(p.supply) })
}

function addressMap(m: Map<string, bigint>): xdr.ScVal {
  return xdr.ScVal.scvMap([...m].map(([k, v]) => new xdr.ScMapEntry({ key: addr(k), val: i128(v) })))
}

export function encodeAuctionData(a: AuctionData): xdr.ScVal {
  return struct({ bid: addressMap(a.bid), lot: addressMap(a.lot), block: u32(a.block) })
}

export function contractEntry(key: xdr.LedgerKey, val: xdr.ScVal): xdr.LedgerEntryData {
  const k = xdr.expectUnionVariant(key, 'contractData').contractData
  return xdr.LedgerEntryData.contractData(
    new xdr.ContractDataEntry({
      ext: xdr.ExtensionPoint.v0(),
      contract: k.contract,
      key: k.key,
      durability: k.durability,
      val,
    }),
  )
}

export function instanceEntry(key: xdr.LedgerKey, storage: Record<string, xdr.ScVal>): xdr.LedgerEntryData {
  const wasm = Buffer.alloc(32, 7)
  const instance = new xdr.ScContractInstance({
    executable: xdr.ContractExecutable.contractExecutableWasm(wasm),
    storage: Object.entries(storage).map(([k, v]) => new xdr.ScMapEntry({ key: sym(k), val: v })),
  })
  return contractEntry(key, xdr.ScVal.scvContractInstance(instance))
}

export function randomContract(): string {
  return Address.contract(Keypair.random().rawPublicKey()).toString()
}

export function randomAccount(): string {
  return Keypair.random().publicKey()
}

/** An in-memory getLedgerEntries that enforces stellar-rpc's 200-key limit and counts calls. */
export class FakeLedger {
  readonly entries = new Map<string, { key: xdr.LedgerKey; val: xdr.LedgerEntryData }>()
  calls = 0
  latestLedger = 1000
  set(key: xdr.LedgerKey, val: xdr.LedgerEntryData): void {
    this.entries.set(keyId(key), { key, val })
  }
  delete(key: xdr.LedgerKey): void {
    this.entries.delete(keyId(key))
  }
  getLedgerEntries = async (...keys: xdr.LedgerKey[]): Promise<rpc.Api.GetLedgerEntriesResponse> => {
    this.calls += 1
    if (keys.length > 200) throw new Error(`too many keys: ${keys.length}`)
    const found = keys.flatMap((k) => {
      const e = this.entries.get(keyId(k))
      return e === undefined ? [] : [{ key: e.key, val: e.val, lastModifiedLedgerSeq: 1 }]
    })
    // Answer in reverse order: callers must match by key, not by position.
    return { entries: found.reverse(), latestLedger: this.latestLedger }
  }
}
