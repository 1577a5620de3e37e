/**
 * Breaking a deployment on purpose, for the auditor's tests: read a ledger entry, rewrite part of
 * it and write it back with the sandbox's `sandbox_setLedgerEntry` cheat, and put it back
 * afterwards. Covers contract storage (instance and persistent), a SAC balance and the code a
 * contract instance runs.
 */
import { Address, xdr } from '@stellar/stellar-sdk'
import type { Sandbox } from '../../sandbox/ts/launch.js'
import { i128 } from '../../src/chain/index.js'

/** An entry as it was, to write back with `restore`. */
export interface SavedEntry {
  entry: xdr.LedgerEntry
}

export function contractDataKey(contract: string, key: xdr.ScVal, durability: 'persistent' | 'instance'): xdr.LedgerKey {
  return xdr.LedgerKey.contractData(
    new xdr.LedgerKeyContractData({
      contract: new Address(contract).toScAddress(),
      key: durability === 'instance' ? xdr.ScVal.scvLedgerKeyContractInstance() : key,
      durability: xdr.ContractDataDurability.persistent,
    }),
  )
}

/** The `(symbol, address)` key the vault and the registry use for per-account records. */
export const accountKey = (symbol: string, account: string): xdr.ScVal =>
  xdr.ScVal.scvVec([xdr.ScVal.scvSymbol(symbol), new Address(account).toScVal()])

/**
 * The registry's record of a keeper: persistent `("slot", n)`, n read from the keeper's
 * `("pos", operator)` entry (contracts/registry/src/storage.rs).
 */
export async function keeperRecordKey(sandbox: Sandbox, registry: string, operator: string): Promise<xdr.LedgerKey> {
  const pos = await read(sandbox, contractDataKey(registry, accountKey('pos', operator), 'persistent'))
  const slot = xdr.expectUnionVariant(xdr.expectUnionVariant(pos.data, 'contractData').contractData.val, 'scvU32').u32
  return contractDataKey(registry, xdr.ScVal.scvVec([xdr.ScVal.scvSymbol('slot'), xdr.ScVal.scvU32(slot)]), 'persistent')
}

/** A SAC's balance entry of a holder: persistent `[Balance, holder]`. */
export const balanceKey = (token: string, holder: string): xdr.LedgerKey =>
  contractDataKey(token, xdr.ScVal.scvVec([xdr.ScVal.scvSymbol('Balance'), new Address(holder).toScVal()]), 'persistent')

async function read(sandbox: Sandbox, key: xdr.LedgerKey): Promise<xdr.LedgerEntry> {
  const { entries } = await sandbox.server.getLedgerEntries(key)
  const found = entries[0]
  if (!found) throw new Error(`no ledger entry ${key.toXdr('base64')}`)
  return new xdr.LedgerEntry({ lastModifiedLedgerSeq: found.lastModifiedLedgerSeq ?? 0, data: found.val, ext: xdr.LedgerEntryExt.v0() })
}

async function write(sandbox: Sandbox, entry: xdr.LedgerEntry): Promise<void> {
  await sandbox.call('sandbox_setLedgerEntry', { entry: entry.toXdr('base64') })
}

/** Rewrites the value of a contract data entry; returns the entry as it was. */
export async function editContractData(sandbox: Sandbox, key: xdr.LedgerKey, edit: (val: xdr.ScVal) => xdr.ScVal): Promise<SavedEntry> {
  const entry = await read(sandbox, key)
  const data = xdr.expectUnionVariant(entry.data, 'contractData').contractData
  const next = new xdr.ContractDataEntry({ ext: data.ext, contract: data.contract, key: data.key, durability: data.durability, val: edit(data.val) })
  await write(sandbox, new xdr.LedgerEntry({ lastModifiedLedgerSeq: entry.lastModifiedLedgerSeq, data: xdr.LedgerEntryData.contractData(next), ext: entry.ext }))
  return { entry }
}

/** Writes back what `editContractData` / `editInstance` saved. */
export async function restore(sandbox: Sandbox, saved: SavedEntry): Promise<void> {
  await write(sandbox, saved.entry)
}

/** A map ScVal (a contracttype struct, an instance's storage) with `field` replaced. */
export function withField(map: xdr.ScVal, field: string, edit: (v: xdr.ScVal) => xdr.ScVal): xdr.ScVal {
  let seen = false
  const next = (xdr.expectUnionVariant(map, 'scvMap').map ?? []).map((e) => {
    if (e.key.type !== 'scvSymbol' || e.key.sym.toString() !== field) return e
    seen = true
    return new xdr.ScMapEntry({ key: e.key, val: edit(e.val) })
  })
  if (!seen) throw new Error(`no field ${field}`)
  return xdr.ScVal.scvMap(next)
}

/** An i128 field of a map moved by `delta`. */
export const addToI128 = (delta: bigint) => (v: xdr.ScVal): xdr.ScVal => {
  const parts = xdr.expectUnionVariant(v, 'scvI128').i128
  return i128(((BigInt(parts.hi.toString()) << 64n) | BigInt(parts.lo.toString())) + delta)
}

/** Sets a SAC balance of `holder` to `amount`. */
export function setTokenBalance(sandbox: Sandbox, token: string, holder: string, amount: bigint): Promise<SavedEntry> {
  return editContractData(sandbox, balanceKey(token, holder), (v) => withField(v, 'amount', () => i128(amount)))
}

/**
 * Rewrites a contract instance: `storage` edits one instance-storage value (keyed by symbol),
 * `wasmHash` swaps the code it runs.
 */
export function editInstance(
  sandbox: Sandbox,
  contract: string,
  change: { storage?: { key: string; edit: (v: xdr.ScVal) => xdr.ScVal }; wasmHash?: Uint8Array },
): Promise<SavedEntry> {
  return editContractData(sandbox, contractDataKey(contract, xdr.ScVal.scvVoid(), 'instance'), (val) => {
    const instance = xdr.expectUnionVariant(val, 'scvContractInstance').instance
    const storage = change.storage
    const entries = (instance.storage ?? []).map((e) =>
      storage && e.key.type === 'scvSymbol' && e.key.sym.toString() === storage.key ? new xdr.ScMapEntry({ key: e.key, val: storage.edit(e.val) }) : e,
    )
    if (storage && !entries.some((e) => e.key.type === 'scvSymbol' && e.key.sym.toString() === storage.key))
      throw new Error(`no instance storage key ${storage.key}`)
    const executable = change.wasmHash ? xdr.ContractExecutable.contractExecutableWasm(change.wasmHash) : instance.executable
    return xdr.ScVal.scvContractInstance(new xdr.ScContractInstance({ executable, storage: entries }))
  })
}
