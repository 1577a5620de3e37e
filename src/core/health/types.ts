/**
 * Amounts keyed by reserve index: a `Map<number, bigint>` or the plain object `scValToNative`
 * makes of a `Map<u32, i128>` (keys as strings).
 */
export type IndexedAmounts = ReadonlyMap<number, bigint> | Readonly<Record<string | number, bigint>>

/** A user's Blend v2 positions (`get_positions`): dTokens, collateral bTokens, supplied bTokens. */
export type Positions = {
  liabilities: IndexedAmounts
  collateral: IndexedAmounts
  supply?: IndexedAmounts
}

/** Entries of an {@link IndexedAmounts} as `[index, amount]` in ascending index order. */
export function indexedEntries(amounts: IndexedAmounts | undefined): Array<[number, bigint]> {
  if (amounts === undefined) return []
  const raw: Array<[number, bigint]> =
    amounts instanceof Map ? [...amounts.entries()] : Object.entries(amounts).map(([k, v]): [number, bigint] => [Number(k), v as bigint])
  return raw.sort((a, b) => a[0] - b[0])
}
