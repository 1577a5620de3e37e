import { describe, expect, it } from 'vitest'
import { Account, Keypair, Networks, Operation, StrKey, TransactionBuilder, xdr, type rpc } from '@stellar/stellar-sdk'
import { addr, i128, struct, sym } from '../../../src/chain/scval.js'
import { readTransaction, summarize, unixSeconds } from './transaction.js'

const kp = Keypair.random()
const VAULT = StrKey.encodeContract(Buffer.alloc(32, 7))

function envelope() {
  const tx = new TransactionBuilder(new Account(kp.publicKey(), '1'), { fee: '100', networkPassphrase: Networks.TESTNET })
    .addOperation(Operation.invokeContractFunction({ contract: VAULT, function: 'deposit', args: [addr(kp.publicKey()), i128(1_000_000_000n)] }))
    .setTimeout(30)
    .build()
  return tx.toEnvelope()
}

const event = new xdr.ContractEvent({
  ext: xdr.ExtensionPoint.v0(),
  contractId: new xdr.ContractId(Buffer.alloc(32, 7)),
  type: xdr.ContractEventType.contract,
  body: xdr.ContractEventBody.v0(new xdr.ContractEventV0({ topics: [sym('deposit'), addr(kp.publicKey())], data: struct({ amount: i128(1_000_000_000n) }) })),
})

const found = {
  status: 'SUCCESS',
  txHash: 'ab'.repeat(32),
  latestLedger: 90,
  latestLedgerCloseTime: 2_000,
  oldestLedger: 1,
  oldestLedgerCloseTime: 1_000,
  ledger: 55,
  // As nodes send it: the JSON string of the unix time, though the SDK types it as a number.
  createdAt: '1700000000',
  applicationOrder: 1,
  feeBump: false,
  envelopeXdr: envelope(),
  resultXdr: { feeCharged: 61_234n },
  resultMetaXdr: {},
  events: { transactionEventsXdr: [], contractEventsXdr: [[event]] },
} as unknown as rpc.Api.GetTransactionResponse

describe('summarize', () => {
  it('decodes status, ledger, time, fee, source, the contract call and its events', () => {
    const s = summarize(found, Networks.TESTNET)
    expect(s).toMatchObject({ found: true, status: 'SUCCESS', ledger: 55, closeTime: 1_700_000_000, feeCharged: 61_234n, source: kp.publicKey(), feeBump: false })
    if (!s.found) throw new Error('not found')
    expect(s.operations).toEqual([{ type: 'invokeHostFunction', contract: VAULT, fn: 'deposit', args: [{ text: kp.publicKey(), raw: kp.publicKey() }, { text: '100.0000000', raw: '1000000000' }] }])
    expect(s.events).toEqual([{ contract: VAULT, topics: ['deposit', kp.publicKey()], data: { text: '{amount: 100.0000000}', raw: '{"amount":"1000000000"}' } }])
  })

  it('names the units of the vault’s amounts: USDC paid in, shares withdrawn', () => {
    const s = summarize(found, Networks.TESTNET, { vault: VAULT })
    if (!s.found) throw new Error('not found')
    expect(s.operations[0]!.args![1]).toEqual({ text: '100.0000000 USDC', raw: '1000000000' })
    expect(s.events[0]!.data.text).toBe('{amount: 100.0000000 USDC}')
  })

  it('reads the close time whether the node sends a number, its string or an ISO time', () => {
    expect(unixSeconds(1_700_000_000)).toBe(1_700_000_000)
    expect(unixSeconds('1700000000')).toBe(1_700_000_000)
    expect(unixSeconds('2023-11-14T22:13:20Z')).toBe(1_700_000_000)
    expect(unixSeconds(undefined)).toBe(0)
    expect(unixSeconds('soon')).toBe(0)
  })

  it('says what the node keeps when it does not have the transaction', async () => {
    const missing = { status: 'NOT_FOUND', txHash: 'ab', latestLedger: 90, latestLedgerCloseTime: 2_000, oldestLedger: 30, oldestLedgerCloseTime: 1_000 }
    const server = { getTransaction: async () => missing as rpc.Api.GetTransactionResponse }
    expect(await readTransaction(server, Networks.TESTNET, 'ab')).toEqual({ found: false, oldestLedger: 30, latestLedger: 90 })
  })
})
