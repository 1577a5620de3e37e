import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, render, screen } from '@solidjs/testing-library'
import { Account, Keypair, Networks, Operation, StrKey, TransactionBuilder, type rpc } from '@stellar/stellar-sdk'
import { addr, i128 } from '../../../src/chain/scval.js'
import type { Reads } from '../clients/chain.js'
import { ConfigContext, type ConfigStore } from '../stores/config.js'
import { TxView } from './TxView.js'

const kp = Keypair.random()
const VAULT = StrKey.encodeContract(Buffer.alloc(32, 7))
const HASH = 'ab'.repeat(32)
const retention = { txHash: HASH, latestLedger: 90, latestLedgerCloseTime: 2_000, oldestLedger: 30, oldestLedgerCloseTime: 1_000 }

function show(answer: rpc.Api.GetTransactionResponse, hash = HASH) {
  const reads = { contracts: { vault: VAULT }, chain: { networkPassphrase: Networks.TESTNET, server: { getTransaction: async () => answer } } } as unknown as Reads
  const store = { loaded: (() => undefined) as unknown as ConfigStore['loaded'], reload: () => {}, config: () => undefined, reads: () => reads } as ConfigStore
  render(() => (
    <ConfigContext.Provider value={store}>
      <TxView hash={hash} />
    </ConfigContext.Provider>
  ))
}

afterEach(cleanup)

describe('TxView', () => {
  it('shows a transaction the node keeps', async () => {
    const envelopeXdr = new TransactionBuilder(new Account(kp.publicKey(), '1'), { fee: '100', networkPassphrase: Networks.TESTNET })
      .addOperation(Operation.invokeContractFunction({ contract: VAULT, function: 'withdraw', args: [addr(kp.publicKey()), i128(100_000_000n)] }))
      .setTimeout(30)
      .build()
      .toEnvelope()
    // createdAt as nodes send it: a string
    show({ ...retention, status: 'SUCCESS', ledger: 55, createdAt: '1700000000', applicationOrder: 1, feeBump: false, envelopeXdr, resultXdr: { feeCharged: 61_234n }, resultMetaXdr: {}, events: { transactionEventsXdr: [], contractEventsXdr: [[]] } } as unknown as rpc.Api.GetTransactionResponse)
    expect((await screen.findByTestId('tx-status')).textContent).toBe('Succeeded')
    expect(screen.getByTestId('tx-ledger').textContent).toBe('55')
    expect(screen.getByTestId('tx-fee').textContent).toBe('0.0061234 XLM')
    expect(screen.getByTestId('tx-source').textContent).toBe(kp.publicKey())
    expect(screen.getByTestId('tx-operation').textContent).toBe(`withdraw(${kp.publicKey()}, 10.0000000 shares) on contract ${VAULT}`)
    expect(screen.getByTestId('tx-operation').querySelector('[data-raw="100000000"]')?.getAttribute('title')).toBe('raw: 100000000')
    expect(screen.getByTestId('tx-closed').textContent).toBe('2023-11-14 22:13:20 UTC')
  })

  it('says in words when the node no longer keeps it, and refuses what is not a hash', async () => {
    show({ ...retention, status: 'NOT_FOUND' } as rpc.Api.GetTransactionResponse)
    expect((await screen.findByTestId('tx-not-found')).textContent).toBe('Not found on this node: it keeps only recent transactions (ledgers 30 to 90 now).')
    cleanup()
    show({ ...retention, status: 'NOT_FOUND' } as rpc.Api.GetTransactionResponse, 'nope')
    expect(screen.getByRole('alert').textContent).toBe('“nope” is not a transaction hash (64 hexadecimal digits).')
  })
})
