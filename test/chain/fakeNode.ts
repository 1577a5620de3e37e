/** A scripted Stellar RPC node for the submission pipeline's unit tests. */
import { Account, Networks, Operation, SorobanDataBuilder, rpc, xdr } from '@stellar/stellar-sdk'
import type { RpcLike } from '../../src/chain/connection.js'

/** Retries that do not wait: the scripted node answers at once. */
export const FAST_RETRY = { backoffMs: 1, pollIntervalMs: 1, expiryGraceMs: 0 }

/** A contract invocation for the pipeline to carry (the scripted node never runs it). */
export function someCall(fn: string): xdr.Operation {
  return Operation.invokeContractFunction({ contract: 'CA3D5KRYM6CB7OWQ6TWYRR3Z4T7GNZLKERYNZGGA5SOAOPIFY6YQGAXE', function: fn, args: [] })
}

export type Send = 'PENDING' | 'TRY_AGAIN_LATER' | 'DUPLICATE' | 'ERROR'

/** A scripted node: each call takes the next answer of its script. */
export function fakeNode(script: { send: Array<Send | 'THROW'>; get: string[]; sim?: 'ok' | string; closeTime?: number }) {
  let seq = 100n
  const calls = { send: 0, get: 0, sim: 0, account: 0, sentHashes: [] as string[], sentMaxTimes: [] as number[] }
  const server: RpcLike = {
    async getAccount(id: string) {
      calls.account++
      return new Account(id, String(seq++))
    },
    async simulateTransaction() {
      calls.sim++
      if (script.sim && script.sim !== 'ok') {
        return { id: '1', latestLedger: 10, events: [], _parsed: true, error: script.sim } as unknown as rpc.Api.SimulateTransactionResponse
      }
      return {
        id: '1',
        latestLedger: 10,
        events: [],
        _parsed: true,
        transactionData: new SorobanDataBuilder().setResourceFee(12_345n),
        minResourceFee: '12345',
        result: { auth: [], retval: xdr.ScVal.scvU32(7) },
      } as unknown as rpc.Api.SimulateTransactionResponse
    },
    async sendTransaction(tx) {
      const status = script.send[calls.send++] ?? 'PENDING'
      calls.sentHashes.push(Buffer.from(tx.hash()).toString('hex'))
      calls.sentMaxTimes.push(Number(('timeBounds' in tx ? tx.timeBounds?.maxTime : undefined) ?? 0))
      if (status === 'THROW') throw new Error('socket hang up')
      const errorResult =
        status === 'ERROR'
          ? ({ result: { type: 'txInsufficientBalance' } } as unknown as xdr.TransactionResult)
          : undefined
      return { status, hash: Buffer.from(tx.hash()).toString('hex'), latestLedger: 10, latestLedgerCloseTime: 0, errorResult } as unknown as rpc.Api.SendTransactionResponse
    },
    async getTransaction() {
      const status = script.get[calls.get++] ?? 'NOT_FOUND'
      if (status === 'THROW') throw new Error('ECONNRESET')
      return { status, ledger: 11, returnValue: xdr.ScVal.scvU32(7) } as unknown as rpc.Api.GetTransactionResponse
    },
    async getNetwork() {
      return { passphrase: Networks.TESTNET, protocolVersion: 23 } as unknown as rpc.Api.GetNetworkResponse
    },
    async getLatestLedger() {
      return { id: 'x', sequence: 12, protocolVersion: '23', closeTime: String(script.closeTime ?? 4_000_000_000) } as unknown as rpc.Api.GetLatestLedgerResponse
    },
  }
  return { server, calls }
}

