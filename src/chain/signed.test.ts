import { Asset, Keypair, Networks, Operation, TransactionBuilder } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { FAST_RETRY, fakeNode, someCall } from '../../test/chain/fakeNode.js'
import { createChain } from './connection.js'
import { ChainError, ContractError } from './errors.js'
import { contractErrorMessage } from './records/errorMessages.js'
import { prepareWrite, sendSigned, type EnvelopeSigner } from './signed.js'

const op = someCall('deposit')
const kp = Keypair.random()
const fast = FAST_RETRY
const wallet: EnvelopeSigner = async (envelope, passphrase) => {
  const tx = TransactionBuilder.fromXdr(envelope, passphrase)
  tx.sign(kp)
  return tx.toXdr()
}

describe('wallet-signed writes', () => {
  it('prepares with the simulated fee and effect, then sends what the wallet signed', async () => {
    const { server, calls } = fakeNode({ send: ['PENDING'], get: ['SUCCESS'] })
    const chain = createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server, inclusionFee: 300, retry: fast })
    const prepared = await prepareWrite(chain, kp.publicKey(), op)
    expect(prepared.fee).toBe(300n + 12_345n)
    expect(prepared.resourceFee).toBe(12_345n)
    expect(prepared.returnValue?.value).toBe(7)
    const res = await sendSigned(chain, prepared, wallet)
    expect(res.ledger).toBe(11)
    expect(calls.sentHashes).toEqual([Buffer.from(prepared.tx.hash()).toString('hex')])
  })

  it('prepares classic operations without simulating them', async () => {
    const { server, calls } = fakeNode({ send: [], get: [] })
    const chain = createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server, retry: fast })
    const prepared = await prepareWrite(chain, kp.publicKey(), Operation.changeTrust({ asset: new Asset('USDC', Keypair.random().publicKey()) }))
    expect(calls.sim).toBe(0)
    expect(prepared.fee).toBe(100n)
    expect(prepared.returnValue).toBeUndefined()
  })

  it('refuses an envelope the wallet changed', async () => {
    const { server, calls } = fakeNode({ send: ['PENDING'], get: ['SUCCESS'] })
    const chain = createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server, retry: fast })
    const prepared = await prepareWrite(chain, kp.publicKey(), op)
    const other = await prepareWrite(chain, kp.publicKey(), op)
    await expect(sendSigned(chain, prepared, async () => other.tx.toXdr())).rejects.toThrow(ChainError)
    expect(calls.send).toBe(0)
  })

  it('reports a contract refusal at simulation with its code, which reads in words', async () => {
    const { server } = fakeNode({ send: [], get: [], sim: 'HostError: Error(Contract, #107)' })
    const chain = createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server, retry: fast })
    const err = await prepareWrite(chain, kp.publicKey(), op).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ContractError)
    expect(contractErrorMessage((err as ContractError).code)).toBe('This deposit would take the vault over its deposit cap. (DepositCapExceeded, #107)')
    expect(contractErrorMessage(999)).toBe('The contract refused the call (error #999).')
  })
})
