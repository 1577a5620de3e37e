/**
 * The RPC client one simulated agent sees: the sandbox's own rpc.Server behind a layer that
 * (1) hands every call to the scheduler, which releases the answers in the run's order, (2) enters every accepted
 * transaction into the mempool with the agent's seeded latency, (3) answers getTransaction for
 * a transaction still waiting for its ledger only after that ledger closed (no polling in wall
 * time; under core ordering after the next close, which may leave it waiting in the node's
 * queue), (4) answers TRY_AGAIN_LATER to a send from an account that already has a transaction
 * pending (Mempool.admits: stellar-core's one transaction per account), (5) injects seeded
 * faults: a read fails, or a send reaches the network but its answer is lost, and (6) refuses
 * everything once the agent's process is dead.
 */
import { createHash } from 'node:crypto'
import { xdr, type rpc, type Transaction, type FeeBumpTransaction } from '@stellar/stellar-sdk'
import { keyedUniform, Occurrences } from './keyed.js'
import type { Mempool } from './mempool.js'
import { readKey } from './sharedReads.js'
import type { Scheduler } from './scheduler.js'

export interface SimRpcParameters {
  server: rpc.Server
  agent: string
  klass: 0 | 1
  mempool: Mempool
  scheduler: Scheduler
  seed: number
  /** The ledger being built (latest closed + 1). */
  ledger: () => number
  /** Milliseconds from decision to network for a transaction with this key. */
  latencyMs: (key: string) => number
  /** Chance that one call fails. */
  faultRate: number
  /** Called once per injected fault (reports). */
  onFault?: (method: string) => void
  /** Called as each call is made, with the key its seeded draws use (determinism traces). */
  onRequest?: (method: string, key: string) => void
  /**
   * While the scheduler passes answers straight through (set-up, where the node closes a ledger
   * per transaction), called with the latest ledger each answer names: the agents' clock follows
   * the chain's from the first transaction on. In the lockstep only the loop's closes move it.
   */
  onLatest?: (latest: { sequence: number; closeTimeMs: number }) => void
}

export class SimulatedFault extends Error {
  override name = 'SimulatedFault'
}

export class AgentDead extends Error {
  override name = 'AgentDead'
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 32)

/**
 * What a transaction does, without who sends it, its sequence number or its auth nonces (which
 * depend on which channel account took it): the key for its seeded latency and faults.
 */
function opsKey(tx: Transaction | FeeBumpTransaction): string {
  const inner = 'innerTransaction' in tx ? tx.innerTransaction : tx
  const parts = xdr.expectUnionVariant(inner.toEnvelope(), 'envelopeTypeTx').v1.tx.operations.map((op) => {
    const body = op.body
    return body.type === 'invokeHostFunction' ? body.invokeHostFunctionOp.hostFunction.toXdr('base64') : op.toXdr('base64')
  })
  return sha(parts.join('|'))
}

export class SimRpc {
  dead = false
  private readonly occ = new Occurrences()

  constructor(private readonly p: SimRpcParameters) {}

  /** Reports the latest ledger an answer names (set-up only) and hands the answer on. */
  private seen<T>(answer: T, sequence: number | undefined, closeTime: string | number | undefined): T {
    const seconds = Number(closeTime ?? 0)
    if (this.p.scheduler.direct && this.p.onLatest !== undefined && typeof sequence === 'number' && seconds > 0) {
      this.p.onLatest({ sequence, closeTimeMs: seconds * 1000 })
    }
    return answer
  }

  private fault(method: string, key: string): boolean {
    if (this.p.faultRate <= 0) return false
    const ledger = this.p.ledger()
    const n = this.occ.next(ledger, `${method}:${key}`)
    const hit = keyedUniform(this.p.seed, 'fault', this.p.agent, ledger, method, key, n) < this.p.faultRate
    if (hit) this.p.onFault?.(method)
    return hit
  }

  /** `shared`: the answer is a function of the request and the state (scheduler.read). */
  private async call<T>(method: string, key: string, f: () => Promise<T>, shared?: string): Promise<T> {
    if (this.dead) throw new AgentDead(`${this.p.agent} is not running`)
    this.p.onRequest?.(method, key)
    if (this.fault(method, key)) return this.p.scheduler.call(() => Promise.reject(new SimulatedFault(`simulated RPC fault on ${method}`)))
    return shared === undefined ? this.p.scheduler.call(f) : this.p.scheduler.call(() => this.p.scheduler.shared(shared, f))
  }

  getAccount(address: string) {
    return this.call('getAccount', address, () => this.p.server.getAccount(address))
  }
  getNetwork() {
    return this.call('getNetwork', '', () => this.p.server.getNetwork())
  }
  getHealth() {
    return this.call('getHealth', '', () => this.p.server.getHealth())
  }
  getLatestLedger() {
    // The latest ledger only changes at a close: one answer per ledger (it carries the whole
    // ledger's close meta, which the node encodes and the client parses on every request).
    return this.call('getLatestLedger', '', () => this.p.server.getLatestLedger(), 'getLatestLedger').then((l) => this.seen(l, l.sequence, l.closeTime))
  }
  getLedgers(req: Parameters<rpc.Server['getLedgers']>[0]) {
    return this.call('getLedgers', JSON.stringify(req), () => this.p.server.getLedgers(req))
  }
  getLedgerEntries(...keys: Parameters<rpc.Server['getLedgerEntries']>) {
    const shared = readKey.getLedgerEntries(keys)
    return this.call('getLedgerEntries', sha(shared.slice('getLedgerEntries|'.length)), () => this.p.server.getLedgerEntries(...keys), shared)
  }
  getEvents(req: Parameters<rpc.Server['getEvents']>[0]) {
    const shared = readKey.getEvents(req)
    return this.call('getEvents', sha(shared.slice('getEvents|'.length)), () => this.p.server.getEvents(req), shared)
  }
  getFeeStats() {
    return this.call('getFeeStats', '', () => this.p.server.getFeeStats())
  }
  simulateTransaction(
    tx: Parameters<rpc.Server['simulateTransaction']>[0],
    addlResources?: Parameters<rpc.Server['simulateTransaction']>[1],
    authMode?: Parameters<rpc.Server['simulateTransaction']>[2],
  ) {
    return this.call(
      'simulateTransaction',
      opsKey(tx as Transaction),
      () => this.p.server.simulateTransaction(tx, addlResources, authMode),
      readKey.simulateTransaction(tx, addlResources, authMode),
    )
  }

  async sendTransaction(tx: Transaction | FeeBumpTransaction): Promise<rpc.Api.SendTransactionResponse> {
    if (this.dead) throw new AgentDead(`${this.p.agent} is not running`)
    const key = opsKey(tx)
    this.p.onRequest?.('sendTransaction', key)
    const inner = 'innerTransaction' in tx ? tx.innerTransaction : tx
    const seq = BigInt(inner.sequence)
    const hash = xdr.encodeBytes(tx.hash(), 'hex')
    const m = this.p.mempool
    // Judged as the send reaches the node (sends go one at a time, in order): one per account.
    const res = await this.p.scheduler.call(async (): Promise<rpc.Api.SendTransactionResponse> => {
      if (!m.admits(inner.source, seq, hash, inner !== tx)) return this.tryAgainLater(hash)
      const answer = await this.p.server.sendTransaction(tx)
      if (answer.status === 'PENDING') m.claim(inner.source, seq, answer.hash)
      return answer
    }, true)
    this.seen(res, res.latestLedger, res.latestLedgerCloseTime)
    if (res.status === 'TRY_AGAIN_LATER') m.refused(this.p.agent)
    if (res.status === 'PENDING') {
      // A fee bump takes the place of its inner transaction in the node's queue.
      const original = inner !== tx ? m.replaced(inner.source, seq, res.hash, this.p.agent) : undefined
      const ledger = this.p.ledger()
      const n = this.occ.next(ledger, `send:${key}`)
      const latencyMs = this.p.klass === 0 ? 0 : this.p.latencyMs(`${key}:${n}`)
      this.p.mempool.add({
        hash: res.hash,
        agent: this.p.agent,
        klass: this.p.klass,
        arrivalMs: latencyMs,
        latencyMs,
        submittedLedger: original ?? ledger,
        key: `${key}:${n}`,
        source: inner.source,
        seq,
      })
      // The request reached the network; only the answer is lost.
      if (this.fault('sendTransaction', key)) throw new SimulatedFault('simulated RPC fault: no answer to sendTransaction')
    }
    return res
  }

  /** stellar-rpc's answer when the node's queue does not take a transaction: no error result. */
  private async tryAgainLater(hash: string): Promise<rpc.Api.SendTransactionResponse> {
    const l = await this.p.server.getLatestLedger()
    return { status: 'TRY_AGAIN_LATER', hash, latestLedger: l.sequence, latestLedgerCloseTime: Number(l.closeTime ?? 0) }
  }

  async getTransaction(hash: string): Promise<rpc.Api.GetTransactionResponse> {
    if (this.dead) throw new AgentDead(`${this.p.agent} is not running`)
    this.p.onRequest?.('getTransaction', hash)
    // Only a close can end the wait for the ledger that applies it.
    const m = this.p.mempool
    if (m.isPending(hash)) await this.p.scheduler.park(m.ordering === 'core' ? Promise.race([m.applied(hash), m.nextClose()]) : m.applied(hash))
    if (this.dead) throw new AgentDead(`${this.p.agent} is not running`)
    const res = await this.p.scheduler.call(() => this.p.server.getTransaction(hash))
    return this.seen(res, res.latestLedger, res.latestLedgerCloseTime)
  }
}
