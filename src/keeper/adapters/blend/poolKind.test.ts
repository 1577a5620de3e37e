/**
 * Telling a Blend v2 pool from anything else by its instance storage, on real mainnet entries:
 * Blend v1's "Fixed XLM-USDC" pool and the XLM Stellar Asset Contract at ledger 55,261,759
 * (sandbox/fixtures/blend-mainnet-55261759).
 */
import { join } from 'node:path'
import { xdr } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { contractDataEntries } from '../../../../test/keeper/snapshotJson.js'
import { ErrNotBlendV2 } from './errors.js'
import { encodePoolConfig, FakeLedger, instanceEntry, randomContract } from './fakeLedger.test-util.js'
import { loadPool } from './loadPool.js'
import { assertBlendV2, poolKind } from './poolKind.js'
import { decodeInstanceStorage, instanceKey, keyId } from './storage.js'

const FIXTURE = join(import.meta.dirname, '..', '..', '..', '..', 'sandbox', 'fixtures', 'blend-mainnet-55261759', 'snapshot.json')
const V1_POOL = 'CDVQVKOY2YSXS2IC7KN6MNASSHPAO7UN2UR2ON4OI2SKMFJNVAMDX6DP'
const XLM_SAC = 'CAS3J7GYLGXMF6TDJBBYYSE3HQ6BBSMLNUQ34T6TZMYMW2EVH34XOWMA'

const entries = contractDataEntries(FIXTURE)
const instanceOf = (contract: string) => {
  const e = entries.find((x) => keyId(x.key) === keyId(instanceKey(contract)))
  if (e === undefined) throw new Error(`the fixture has no instance of ${contract}`)
  return e.val
}
const v2Storage = () =>
  decodeInstanceStorage(instanceEntry(instanceKey(V1_POOL), { Config: encodePoolConfig({ oracle: randomContract(), min_collateral: 1n, bstop_rate: 2_000_000, status: 1, max_positions: 4 }) }))

describe('poolKind', () => {
  it("names mainnet's Blend v1 pool a Blend v1 pool: its PoolConfig has no min_collateral and its instance keeps IsInit", () => {
    const storage = decodeInstanceStorage(instanceOf(V1_POOL))
    expect(poolKind(storage)).toEqual({
      kind: 'blend-v1',
      what: 'a Blend v1 pool (its PoolConfig has no min_collateral, which Blend v2 pools have, and its instance keeps v1\'s "IsInit")',
    })
    expect(() => assertBlendV2(V1_POOL, storage)).toThrow(
      `pool ${V1_POOL}: a Blend v1 pool (its PoolConfig has no min_collateral, which Blend v2 pools have, and its instance keeps v1's "IsInit"), not Blend v2 — only Blend v2 pools are supported`,
    )
  })

  it('a Blend v2 PoolConfig passes', () => {
    expect(poolKind(v2Storage())).toEqual({ kind: 'blend-v2' })
    expect(() => assertBlendV2(V1_POOL, v2Storage())).not.toThrow()
  })

  it('a contract with no Config (the XLM Stellar Asset Contract) is not a Blend pool; a Config of other fields is not Blend v2', () => {
    expect(poolKind(decodeInstanceStorage(instanceOf(XLM_SAC)))).toEqual({ kind: 'other', what: 'not a Blend pool (its instance storage has no "Config")' })
    const odd = new Map([['Config', xdr.ScVal.scvMap([new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('oracle'), val: xdr.ScVal.scvU32(1) })])]])
    expect(poolKind(odd)).toMatchObject({ kind: 'other', what: expect.stringContaining('its "Config" has fields oracle; a Blend v2 PoolConfig has bstop_rate, max_positions, min_collateral, oracle, status') })
    expect(poolKind(new Map([['Config', xdr.ScVal.scvU32(3)]]))).toMatchObject({ kind: 'other', what: expect.stringContaining('is a scvU32, not a PoolConfig map') })
  })

  it("loadPool refuses the v1 pool before decoding it (the keeper's read side gives the same words)", async () => {
    const ledger = new FakeLedger()
    for (const e of entries) ledger.set(e.key, e.val)
    const err = await loadPool(ledger, V1_POOL, []).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ErrNotBlendV2)
    expect(err).toMatchObject({ code: 'NOT_BLEND_V2', pool: V1_POOL, kind: 'blend-v1' })
    expect((err as Error).message).not.toContain('cannot decode')
  })
})
