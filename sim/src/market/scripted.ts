/**
 * Scripted price paths: a list of moves ("−30 % over an hour at t = 10 min"), optionally with
 * GBM noise on top. Used for the crash, flash-crash and slow-bleed scenarios, where the shape of
 * the move is the experiment.
 */
import { diffusionIncrements, pathFromLogIncrements } from './gbm.js'
import { checkGrid, type PathGrid, type ScriptedModel } from './grid.js'
import type { Rng } from './rng.js'

type Move = ScriptedModel['moves'][number]

/** How far move `m` has run at time `t` (seconds): 0 before `at`, 1 from `at + over` on, linear between. */
function progress(m: Move, t: number): number {
  if (t < m.at) return 0
  if (m.over === 0) return 1
  const done = (t - m.at) / m.over
  return done >= 1 ? 1 : done
}

/**
 * The script's multiplier at time `t`: the product over moves of (1 + change · progress). A
 * move thus takes the price from P to P · (1 + change), linearly in time over `over` seconds,
 * where P is the price when the move starts (the earlier moves' and the noise's doing). Moves
 * that overlap in time compound.
 */
export function scriptFactor(moves: readonly Move[], t: number): number {
  let factor = 1
  for (const m of moves) factor *= 1 + m.change * progress(m, t)
  return factor
}

/**
 * A scripted path: p[i] = start · scriptFactor(i · dt) · noise[i], where the noise is a
 * driftless GBM (a martingale, E = 1) with the model's annual volatility, from the same shocks
 * a `gbm` model would use on this stream. Without volatility the path is the script exactly:
 * a −30 % move over an hour ends at exactly 0.7 × its starting price.
 *
 * A move whose `at` or `at + over` falls between ledgers is sampled at the ledgers around it.
 * Ledger 0 is the world's opening state and always holds `startPrice`: an instant move at 0
 * shows from ledger 1 on.
 *
 * @example
 * import { derive, scriptedPath } from './index.js'
 * const crash = scriptedPath(
 *   { model: 'scripted', moves: [{ at: 600, change: -0.3, over: 3600 }], volatility: 0 },
 *   { steps: 1440, dtSeconds: 5, startPrice: 2000 },
 *   derive(1, 'price', 'WETH'),
 * )
 */
export function scriptedPath(model: ScriptedModel, grid: PathGrid, rng: Rng): Float64Array {
  checkGrid(grid)
  const noise = pathFromLogIncrements(1, diffusionIncrements(0, model.volatility, grid, rng))
  const out = new Float64Array(grid.steps + 1)
  out[0] = grid.startPrice
  for (let i = 1; i <= grid.steps; i++) {
    out[i] = grid.startPrice * scriptFactor(model.moves, i * grid.dtSeconds) * noise[i]!
  }
  return out
}
