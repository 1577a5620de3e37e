import { Account, Keypair, Networks, Operation, TransactionBuilder } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { readKey, sharedServer } from './sharedReads.js'

const tx = new TransactionBuilder(new Account(Keypair.fromRawEd25519Seed(Buffer.alloc(32, 7)).publicKey(), '1'), { fee: '100', networkPassphrase: Networks.TESTNET })
  .addOperation(Operation.bumpSequence({ bumpTo: '2' }))
  .setTimeout(0)
  .build()

describe('shared simulations', () => {
  it('key a simulation by its auth mode too, and keep the key of one without it', () => {
    expect(readKey.simulateTransaction(tx)).toBe(`simulateTransaction|${tx.toXDR()}|null`)
    expect(readKey.simulateTransaction(tx, undefined, 'record_allow_nonroot')).toBe(`simulateTransaction|${tx.toXDR()}|null|record_allow_nonroot`)
  })

  it('pass the auth mode on to the node', async () => {
    const calls: unknown[][] = []
    const node = { simulateTransaction: async (...args: unknown[]) => (calls.push(args), { ok: true }) }
    const server = sharedServer(node as never, (_key, request) => request())
    await server.simulateTransaction(tx, undefined, 'record_allow_nonroot')
    expect(calls).toEqual([[tx, undefined, 'record_allow_nonroot']])
  })
})
