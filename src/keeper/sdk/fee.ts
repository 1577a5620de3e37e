import type { SubmitResult } from '../../chain/index.js'
import type { ExecutionFee } from './types.js'

/**
 * The `Result.fee` of a fill from its submission's result: the bid of what landed (the fee
 * bump's when it did; 0 for a result that does not say), the fee charged, and the ledgers sent at
 * and included in.
 *
 * @example
 * import { executionFee } from './fee.js'
 * const res = await invoke(chain, keypair, pool, 'submit', args, await ctx.fillFee?.({ expectedProfit }))
 * return makeResult({ drew, proceeds, responseTimeMs, txHash: res.hash, fee: executionFee(res) })
 */
export function executionFee(res: Pick<SubmitResult, 'inclusionFee' | 'feeCharged' | 'bumped' | 'feeBump' | 'sentLedger' | 'ledger'>): ExecutionFee {
  return {
    bidStroops: res.bumped === true && res.feeBump !== undefined ? res.feeBump.inclusionFee : (res.inclusionFee ?? 0),
    chargedStroops: res.feeCharged ?? null,
    bumped: res.bumped ?? false,
    sentLedger: res.sentLedger ?? null,
    includedLedger: res.ledger,
  }
}
