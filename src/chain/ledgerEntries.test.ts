import { Keypair, StrKey, xdr, type rpc } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { accountEntryData } from '../../test/chain/accountEntry.js'
import { nativeBalance } from './ledgerEntries.js'

describe('nativeBalance', () => {
  it("reads an account's XLM balance in stroops from its ledger entry, and undefined for a missing account", async () => {
    const account = Keypair.random().publicKey()
    const asked: string[] = []
    const node = {
      getLedgerEntries: async (...keys: xdr.LedgerKey[]) => {
        const id = xdr.expectUnionVariant(xdr.expectUnionVariant(keys[0]!, 'account').account.accountId, 'publicKeyTypeEd25519').ed25519
        asked.push(StrKey.encodeEd25519PublicKey(Buffer.from(id.toBytes())) === account ? 'the account' : 'another')
        return { entries: asked.length === 1 ? [{ val: accountEntryData(account, 9_223_372_036_854_775_807n) }] : [], latestLedger: 5 }
      },
    } as unknown as Pick<rpc.Server, 'getLedgerEntries'>
    expect(await nativeBalance(node, account)).toBe(9_223_372_036_854_775_807n)
    expect(await nativeBalance(node, account)).toBeUndefined()
    expect(asked).toEqual(['the account', 'the account'])
  })
})
