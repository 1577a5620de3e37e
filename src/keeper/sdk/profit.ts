import type { Result, VaultClient } from './types.js'

/**
 * Builds a `Result` with `profit = max(0, proceeds - drew)` (a loss books no profit; the vault
 * absorbs it in total_usdc).
 *
 * @example
 * import { makeResult } from './profit.js'
 * makeResult({ drew: 100n, proceeds: 103n, responseTimeMs: 850 }).profit // 3n
 */
export function makeResult(r: Omit<Result, 'profit'>): Result {
  const profit = r.proceeds > r.drew ? r.proceeds - r.drew : 0n
  return { ...r, profit }
}

/**
 * `vault.returnProceeds`, with the keeper fee the return paid (`returnProceedsWithFee` when the
 * client has it, else 0): what a closing return's result carries as its `reward`.
 *
 * @example
 * import { returnWithFee } from './profit.js'
 * const { fee } = await returnWithFee(vault, proceeds, responseTimeMs)
 * return makeResult({ drew, proceeds, responseTimeMs, reward: fee })
 */
export async function returnWithFee(vault: VaultClient, amount: bigint, responseTimeMs: number): Promise<{ profit: bigint; fee: bigint }> {
  if (vault.returnProceedsWithFee !== undefined) return vault.returnProceedsWithFee(amount, responseTimeMs)
  return { profit: await vault.returnProceeds(amount, responseTimeMs), fee: 0n }
}
