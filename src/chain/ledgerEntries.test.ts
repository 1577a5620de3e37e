import { Keypair, StrKey, xdr, type rpc } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { nativeBalance } from './ledgerEntries.js'

function accountEntry(account: string, balance: bigint): xdr.LedgerEntryData {
  return xdr.LedgerEntryData.account(
    new xdr.AccountEntry({
      accountId: Keypair.fromPublicKey(account).xdrPublicKey(),
      balance,
      seqNum: 42n,
      numSubEntries: 0,
      inflationDest: null,
      flags: 0,
      homeDomain: '',
      thresholds: Buffer.from([1, 0, 0, 0]),
      signers: [],
      ext: xdr.AccountEntryExt.v0(),
    }),
  )
}

describe('nativeBalance', () => {
  it("reads an account's XLM balance in stroops from its ledger entry, and undefined for a missing account", async () => {
    const account = Keypair.random().publicKey()
    const asked: string[] = []
    const node = {
      getLedgerEntries: async (...keys: xdr.LedgerKey[]) => {
        const id = xdr.expectUnionVariant(xdr.expectUnionVariant(keys[0]!, 'account').account.accountId, 'publicKeyTypeEd25519').ed25519
        asked.push(StrKey.encodeEd25519PublicKey(Buffer.from(id.toBytes())) === account ? 'the account' : 'another')
        return { entries: asked.length === 1 ? [{ val: accountEntry(account, 9_223_372_036_854_775_807n) }] : [], latestLedger: 5 }
      },
    } as unknown as Pick<rpc.Server, 'getLedgerEntries'>
    expect(await nativeBalance(node, account)).toBe(9_223_372_036_854_775_807n)
    expect(await nativeBalance(node, account)).toBeUndefined()
    expect(asked).toEqual(['the account', 'the account'])
  })
})
