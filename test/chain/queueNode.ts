/**
 * A Stellar RPC node with a transaction queue, ledgers closed by the test's clock and
 * stellar-core's replace-by-fee, for the fee-bump unit tests. Each ledger includes the queued
 * transaction only when `includes` says so (e.g. when its bid beats a competitor's).
 */
import { Account, FeeBumpTransaction, Networks, SorobanDataBuilder, rpc, xdr, type Transaction } from '@stellar/stellar-sdk'
import type { RpcLike } from '../../src/chain/connection.js'
import type { ChainClock } from '../../src/chain/connection.js'

export interface Queued {
  hash: string
  /** Inclusion fee of the envelope, all operations together (fee less the declared resource fee). */
  inclusionFee: bigint
  /** Operations, a fee bump counting one more. */
  operations: number
  feeBump: boolean
  fee: bigint
}

export interface QueueNodeScript {
  /** Whether the ledger `ledger` includes `tx` (default: always). */
  includes?: (tx: Queued, ledger: number) => boolean
  /** Answer to a fee bump's sendTransaction instead of the replace-by-fee rule. */
  bumpAnswer?: 'THROW' | 'TRY_AGAIN_LATER'
  /**
   * Both envelopes reach a ledger (a node that keeps the original after accepting its fee bump):
   * the original applies and the bump fails with txBadSeq.
   */
  bothApply?: boolean
  /** Ledger at the start. */
  startLedger?: number
  /** Milliseconds per ledger on the test's clock (default 5000). */
  ledgerMs?: number
}

const RESOURCE_FEE = 12_345n

function describe(tx: Transaction | FeeBumpTransaction): Queued {
  const hash = Buffer.from(tx.hash()).toString('hex')
  const fee = BigInt(tx.fee)
  if (tx instanceof FeeBumpTransaction) {
    const inner = tx.innerTransaction
    return { hash, inclusionFee: fee - RESOURCE_FEE, operations: inner.operations.length + 1, feeBump: true, fee }
  }
  const soroban = tx.operations.some((op) => op.type === 'invokeHostFunction')
  return { hash, inclusionFee: fee - (soroban ? RESOURCE_FEE : 0n), operations: tx.operations.length, feeBump: false, fee }
}

export function queueNode(script: QueueNodeScript = {}) {
  const ledgerMs = script.ledgerMs ?? 5_000
  const start = script.startLedger ?? 100
  let now = 1_700_000_000_000
  let seq = 100n
  const queue: Queued[] = []
  const landed = new Map<string, { ledger: number; fee: bigint; badSeq?: boolean }>()
  const sent: Queued[] = []
  let ledger = start
  const calls = { getLatestLedger: 0, getTransaction: 0 }

  function closeUpTo(target: number): void {
    while (ledger < target) {
      ledger++
      for (const q of [...queue]) {
        if (script.includes?.(q, ledger) ?? true) {
          queue.splice(queue.indexOf(q), 1)
          // Charged: the inclusion fee as bid (no surge here) plus the resource fee.
          landed.set(q.hash, { ledger, fee: q.fee, ...(landed.get(q.hash)?.badSeq ? { badSeq: true } : {}) })
        }
      }
    }
  }
  const clock: ChainClock = {
    now: () => now,
    sleep: async (ms) => {
      now += ms
      closeUpTo(start + Math.floor((now - 1_700_000_000_000) / ledgerMs))
    },
  }

  const server: RpcLike = {
    async getAccount(id: string) {
      return new Account(id, String(seq++))
    },
    async simulateTransaction() {
      return {
        id: '1',
        latestLedger: ledger,
        events: [],
        _parsed: true,
        transactionData: new SorobanDataBuilder().setResourceFee(RESOURCE_FEE),
        minResourceFee: String(RESOURCE_FEE),
        result: { auth: [], retval: xdr.ScVal.scvU32(7) },
      } as unknown as rpc.Api.SimulateTransactionResponse
    },
    async sendTransaction(tx) {
      const q = describe(tx)
      sent.push(q)
      const answer = (status: string, errorResult?: unknown) =>
        ({ status, hash: q.hash, latestLedger: ledger, latestLedgerCloseTime: 0, errorResult }) as unknown as rpc.Api.SendTransactionResponse
      if (!q.feeBump) {
        queue.push(q)
        return answer('PENDING')
      }
      if (script.bumpAnswer === 'THROW') throw new Error('socket hang up')
      if (script.bumpAnswer === 'TRY_AGAIN_LATER') return answer('TRY_AGAIN_LATER')
      const old = queue.find((o) => !o.feeBump)
      // stellar-core canReplaceByFee: newFee * oldOps >= 10 * oldFee * newOps.
      if (old === undefined || q.inclusionFee * BigInt(old.operations) < 10n * old.inclusionFee * BigInt(q.operations)) {
        return answer('ERROR', { result: { type: 'txInsufficientFee' } })
      }
      if (script.bothApply) {
        // The bump applies after the original, whose sequence number it then finds used.
        queue.push(q)
        landed.set(q.hash, { ledger: -1, fee: q.fee, badSeq: true })
        return answer('PENDING')
      }
      queue.splice(queue.indexOf(old), 1, q)
      return answer('PENDING')
    },
    async getTransaction(hash: string) {
      calls.getTransaction++
      const l = landed.get(hash)
      if (l === undefined || l.ledger < 0) return { status: 'NOT_FOUND', latestLedger: ledger } as unknown as rpc.Api.GetTransactionResponse
      if (l.badSeq) {
        const resultXdr = { feeCharged: 100n, result: { type: 'txFeeBumpInnerFailed', innerResultPair: { result: { result: { type: 'txBadSeq' } } } } }
        return { status: 'FAILED', ledger: l.ledger, latestLedger: ledger, resultXdr } as unknown as rpc.Api.GetTransactionResponse
      }
      return {
        status: 'SUCCESS',
        ledger: l.ledger,
        latestLedger: ledger,
        returnValue: xdr.ScVal.scvU32(7),
        resultXdr: { feeCharged: l.fee },
      } as unknown as rpc.Api.GetTransactionResponse
    },
    async getNetwork() {
      return { passphrase: Networks.TESTNET, protocolVersion: 23 } as unknown as rpc.Api.GetNetworkResponse
    },
    async getLatestLedger() {
      calls.getLatestLedger++
      return { id: 'x', sequence: ledger, protocolVersion: '23', closeTime: String(Math.floor(now / 1000)) } as unknown as rpc.Api.GetLatestLedgerResponse
    },
  }
  return { server, clock, sent, queue, landed, calls, ledger: () => ledger, resourceFee: RESOURCE_FEE }
}
