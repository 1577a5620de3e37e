import { Address, Keypair, StrKey, xdr } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { auctionKey, AuctionType, keyId, positionsKey, scAddress } from './storage.js'

const POOL = StrKey.encodeContract(Buffer.alloc(32, 7))
const USER = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 1)).publicKey()
const OTHER = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 2)).publicKey()

describe('ledger keys', () => {
  it('builds a key once per pool and argument and gives its base64 XDR as id', () => {
    const a = positionsKey(POOL, USER)
    expect(positionsKey(POOL, USER)).toBe(a)
    expect(positionsKey(POOL, OTHER)).not.toBe(a)
    expect(keyId(a)).toBe(a.toXdr('base64'))
    expect(keyId(positionsKey(POOL, OTHER))).not.toBe(keyId(a))
  })

  it('keeps auction keys of different types apart', () => {
    const liq = auctionKey(POOL, AuctionType.UserLiquidation, USER)
    const bad = auctionKey(POOL, AuctionType.BadDebt, USER)
    expect(keyId(liq)).not.toBe(keyId(bad))
    // The same key decoded from the wire (a different object) has the same id.
    expect(keyId(xdr.LedgerKey.fromXdr(liq.toXdr()))).toBe(keyId(liq))
  })
})

describe('scAddress', () => {
  it('decodes account and contract addresses to their strkeys, also when asked again', () => {
    for (let i = 0; i < 2; i++) {
      expect(scAddress(new Address(USER).toScVal(), 'user')).toBe(USER)
      expect(scAddress(new Address(POOL).toScVal(), 'pool')).toBe(POOL)
      expect(scAddress(new Address(OTHER).toScVal(), 'other')).toBe(OTHER)
    }
  })

  it('rejects a value that is not an address', () => {
    expect(() => scAddress(xdr.ScVal.scvU32(1), 'user')).toThrow(/expected address/)
  })
})
