import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Keypair } from '@stellar/stellar-sdk'
import { afterAll, describe, expect, it } from 'vitest'
import { borrowersInHintsFile, borrowersInSnapshot, mergeBorrowers, snapshotLedger } from './borrowers.js'
import { toOracleUnits } from './oracleControl.js'

const POOL = 'CDVQVKOY2YSXS2IC7KN6MNASSHPAO7UN2UR2ON4OI2SKMFJNVAMDX6DP'
const OTHER = 'CAS3J7GYLGXMF6TDJBBYYSE3HQ6BBSMLNUQ34T6TZMYMW2EVH34XOWMA'
const [a, b, c] = [1, 2, 3].map((i) => Keypair.fromRawEd25519Seed(Buffer.alloc(32, i)).publicKey()) as [string, string, string]

/** A contract-data entry as LedgerSnapshot's serde JSON writes it. */
const data = (contract: string, key: unknown) => ({ last_modified_ledger_seq: 5, data: { contract_data: { ext: 'v0', contract, key, durability: 'persistent', val: 'void' } }, ext: 'v0' })
const positions = (contract: string, user: string) => data(contract, { vec: [{ symbol: 'Positions' }, { address: user }] })

describe('borrowers of a found pool', () => {
  const dir = mkdtempSync(join(tmpdir(), 'found-borrowers-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("reads the pool's Positions entries from a snapshot in either layout, and nothing else", () => {
    const entries = [
      positions(POOL, a),
      positions(OTHER, b),
      data(POOL, { vec: [{ symbol: 'ResData' }, { address: OTHER }] }),
      data(POOL, 'ledger_key_contract_instance'),
      { last_modified_ledger_seq: 1, data: { account: { account_id: a } }, ext: 'v0' },
      positions(POOL, c),
    ]
    const old = { sequence_number: 72, ledger_entries: entries.map((e) => [{}, [e, 100]]) }
    expect(borrowersInSnapshot(old, POOL)).toEqual([a, c])
    expect(snapshotLedger(old)).toBe(72)
    const v2 = { ledger: { sequence_number: 9, ledger_entries: entries.map((e) => ({ entry: e, live_until: null })) } }
    expect(borrowersInSnapshot(v2, POOL)).toEqual([a, c])
    expect(snapshotLedger(v2)).toBe(9)
    expect(() => borrowersInSnapshot({ hello: 1 }, POOL)).toThrow('not a ledger snapshot')
  })

  it('merges the sources in order, each address once, and counts what each named', () => {
    expect(mergeBorrowers({ snapshot: [a, b], hints: [b, c], list: [a] })).toEqual({ borrowers: [a, b, c], counts: { snapshot: 2, hints: 2, list: 1 } })
  })

  it('reads a hints file and names a bad line by file:line', async () => {
    const good = join(dir, 'good.txt')
    writeFileSync(good, `# borrowers\n${a}\n\n${b}  # whale\n${a}\n`)
    expect(await borrowersInHintsFile(good)).toEqual([a, b])
    const bad = join(dir, 'bad.txt')
    writeFileSync(bad, `${a}\nnot-an-address\n`)
    await expect(borrowersInHintsFile(bad)).rejects.toThrow(`${bad}:2: "not-an-address" is not a Stellar account`)
    await expect(borrowersInHintsFile(join(dir, 'missing.txt'))).rejects.toThrow(/borrower hints .*missing\.txt: ENOENT/)
  })
})

describe('prices in an oracle’s units', () => {
  it('scales to the oracle’s decimals, exactly up to 12 and by powers of ten past them', () => {
    expect(toOracleUnits(1_600.5, 7)).toBe(16_005_000_000n)
    expect(toOracleUnits(0.123456789, 14)).toBe(12_345_678_900_000n)
    expect(toOracleUnits(2, 0)).toBe(2n)
    expect(() => toOracleUnits(0, 7)).toThrow(RangeError)
    expect(() => toOracleUnits(Number.NaN, 7)).toThrow(RangeError)
  })
})
