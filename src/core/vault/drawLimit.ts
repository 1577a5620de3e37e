import { InvalidInputError } from '../errors.js'
import { assertI128 } from '../fixed/assertI128.js'
import { checkedMul } from '../fixed/checkedMul.js'
import { divRound } from '../fixed/divRound.js'
import { BPS } from './slippageFloor.js'

function keepBps(slashRateBps: number | bigint): bigint {
  if (typeof slashRateBps === 'number' && !Number.isInteger(slashRateBps))
    throw new InvalidInputError('slashRateBps must be an integer.', `slashRateBps = ${slashRateBps}`)
  const rate = BigInt(slashRateBps)
  // The registry refuses a rate of 0 and anything above 5000.
  if (rate <= 0n || rate >= BPS) throw new InvalidInputError('slashRateBps must be in 1..9999.', `slashRateBps = ${rate}`)
  return BPS - rate
}

/**
 * The most a keeper with `stake` may hold in a two-step draw (the registry's `draw_limit`):
 * `floor(stake * (10000 - slashRateBps) / 10000)`. A slash then takes the whole draw and the
 * penalty `floor(stake * slashRateBps / 10000)` from the stake, so the vault loses nothing.
 *
 * @example
 * import { drawLimit } from './index.js'
 * drawLimit(1_000_0000000n, 1000) // 900_0000000n
 */
export function drawLimit(stake: bigint, slashRateBps: number | bigint): bigint {
  const s = assertI128(stake, 'stake')
  if (s < 0n) throw new InvalidInputError('stake must not be negative.', `stake = ${s}`)
  return divRound(checkedMul(s, keepBps(slashRateBps), 'stake * keep_bps'), BPS, 'floor')
}

/**
 * The bond to add on top of `minStake` so that `drawLimit` covers `maxDraw`:
 * `ceil(maxDraw * 10000 / (10000 - slashRateBps)) - minStake`, or 0 when min_stake covers it.
 *
 * @example
 * import { bondForDraw } from './index.js'
 * bondForDraw(10_000_0000000n, 100_0000000n, 1000) // 11_011_1111112n
 */
export function bondForDraw(maxDraw: bigint, minStake: bigint, slashRateBps: number | bigint): bigint {
  const d = assertI128(maxDraw, 'max_draw')
  if (d < 0n) throw new InvalidInputError('maxDraw must not be negative.', `maxDraw = ${d}`)
  const stake = divRound(checkedMul(d, BPS, 'max_draw * 10000'), keepBps(slashRateBps), 'ceil')
  const bond = stake - minStake
  return bond > 0n ? bond : 0n
}
