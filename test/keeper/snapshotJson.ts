/**
 * Contract entries of a LedgerSnapshot file (serde JSON of the stellar-xdr types, as
 * soroban-ledger-snapshot writes them) turned into the `xdr` values getLedgerEntries answers with,
 * so unit tests can read real files through the adapter's decoders.
 */
import { readFileSync } from 'node:fs'
import { Address, nativeToScVal, xdr } from '@stellar/stellar-sdk'

/** Loosely typed serde JSON of stellar-xdr values. */
type Json = any

/** An ScVal from its serde JSON (the kinds contract storage holds). */
export function scValFromJson(v: Json): xdr.ScVal {
  if (v === 'ledger_key_contract_instance') return xdr.ScVal.scvLedgerKeyContractInstance()
  if (v === 'void') return xdr.ScVal.scvVoid()
  const [[type, x]] = Object.entries(v) as [[string, Json]]
  switch (type) {
    case 'bool':
      return xdr.ScVal.scvBool(x)
    case 'u32':
      return xdr.ScVal.scvU32(x)
    case 'i32':
      return xdr.ScVal.scvI32(x)
    case 'u64':
    case 'i64':
      return nativeToScVal(BigInt(x), { type })
    case 'u128':
    case 'i128':
      return nativeToScVal(typeof x === 'object' ? (BigInt(x.hi) << 64n) + BigInt(x.lo) : BigInt(x), { type })
    case 'symbol':
      return xdr.ScVal.scvSymbol(x)
    case 'string':
      return xdr.ScVal.scvString(x)
    case 'bytes':
      return xdr.ScVal.scvBytes(Buffer.from(x, 'hex'))
    case 'address':
      return new Address(x).toScVal()
    case 'vec':
      return xdr.ScVal.scvVec((x ?? []).map(scValFromJson))
    case 'map':
      return xdr.ScVal.scvMap((x ?? []).map((e: Json) => new xdr.ScMapEntry({ key: scValFromJson(e.key), val: scValFromJson(e.val) })))
    case 'contract_instance': {
      const exe =
        x.executable === 'stellar_asset'
          ? xdr.ContractExecutable.contractExecutableStellarAsset()
          : xdr.ContractExecutable.contractExecutableWasm(Buffer.from(x.executable.wasm, 'hex'))
      const storage = x.storage === null || x.storage === undefined ? null : x.storage.map((e: Json) => new xdr.ScMapEntry({ key: scValFromJson(e.key), val: scValFromJson(e.val) }))
      return xdr.ScVal.scvContractInstance(new xdr.ScContractInstance({ executable: exe, storage }))
    }
    default:
      throw new Error(`scValFromJson: ${type} not handled`)
  }
}

/** The contract-data entries of a snapshot file, as getLedgerEntries' key and value. */
export function contractDataEntries(file: string): { key: xdr.LedgerKey; val: xdr.LedgerEntryData }[] {
  const doc = JSON.parse(readFileSync(file, 'utf8')) as Json
  const out: { key: xdr.LedgerKey; val: xdr.LedgerEntryData }[] = []
  for (const [, [entry]] of doc.ledger_entries as [Json, [Json, unknown]][]) {
    const cd = entry?.data?.contract_data
    if (cd === undefined) continue
    const contract = new Address(cd.contract).toScAddress()
    const key = scValFromJson(cd.key)
    const durability = cd.durability === 'temporary' ? xdr.ContractDataDurability.temporary : xdr.ContractDataDurability.persistent
    out.push({
      key: xdr.LedgerKey.contractData(new xdr.LedgerKeyContractData({ contract, key, durability })),
      val: xdr.LedgerEntryData.contractData(new xdr.ContractDataEntry({ ext: xdr.ExtensionPoint.v0(), contract, key, durability, val: scValFromJson(cd.val) })),
    })
  }
  return out
}
