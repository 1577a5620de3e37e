/**
 * Reads kept for one ledger: every caller asking for the same key at the same ledger shares one
 * read; asking at another ledger drops what was kept. A failed read is not kept, so the next
 * caller reads again.
 */
export function ledgerMemo<T>() {
  const kept = new Map<string, Promise<T>>()
  let at: number | undefined
  return (ledger: number, key: string, read: () => Promise<T>): Promise<T> => {
    if (at !== ledger) {
      kept.clear()
      at = ledger
    }
    let found = kept.get(key)
    if (found === undefined) {
      const reading = read()
      found = reading
      kept.set(key, reading)
      reading.catch(() => {
        if (kept.get(key) === reading) kept.delete(key)
      })
    }
    return found
  }
}

/**
 * One request in flight per source: callers that ask while it is out share its answer (the
 * latest ledger asked by a hundred plans started together is one request); a call after it has
 * settled asks again, so nothing older than the request is ever handed out.
 */
export function singleFlight<K extends object, T>(read: (source: K) => Promise<T>): (source: K) => Promise<T> {
  const inflight = new WeakMap<K, Promise<T>>()
  return (source) => {
    let found = inflight.get(source)
    if (found === undefined) {
      found = read(source).finally(() => inflight.delete(source))
      inflight.set(source, found)
    }
    return found
  }
}
