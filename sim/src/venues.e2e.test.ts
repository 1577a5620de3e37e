import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { addr, read } from '../../src/chain/index.js'
import { REPO_ROOT } from '../../sandbox/ts/launch.js'
import { keypairFor, type World } from '../../src/world/index.js'
import { runScenario } from './run.js'
import { parseScenarioText } from './scenario/load.js'
import { usd } from './serviceSettings.js'

const OUT = join(REPO_ROOT, 'target', 'test-sim-venues')

/**
 * crash-short's shape on split venues: WETH sells on the two routers and a Comet pool, LINK on
 * thin USDC pairs beside a deep pair against WBTC; both fall 20 % at once after a minute.
 */
const SCENARIO = `
description: Split venues (tests) — WETH and LINK −20 % at once after one minute; a Comet pool for WETH, a pair through WBTC for LINK.
run:
  ledgers: 240
world:
  assets:
    - { code: WETH, price: 2000, dexDepthUsd: 100000, cometDepthUsd: 150000 }
    - { code: WBTC, price: 60000 }
    - { code: LINK, price: 15, dexDepthUsd: 20000, via: { asset: WBTC, depthUsd: 300000 } }
  borrowers: { count: 6, collateralMix: { WETH: 1, LINK: 1 } }
market:
  prices:
    WETH: { model: scripted, moves: [{ at: 1m, change: -0.20, over: 0 }] }
    LINK: { model: scripted, moves: [{ at: 1m, change: -0.20, over: 0 }] }
keepers:
  count: 2
  latency: { model: constant, ms: 200 }
`

const SEED = 1

describe('split sale venues on the sandbox (a Comet pool, a pair through another collateral)', () => {
  it('the keepers sell on more than one kind of route, the arbitrageurs bring the Comet pool and the via pair to the crashed prices, the audit holds and the replay agrees', { timeout: 180_000 }, async () => {
    const loaded = parseScenarioText(SCENARIO, join(REPO_ROOT, 'sim', 'scenarios', 'venues-e2e.yaml'))
    const end: { comet: number; via: number; cometTrader: bigint; viaTrader: bigint } = { comet: 0, via: 0, cometTrader: 0n, viaTrader: 0n }
    const r = await runScenario({
      loaded,
      seed: SEED,
      outDir: join(OUT, 'a'),
      onEnd: async (world: World) => {
        const weth = world.asset('WETH').contract
        const link = world.asset('LINK').contract
        const wbtc = world.asset('WBTC').contract
        const comet = world.dex.comets.find((c) => c.asset === weth)!.pool
        const [cw, cu] = await Promise.all([weth, world.usdc.contract].map((t) => read<bigint>(world.chain, comet, 'get_balance', [addr(t)])))
        end.comet = Number(cu!) / Number(cw!)
        const pair = world.dex.pairs.find((p) => p.tokenA === link && p.tokenB === wbtc)!
        const [rl, rb] = await read<bigint[]>(world.chain, pair.router, 'get_reserves', [addr(link), addr(wbtc)])
        end.via = Number(rb!) / Number(rl!)
        end.cometTrader = await world.balance('WETH', keypairFor(BigInt(SEED), 'arb/comet/WETH').publicKey())
        end.viaTrader = await world.balance('LINK', keypairFor(BigInt(SEED), 'arb/via/LINK').publicKey())
      },
    })

    expect(r.summary.auctions.filled).toBeGreaterThan(0)
    expect(r.summary.replayMismatches).toBe(0)
    expect(r.audit.holds).toBe(true)

    // the keepers' landed fills sold on several kinds of route, the Comet pool and the via pair among them
    const sales = r.summary.sales!
    expect(sales.comet).toBeGreaterThan(0)
    expect(sales.via).toBeGreaterThan(0)
    expect([sales.primary, sales.fallback, sales.via, sales.comet].filter((n) => n > 0).length).toBeGreaterThan(1)
    for (const kind of ['primary', 'fallback', 'via', 'comet', 'split'] as const) {
      expect(r.keepers.reduce((n, k) => n + k.sales![kind], 0)).toBe(sales[kind])
    }
    // every fill is an atomic one that sold something
    expect(sales.primary + sales.fallback + sales.via + sales.comet).toBeGreaterThanOrEqual(r.summary.fills)

    // the arbitrageurs traded both pools (their balances moved off what they were funded with) and
    // left them at the crashed prices: WETH at 1,600 USDC, LINK at 12 / 60,000 WBTC, not the opening 2,000 and 15 / 60,000
    expect(end.cometTrader).not.toBe(usd((150_000 * 10) / 2_000))
    expect(end.viaTrader).not.toBe(usd((300_000 * 10) / 15))
    expect(Math.abs(end.comet / 1_600 - 1)).toBeLessThan(0.01)
    expect(Math.abs(end.via / (12 / 60_000) - 1)).toBeLessThan(0.01)
  })
})
