import { InvalidInputError } from '../errors.js'
import { assertI128 } from '../fixed/assertI128.js'
import { checkedMul } from '../fixed/checkedMul.js'
import { divRound } from '../fixed/divRound.js'
import { BPS } from './slippageFloor.js'

/**
 * The keeper's fee out of a closing return's or a flash draw's gross profit G:
 * `floor(G * feeBps / 10000)` when G > 0, else 0. The vault books `G - fee` as profit.
 *
 * Rounding is `floor`: the keeper never gets more than its share, the remainder stays with the
 * depositors. `G * feeBps` is checked i128 arithmetic (`Overflow`), like the share math and the
 * contract. `grossProfit` must be an i128 (`Overflow`), `feeBps` an integer in 0..10000 (`InvalidInput`;
 * the vault itself refuses a `keeper_fee_bps` above 5000).
 *
 * @example
 * import { keeperFee } from './index.js'
 * keeperFee(50_0000000n, 1000) // 5_0000000n
 * keeperFee(3n, 5000) // 1n
 * keeperFee(-7n, 1000) // 0n
 */
export function keeperFee(grossProfit: bigint, feeBps: number | bigint): bigint {
  const g = assertI128(grossProfit, 'gross_profit')
  if (typeof feeBps === 'number' && !Number.isInteger(feeBps))
    throw new InvalidInputError('feeBps must be an integer.', `feeBps = ${feeBps}`)
  const bps = BigInt(feeBps)
  if (bps < 0n || bps > BPS) throw new InvalidInputError('feeBps must be in 0..10000.', `feeBps = ${bps}`)
  if (g <= 0n) return 0n
  // floor: toward the depositors, against the keeper.
  return divRound(checkedMul(g, bps, 'gross_profit * fee_bps'), BPS, 'floor')
}
