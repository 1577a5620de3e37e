import { Address, xdr } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import {
  contractEntry,
  encodeAuctionData,
  encodePoolConfig,
  encodePositions,
  encodeReserveConfig,
  encodeReserveData,
  FakeLedger,
  instanceEntry,
  randomAccount,
  randomContract,
} from './fakeLedger.test-util.js'
import { loadAuction, loadPool, MAX_KEYS_PER_CALL } from './loadPool.js'
import { ErrDecode, ErrMissingEntry } from './errors.js'
import {
  auctionKey,
  AuctionType,
  decodeReserveConfig,
  instanceKey,
  positionsKey,
  resConfigKey,
  resDataKey,
  resListKey,
  type ReserveConfig,
  type ReserveData,
} from './storage.js'

const reserveConfig = (index: number): ReserveConfig => ({
  index,
  decimals: 7,
  c_factor: 7_500_000,
  l_factor: 8_000_000,
  util: 6_000_000,
  max_util: 9_500_000,
  r_base: 100_000,
  r_one: 500_000,
  r_two: 5_000_000,
  r_three: 15_000_000,
  reactivity: 200,
  supply_cap: 10n ** 20n,
  enabled: true,
})
const reserveData: ReserveData = {
  d_rate: 1_010_000_000_000n,
  b_rate: 1_005_000_000_000n,
  ir_mod: 10_000_000n,
  b_supply: 1_000_0000000n,
  d_supply: 500_0000000n,
  backstop_credit: 12n,
  last_time: 1_700_000_000n,
}

function seedPool(ledger: FakeLedger, assets: string[], users: string[]) {
  const pool = randomContract()
  const oracle = randomContract()
  const backstop = randomContract()
  ledger.set(
    instanceKey(pool),
    instanceEntry(instanceKey(pool), {
      Config: encodePoolConfig({ oracle, min_collateral: 0n, bstop_rate: 1_000_000, status: 0, max_positions: 8 }),
      Backstop: addrVal(backstop),
      Name: xdr.ScVal.scvString('test pool'),
    }),
  )
  ledger.set(resListKey(pool), contractEntry(resListKey(pool), xdr.ScVal.scvVec(assets.map((a) => addrVal(a)))))
  assets.forEach((a, i) => {
    ledger.set(resConfigKey(pool, a), contractEntry(resConfigKey(pool, a), encodeReserveConfig(reserveConfig(i))))
    ledger.set(resDataKey(pool, a), contractEntry(resDataKey(pool, a), encodeReserveData(reserveData)))
  })
  users.forEach((u, i) => {
    ledger.set(
      positionsKey(pool, u),
      contractEntry(
        positionsKey(pool, u),
        encodePositions({
          liabilities: new Map([[1, BigInt(i + 1)]]),
          collateral: new Map([[0, BigInt(1000 + i)]]),
          supply: new Map(),
        }),
      ),
    )
  })
  return { pool, oracle, backstop }
}

function addrVal(a: string): xdr.ScVal {
  return new Address(a).toScVal()
}

describe('loadPool', () => {
  it('decodes config, reserves and positions; cold start takes two waves', async () => {
    const ledger = new FakeLedger()
    const assets = [randomContract(), randomContract(), randomContract()]
    const users = Array.from({ length: 10 }, randomAccount)
    const { pool, oracle, backstop } = seedPool(ledger, assets, users)
    const snap = await loadPool(ledger, pool, users)
    expect(snap.config).toEqual({ oracle, min_collateral: 0n, bstop_rate: 1_000_000, status: 0, max_positions: 8 })
    expect(snap.backstop).toBe(backstop)
    expect(snap.reserveList).toEqual(assets)
    expect(snap.reserves.get(assets[2]!)!.config).toEqual(reserveConfig(2))
    expect(snap.reserves.get(assets[0]!)!.data).toEqual(reserveData)
    expect(snap.positions.get(users[3]!)!.liabilities.get(1)).toBe(4n)
    expect(snap.positions.get(users[3]!)!.collateral.get(0)).toBe(1003n)
    expect(snap.stats.waves).toBe(2)
    expect(ledger.calls).toBe(2)
  })

  it('with a known reserve list loads 200 borrowers in <= 3 requests and one wave', async () => {
    const ledger = new FakeLedger()
    const assets = [randomContract(), randomContract(), randomContract()]
    const users = Array.from({ length: 200 }, randomAccount)
    const { pool } = seedPool(ledger, assets, users)
    const snap = await loadPool(ledger, pool, users, { reserveList: assets })
    expect(snap.positions.size).toBe(200)
    expect(ledger.calls).toBeLessThanOrEqual(3)
    expect(snap.stats.waves).toBe(1)
    expect(snap.stats.getLedgerEntries).toBe(Math.ceil((2 + 6 + 200) / MAX_KEYS_PER_CALL))
  })

  it('cold start with 200 borrowers stays within 3 getLedgerEntries requests', async () => {
    const ledger = new FakeLedger()
    const assets = [randomContract(), randomContract()]
    const users = Array.from({ length: 196 }, randomAccount)
    const { pool } = seedPool(ledger, assets, users)
    const snap = await loadPool(ledger, pool, users)
    expect(snap.stats.getLedgerEntries).toBeLessThanOrEqual(3)
  })

  it('a user without a Positions entry gets empty positions', async () => {
    const ledger = new FakeLedger()
    const assets = [randomContract()]
    const { pool } = seedPool(ledger, assets, [])
    const stranger = randomAccount()
    const snap = await loadPool(ledger, pool, [stranger])
    expect(snap.positions.get(stranger)!.liabilities.size).toBe(0)
  })

  it('missing reserve data is a clear error', async () => {
    const ledger = new FakeLedger()
    const assets = [randomContract()]
    const { pool } = seedPool(ledger, assets, [])
    ledger.delete(resDataKey(pool, assets[0]!))
    await expect(loadPool(ledger, pool, [])).rejects.toBeInstanceOf(ErrMissingEntry)
  })

  it('missing pool instance is a clear error', async () => {
    await expect(loadPool(new FakeLedger(), randomContract(), [])).rejects.toThrow(/instance/)
  })

  it('reads existing auctions in the same wave', async () => {
    const ledger = new FakeLedger()
    const assets = [randomContract(), randomContract()]
    const users = [randomAccount(), randomAccount()]
    const { pool } = seedPool(ledger, assets, users)
    const key = auctionKey(pool, AuctionType.UserLiquidation, users[0]!)
    const auction = { bid: new Map([[assets[1]!, 5n]]), lot: new Map([[assets[0]!, 9n]]), block: 77 }
    ledger.set(key, contractEntry(key, encodeAuctionData(auction)))
    const snap = await loadPool(ledger, pool, users, { reserveList: assets, auctionUsers: users })
    expect(snap.auctions.get(users[0]!)).toEqual(auction)
    expect(snap.auctions.has(users[1]!)).toBe(false)
    expect(await loadAuction(ledger, pool, AuctionType.UserLiquidation, users[0]!)).toEqual(auction)
    expect(await loadAuction(ledger, pool, AuctionType.BadDebt, users[0]!)).toBeUndefined()
  })
})

describe('storage decoding', () => {
  it('rejects a mistyped field with its name', () => {
    const bad = encodeReserveConfig(reserveConfig(0))
    const entries = xdr.expectUnionVariant(bad, 'scvMap').map!
    const i = entries.findIndex((e) => xdr.expectUnionVariant(e.key, 'scvSymbol').sym.toString() === 'c_factor')
    entries[i] = new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('c_factor'), val: xdr.ScVal.scvI32(5) })
    expect(() => decodeReserveConfig(xdr.ScVal.scvMap(entries))).toThrow(ErrDecode)
    expect(() => decodeReserveConfig(xdr.ScVal.scvMap(entries))).toThrow(/c_factor/)
  })

  it('encodes keys as Blend does: Vec[Symbol(variant), arg]; AuctionKey as a sorted map', () => {
    const pool = randomContract()
    const user = randomAccount()
    const k = xdr.expectUnionVariant(auctionKey(pool, AuctionType.BadDebt, user), 'contractData').contractData
    expect(k.durability).toEqual(xdr.ContractDataDurability.temporary)
    const [name, arg] = xdr.expectUnionVariant(k.key, 'scvVec').vec!
    expect(xdr.expectUnionVariant(name!, 'scvSymbol').sym.toString()).toBe('Auction')
    const fields = xdr.expectUnionVariant(arg!, 'scvMap').map!.map((e) => xdr.expectUnionVariant(e.key, 'scvSymbol').sym.toString())
    expect(fields).toEqual(['auct_type', 'user'])
    expect(xdr.expectUnionVariant(arg!, 'scvMap').map![0]!.val.value).toBe(1)
    const p = xdr.expectUnionVariant(positionsKey(pool, user), 'contractData').contractData
    expect(p.durability).toEqual(xdr.ContractDataDurability.persistent)
    expect(xdr.expectUnionVariant(xdr.expectUnionVariant(p.key, 'scvVec').vec![0]!, 'scvSymbol').sym.toString()).toBe('Positions')
    expect(xdr.expectUnionVariant(xdr.expectUnionVariant(resListKey(pool), 'contractData').contractData.key, 'scvSymbol').sym.toString()).toBe('ResList')
  })
})
