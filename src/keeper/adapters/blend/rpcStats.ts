/**
 * Counts of RPC requests a component made, and of sequential waves (requests sent together in
 * parallel count as one wave: they cost one network round trip of latency).
 */
export interface RpcStats {
  getLedgerEntries: number
  simulateTransaction: number
  getEvents: number
  other: number
  /** Sequential waves of requests (parallel requests in one wave count once). */
  waves: number
}

export function newRpcStats(): RpcStats {
  return { getLedgerEntries: 0, simulateTransaction: 0, getEvents: 0, other: 0, waves: 0 }
}

export function totalRequests(s: RpcStats): number {
  return s.getLedgerEntries + s.simulateTransaction + s.getEvents + s.other
}

export function addStats(into: RpcStats, from: RpcStats): void {
  into.getLedgerEntries += from.getLedgerEntries
  into.simulateTransaction += from.simulateTransaction
  into.getEvents += from.getEvents
  into.other += from.other
  into.waves += from.waves
}
