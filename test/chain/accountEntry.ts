import type { xdr } from '@stellar/stellar-sdk'
import { plainAccountEntry } from '../../src/chain/index.js'

/** The ledger entry of a plain account (no signers, no sub-entries), as getLedgerEntries returns it. */
export function accountEntryData(account: string, balance: bigint, seqNum = 42n): xdr.LedgerEntryData {
  return plainAccountEntry(account, balance, seqNum)
}
