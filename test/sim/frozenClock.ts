/**
 * A wall clock that stands still, for tests that compare two runs ledger by ledger. Transactions
 * get their time bounds from `Date.now()` (the SDK's TransactionBuilder.setTimeout), so on a
 * moving clock two runs of one seed sign different envelopes — different transaction hashes —
 * whatever else they do; with the clock held, the tests see only the differences they look for.
 */

/** Holds `Date.now()` at `at` until the returned function puts the real clock back. */
export function freezeWallClock(at = Date.now()): () => void {
  const real = Date.now
  Date.now = () => at
  return () => {
    Date.now = real
  }
}

/** Runs `f` with the wall clock held (see freezeWallClock). */
export async function withFrozenWallClock<T>(f: () => Promise<T>, at?: number): Promise<T> {
  const restore = freezeWallClock(at)
  try {
    return await f()
  } finally {
    restore()
  }
}
