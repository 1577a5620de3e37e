/** "Did you mean X?" for a near miss: a key or name within a small edit distance of a known one. */

/** Edit distance: insertions, deletions, substitutions and swaps of neighbours (optimal string alignment; case-sensitive). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1)
      d[i]![j] = v
    }
  }
  return d[a.length]![b.length]!
}

/**
 * The known word nearest to `word` when it is close enough to be a slip: at most a third of its
 * length (at least 1, case ignored); the first of equally near ones. Undefined otherwise.
 */
export function nearest(word: string, known: Iterable<string>): string | undefined {
  const limit = Math.max(1, Math.floor(word.length / 3))
  let best: { word: string; d: number } | undefined
  for (const k of known) {
    if (k === word) continue
    const d = editDistance(word.toLowerCase(), k.toLowerCase())
    if (d <= limit && (best === undefined || d < best.d)) best = { word: k, d }
  }
  return best?.word
}

/** `"; did you mean X?"` for a near miss, else `""`. */
export function didYouMean(word: string, known: Iterable<string>): string {
  const n = nearest(word, known)
  return n === undefined ? '' : `; did you mean ${n}?`
}
