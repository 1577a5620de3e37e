import { Keypair, xdr } from '@stellar/stellar-sdk'

/** The ledger entry of a plain account (no signers, no sub-entries), as getLedgerEntries returns it. */
export function accountEntryData(account: string, balance: bigint, seqNum = 42n): xdr.LedgerEntryData {
  return xdr.LedgerEntryData.account(
    new xdr.AccountEntry({
      accountId: Keypair.fromPublicKey(account).xdrPublicKey(),
      balance,
      seqNum,
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
