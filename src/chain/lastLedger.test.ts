import { Asset, Keypair, Networks, Operation, xdr, type rpc, type Transaction } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { FAST_RETRY, fakeNode, someCall } from '../../test/chain/fakeNode.js'
import { createChain, type RpcLike } from './connection.js'
import { LedgerMissedError } from './errors.js'
import { submit } from './submit.js'

const op = someCall('get_state')
const kp = Keypair.random()
const fast = FAST_RETRY

/**
 * A node whose simulation reads ledger `simLedger`, and whose getTransaction answers `gets` in
 * turn: a number is "not found" at that latest ledger, 'SUCCESS' the transaction at ledger 12.
 */
function node(simLedger: number, gets: Array<number | 'SUCCESS'>, send: 'PENDING' | 'TOO_LATE' = 'PENDING') {
  const base = fakeNode({ send: ['PENDING'], get: [] })
  const sent: Transaction[] = []
  let polls = 0
  const server: RpcLike = {
    ...base.server,
    async simulateTransaction(tx) {
      const r = await base.server.simulateTransaction(tx)
      return { ...r, latestLedger: simLedger } as rpc.Api.SimulateTransactionResponse
    },
    async sendTransaction(tx) {
      sent.push(tx as Transaction)
      if (send === 'TOO_LATE') {
        return { status: 'ERROR', hash: 'h', latestLedger: 13, errorResult: { result: { type: 'txTooLate' } } } as unknown as rpc.Api.SendTransactionResponse
      }
      return { status: 'PENDING', hash: 'h', latestLedger: simLedger } as unknown as rpc.Api.SendTransactionResponse
    },
    async getTransaction() {
      const g = gets[Math.min(polls++, gets.length - 1)]!
      if (g === 'SUCCESS') return { status: 'SUCCESS', ledger: 12, latestLedger: 12, returnValue: xdr.ScVal.scvU32(7) } as unknown as rpc.Api.GetTransactionResponse
      return { status: 'NOT_FOUND', latestLedger: g } as unknown as rpc.Api.GetTransactionResponse
    },
  }
  return { server, sent, calls: base.calls, polls: () => polls }
}

const chainOf = (server: RpcLike) => createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server, retry: fast })

describe('submit with a last ledger', () => {
  it('bounds the transaction to the ledgers up to it (the XDR bound is exclusive)', async () => {
    const n = node(10, [11, 'SUCCESS'])
    const res = await submit(chainOf(n.server), kp, op, { lastLedger: 12 })
    expect(res.ledger).toBe(12)
    expect(n.sent).toHaveLength(1)
    expect(n.sent[0]!.ledgerBounds).toEqual({ minLedger: 0, maxLedger: 13 })
    // Without one, no ledger bounds.
    const free = node(10, ['SUCCESS'])
    await submit(chainOf(free.server), kp, op)
    expect(free.sent[0]!.ledgerBounds).toBeUndefined()
  })

  it('gives up once the node answers past the last ledger without it: no rebuild, no second send', async () => {
    const n = node(10, [11, 11, 12, 'SUCCESS'])
    const err = await submit(chainOf(n.server), kp, op, { lastLedger: 12 }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(LedgerMissedError)
    expect((err as LedgerMissedError).lastLedger).toBe(12)
    expect(n.sent).toHaveLength(1)
    expect(n.calls.account).toBe(1)
    expect(n.polls()).toBe(3)
  })

  it('does not send when the simulation already read the last ledger', async () => {
    const n = node(12, ['SUCCESS'])
    await expect(submit(chainOf(n.server), kp, op, { lastLedger: 12 })).rejects.toBeInstanceOf(LedgerMissedError)
    expect(n.sent).toHaveLength(0)
  })

  it("gives up without a request once the caller's ledger clock has seen the last ledger close", async () => {
    const n = node(10, ['SUCCESS'])
    let seen: number | undefined
    const chain = { ...chainOf(n.server), latestLedger: () => seen }
    seen = 11
    const res = await submit(chain, kp, op, { lastLedger: 12 })
    expect(res.ledger).toBe(12)
    seen = 12
    const err = await submit(chain, kp, op, { lastLedger: 12 }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(LedgerMissedError)
    expect(n.calls.account).toBe(1)
    expect(n.sent).toHaveLength(1)
  })

  it('takes a txTOO_LATE refusal of a bounded transaction as missed, not as a rejection to rebuild', async () => {
    const n = node(10, ['SUCCESS'], 'TOO_LATE')
    await expect(submit(chainOf(n.server), kp, op, { lastLedger: 11 })).rejects.toBeInstanceOf(LedgerMissedError)
    expect(n.sent).toHaveLength(1)
  })

  it('bounds classic transactions too', async () => {
    const n = node(10, ['SUCCESS'])
    const pay = Operation.payment({ destination: Keypair.random().publicKey(), asset: Asset.native(), amount: '1' })
    await submit(chainOf(n.server), kp, pay, { lastLedger: 20 })
    expect(n.sent[0]!.ledgerBounds).toEqual({ minLedger: 0, maxLedger: 21 })
  })
})
