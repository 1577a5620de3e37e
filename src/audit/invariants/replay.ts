/**
 * The vault's books before and after each event, replayed backward from the books read now.
 *
 * Going backward needs no starting point, so it works on any window of history: the books after
 * the last event are the current ones, and undoing an event gives the books before it (the
 * inverse of contracts/vault's deposit, withdraw, draw, return and write_off arithmetic). When
 * the window holds the whole history, the books before its first event must be all zero.
 */
import type { VaultEvent } from '../events.js'
import type { VaultBooks } from '../reads.js'

/** One event with the books around it. */
export interface BookStep {
  event: VaultEvent
  before: VaultBooks
  after: VaultBooks
}

export interface Replay {
  /** The books before the first event of the window. */
  initial: VaultBooks
  /** In chain order. */
  steps: BookStep[]
}

/** The books before `e`, given the books after it. */
export function undo(e: VaultEvent, after: VaultBooks): VaultBooks {
  const b = { ...after }
  switch (e.kind) {
    case 'deposit':
      b.totalUsdc -= e.amount
      b.totalShares -= e.shares + e.deadShares
      break
    case 'withdraw':
      b.totalUsdc += e.amount
      b.totalShares += e.shares
      break
    case 'draw':
      b.activeLiq -= e.amount
      break
    case 'return':
      // amount = principal repaid + profit; profit went into total_usdc and total_profit.
      b.totalUsdc -= e.profit
      b.totalProfit -= e.profit
      b.activeLiq += e.amount - e.profit
      break
    case 'write_off':
      b.activeLiq += e.writtenDown
      b.totalUsdc += e.writtenDown - e.recovered
      break
    case 'registry':
      break
  }
  return b
}

/** Replays `events` (chain order) backward from `current`. */
export function replayBackward(events: readonly VaultEvent[], current: VaultBooks): Replay {
  const steps: BookStep[] = []
  let after = current
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!
    const before = undo(event, after)
    steps.push({ event, before, after })
    after = before
  }
  steps.reverse()
  return { initial: after, steps }
}

/**
 * Whether the share price went down from `before` to `after`, compared exactly
 * (U1 / S1 < U0 / S0 as U1 * S0 < U0 * S1); an empty vault prices a share at 1.
 */
export function priceFell(before: VaultBooks, after: VaultBooks): boolean {
  const [u0, s0] = before.totalShares > 0n ? [before.totalUsdc, before.totalShares] : [1n, 1n]
  const [u1, s1] = after.totalShares > 0n ? [after.totalUsdc, after.totalShares] : [1n, 1n]
  return u1 * s0 < u0 * s1
}
