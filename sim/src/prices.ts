/**
 * A run's prices, decided before it starts: the market path of every collateral (sim/src/market
 * models, one seeded stream per asset) and what the oracle posts of it (heartbeat, deviation,
 * delay), one value per ledger step.
 */
import type { PricePlan } from './agents/environment.js'
import { marketTimeline, oracleTimeline, toPrice7 } from './market/index.js'
import type { LoadedScenario } from './scenario/load.js'

export { toPrice7 }

export function buildPricePlan(loaded: LoadedScenario, seed: number, steps: number): PricePlan {
  const s = loaded.scenario
  const dt = s.run.ledgerSeconds
  const assets = s.world.assets.map((a) => a.code)
  const market = marketTimeline(s.market, s.world.assets, { seed, steps, dtSeconds: dt, baseDir: loaded.dir })
  const { oracle, posts } = oracleTimeline(market, dt, s.market.oracle)
  // Ledger 0 is the world's opening state: nothing to post there.
  posts[0] = 0
  return { assets, market, oracle, posts }
}
