/**
 * A Stellar RPC node that queues at most one transaction per source account, as stellar-core's
 * TransactionQueue does (src/herder/TransactionQueue.cpp, `canAdd`: a second one from an account
 * that already has one queued gets TRY_AGAIN_LATER). A ledger closes every `ledgerMs` of the
 * test's clock and applies everything queued. Classic transactions only (no simulation).
 */
import { Account, Networks, rpc, type FeeBumpTransaction, type Transaction } from '@stellar/stellar-sdk'
import type { ChainClock, RpcLike } from '../../src/chain/connection.js'

export function accountQueueNode(opts: { ledgerMs?: number; startLedger?: number } = {}) {
  const ledgerMs = opts.ledgerMs ?? 5_000
  const start = opts.startLedger ?? 100
  let now = 1_700_000_000_000
  const t0 = now
  const seqs = new Map<string, bigint>()
  const queue = new Map<string, { hash: string; source: string }>()
  const landed = new Map<string, number>()
  /** Each applied transaction: the ledger and its source account. */
  const applied: { ledger: number; source: string; hash: string }[] = []
  const stats = { tryAgainLater: 0, sent: 0 }
  const ledger = () => start + Math.floor((now - t0) / ledgerMs)
  let closed = start
  const catchUp = () => {
    while (closed < ledger()) {
      closed++
      for (const [source, q] of queue) {
        landed.set(q.hash, closed)
        applied.push({ ledger: closed, source, hash: q.hash })
        seqs.set(source, (seqs.get(source) ?? 100n) + 1n)
      }
      queue.clear()
    }
  }
  const server: RpcLike = {
    async getAccount(id: string) {
      catchUp()
      return new Account(id, String(seqs.get(id) ?? 100n))
    },
    async simulateTransaction() {
      throw new Error('classic transactions only')
    },
    async sendTransaction(tx: Transaction | FeeBumpTransaction) {
      catchUp()
      stats.sent++
      const hash = Buffer.from(tx.hash()).toString('hex')
      const source = 'innerTransaction' in tx ? tx.innerTransaction.source : tx.source
      const base = { hash, latestLedger: closed, latestLedgerCloseTime: Math.floor(now / 1000) }
      if (queue.has(source)) {
        stats.tryAgainLater++
        return { ...base, status: 'TRY_AGAIN_LATER' } as unknown as rpc.Api.SendTransactionResponse
      }
      queue.set(source, { hash, source })
      return { ...base, status: 'PENDING' } as unknown as rpc.Api.SendTransactionResponse
    },
    async getTransaction(hash: string) {
      catchUp()
      const at = landed.get(hash)
      if (at === undefined) return { status: rpc.Api.GetTransactionStatus.NOT_FOUND, latestLedger: closed } as unknown as rpc.Api.GetTransactionResponse
      return {
        status: rpc.Api.GetTransactionStatus.SUCCESS,
        latestLedger: closed,
        ledger: at,
        resultXdr: { feeCharged: 100n },
      } as unknown as rpc.Api.GetTransactionResponse
    },
    async getNetwork() {
      return { passphrase: Networks.TESTNET, protocolVersion: 23 } as unknown as rpc.Api.GetNetworkResponse
    },
    async getLatestLedger() {
      catchUp()
      return { id: 'x', sequence: closed, protocolVersion: '23', closeTime: String(Math.floor(now / 1000)) } as unknown as rpc.Api.GetLatestLedgerResponse
    },
  }
  const clock: ChainClock = {
    now: () => now,
    sleep: async (ms: number) => {
      now += ms
      await new Promise<void>((r) => setImmediate(r))
    },
  }
  /** Queues `tx` as if another process sent it (its account then refuses a second). */
  const occupy = (source: string) => queue.set(source, { hash: `other-${source}`, source })
  return { server, clock, applied, stats, occupy, latest: () => closed }
}
