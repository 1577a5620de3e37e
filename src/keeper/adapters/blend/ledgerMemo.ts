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
