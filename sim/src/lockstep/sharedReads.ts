/**
 * Reads shared between agents while one ledger is being built.
 *
 * In the lockstep the node's state only changes at a close, so two agents that ask the node the
 * same question before the next close get the same answer: the keepers' scans (events from the
 * same cursor, the pool's entries, the oracle's prices by a simulation from the all-zero
 * account) and their vault and registry reads repeat each other every ledger. The first request
 * goes to the node; the others take its answer. Only the wire is saved: every agent still makes
 * its call, with its own ticket, faults and release order (scheduler.ts). A failed request is
 * not kept: whoever asks next asks the node again.
 */
import type { FeeBumpTransaction, rpc, Transaction, xdr } from '@stellar/stellar-sdk'
import { ledgerKeyId } from '../../../src/chain/ledgerEntries.js'

export class SharedReads {
  private readonly answers = new Map<string, Promise<unknown>>()
  hits = 0

  /** The answer to `key` in the ledger being built: `request`'s, made once. */
  read<T>(key: string, request: () => Promise<T>): Promise<T> {
    const known = this.answers.get(key)
    if (known !== undefined) {
      this.hits++
      return known as Promise<T>
    }
    const answer = request()
    this.answers.set(key, answer)
    answer.catch(() => {
      if (this.answers.get(key) === answer) this.answers.delete(key)
    })
    return answer
  }

  /** A ledger closed: every answer is about the old state. */
  clear(): void {
    this.answers.clear()
  }
}

/** What identifies a read: the method and everything its answer depends on besides the state. */
export const readKey = {
  getLedgerEntries: (keys: readonly xdr.LedgerKey[]) => `getLedgerEntries|${keys.map(ledgerKeyId).join(',')}`,
  getEvents: (req: rpc.Api.GetEventsRequest) =>
    `getEvents|${JSON.stringify(req, (_k, v: unknown) => (typeof v === 'object' && v !== null && 'toXdr' in v ? String((v as { toXdr(f: string): string }).toXdr('base64')) : v))}`,
  // The auth mode (record_allow_nonroot: an auth required below the root call) changes the answer.
  simulateTransaction: (tx: Transaction | FeeBumpTransaction, addlResources?: unknown, authMode?: string) =>
    `simulateTransaction|${tx.toXDR()}|${JSON.stringify(addlResources ?? null)}${authMode === undefined ? '' : `|${authMode}`}`,
}

/** `share(key, request)`: the answer of the ledger being built, made once (Scheduler.shared). */
export type Share = <T>(key: string, request: () => Promise<T>) => Promise<T>

/**
 * The harness's own client (not an agent's: no tickets) with its reads shared like the agents':
 * the observer reads the state a close left, which is the state the agents read next.
 */
export function sharedServer(server: rpc.Server, share: Share): rpc.Server {
  const s = server
  const shared: Partial<rpc.Server> = {
    getLedgerEntries: (...keys: xdr.LedgerKey[]) => share(readKey.getLedgerEntries(keys), () => s.getLedgerEntries(...keys)),
    getEvents: (req: rpc.Api.GetEventsRequest) => share(readKey.getEvents(req), () => s.getEvents(req)),
    simulateTransaction: (tx: Transaction | FeeBumpTransaction, addl?: Parameters<rpc.Server['simulateTransaction']>[1], authMode?: Parameters<rpc.Server['simulateTransaction']>[2]) =>
      share(readKey.simulateTransaction(tx, addl, authMode), () => s.simulateTransaction(tx, addl, authMode)),
  }
  return new Proxy(server, {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && prop in shared) return shared[prop as keyof typeof shared]
      const v = Reflect.get(target, prop, receiver) as unknown
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v
    },
  })
}
