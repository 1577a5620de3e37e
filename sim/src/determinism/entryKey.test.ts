import { createHash } from 'node:crypto'
import { StrKey, xdr } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { EntryNamer, entryName, keyName, scValText } from './entryKey.js'

type ScVal = ReturnType<typeof xdr.ScVal.schema._read>
type EntryData = ReturnType<typeof xdr.LedgerEntry.schema._read>['data']
type KeyWire = ReturnType<typeof xdr.LedgerKey.schema._read>

const bytes = (b: number) => new Uint8Array(32).fill(b)
const sym = (s: string): ScVal => ({ type: 15, sym: new xdr.XdrString(s) })
const contract: ReturnType<typeof xdr.ScAddress.schema._read> = { type: 1, contractId: bytes(1) }
const account: ReturnType<typeof xdr.ScAddress.schema._read> = { type: 0, accountId: { type: 0, ed25519: bytes(2) } }
const C = StrKey.encodeContract(Buffer.from(bytes(1)))
const G = StrKey.encodeEd25519PublicKey(Buffer.from(bytes(2)))

const positionsKey: ScVal = { type: 16, vec: [sym('Positions'), { type: 18, address: account }] }
const dataKey: KeyWire = { type: 6, contractData: { contract, key: positionsKey, durability: 1 } }
const dataEntry = { type: 6, contractData: { ext: { v: 0 }, contract, key: positionsKey, durability: 1, val: { type: 1 } } } as EntryData

describe('readable ledger entry names', () => {
  it('renders Soroban values short and unambiguous', () => {
    expect(scValText(positionsKey)).toBe(`[Positions,${G}]`)
    expect(scValText({ type: 17, map: [{ key: sym('auct_type'), val: { type: 3, u32: 0 } }, { key: sym('user'), val: { type: 18, address: contract } }] })).toBe(`{auct_type:0,user:${C}}`)
    expect(scValText({ type: 10, i128: { hi: -1n, lo: 2n ** 64n - 5n } })).toBe('-5')
    expect(scValText({ type: 9, u128: { hi: 1n, lo: 0n } })).toBe(String(2n ** 64n))
    expect(scValText({ type: 13, bytes: bytes(255) })).toBe(`0x${'ff'.repeat(32)}`)
    expect(scValText({ type: 13, bytes: new Uint8Array(40) })).toBe(`0x${'00'.repeat(32)}…`)
    expect(scValText({ type: 14, str: new xdr.XdrString('hi') })).toBe('"hi"')
    expect(scValText({ type: 20 })).toBe('instance')
  })

  it('gives an entry and its key the same name', () => {
    expect(entryName(dataEntry)).toBe(`contract ${C} [Positions,${G}]`)
    expect(keyName(dataKey)).toBe(entryName(dataEntry))
    expect(keyName({ type: 6, contractData: { contract, key: { type: 20 }, durability: 0 } })).toBe(`contract ${C} instance (temporary)`)
    expect(keyName({ type: 0, account: { accountId: { type: 0, ed25519: bytes(2) } } })).toBe(`account ${G}`)
  })

  it('names a TTL entry after the entry it keeps alive once that entry has been seen', () => {
    const keyHash = createHash('sha256').update(xdr.LedgerKey.schema.encode(dataKey)).digest()
    const ttl = { entry: { data: { type: 9, ttl: { keyHash, liveUntilLedgerSeq: 100 } } as EntryData } }
    const names = new EntryNamer()
    expect(names.name(ttl)).toBe(`ttl ${keyHash.toString('hex').slice(0, 16)}…`)
    names.learn({ entry: { data: dataEntry } })
    expect(names.name(ttl)).toBe(`ttl of contract ${C} [Positions,${G}]`)
    expect(names.name({ removed: { type: 9, ttl: { keyHash } } })).toBe(`ttl of contract ${C} [Positions,${G}]`)
    expect(names.name({ entry: { data: dataEntry } })).toBe(entryName(dataEntry))
  })
})
