import { describe, expect, it } from 'vitest'
import { priceModel } from '../scenario/schema.js'
import { gbmPath } from './gbm.js'
import type { ScriptedModel } from './grid.js'
import { derive } from './rng.js'
import { scriptedPath } from './scripted.js'

function scripted(moves: ScriptedModel['moves'], volatility = 0): ScriptedModel {
  return { model: 'scripted', moves, volatility }
}

describe('scriptedPath', () => {
  const grid = { steps: 1440, dtSeconds: 5, startPrice: 2000 }

  it('crashes −30 % over an hour: flat before, linear during, exactly 0.7 × start at the end, flat after', () => {
    // at 10 min = ledger 120, over 1 h = 720 ledgers.
    const path = scriptedPath(scripted([{ at: 600, change: -0.3, over: 3600 }]), grid, derive(1))
    for (let i = 0; i <= 120; i++) expect(path[i]).toBe(2000)
    for (let i = 120; i <= 840; i++) {
      expect(path[i]).toBeCloseTo(2000 * (1 - (0.3 * (i - 120)) / 720), 9)
    }
    expect(path[840]).toBe(2000 * 0.7)
    for (let i = 840; i <= grid.steps; i++) expect(path[i]).toBe(2000 * 0.7)
    // Linear: equal steps between consecutive ledgers of the move.
    const stepSize = path[121]! - path[120]!
    for (let i = 121; i <= 840; i++) expect(path[i]! - path[i - 1]!).toBeCloseTo(stepSize, 9)
  })

  it('returns to the start after a −50 % flash crash and a +100 % recovery', () => {
    const path = scriptedPath(
      scripted([
        { at: 300, change: -0.5, over: 60 },
        { at: 600, change: 1, over: 300 },
      ]),
      grid,
      derive(1),
    )
    expect(path[60 + 12]).toBe(1000)
    expect(Math.min(...path)).toBe(1000)
    expect(path[180]).toBe(2000)
    expect(path[grid.steps]).toBe(2000)
    // The recovery is linear from the price when it starts: +1000 over 60 ledgers.
    expect(path[150]).toBeCloseTo(1500, 9)
  })

  it('keeps ledger 0 at the start price; an instant move at 0 shows from ledger 1', () => {
    const path = scriptedPath(scripted([{ at: 0, change: -0.2, over: 0 }]), grid, derive(1))
    expect(path[0]).toBe(2000)
    expect(path[1]).toBe(1600)
  })

  it('samples a move between ledgers at the ledgers around it', () => {
    const path = scriptedPath(scripted([{ at: 7, change: 0.1, over: 0 }]), grid, derive(1))
    expect(path[1]).toBe(2000) // t = 5 s
    expect(path[2]).toBeCloseTo(2200, 9) // t = 10 s
  })

  it('compounds moves that overlap', () => {
    const path = scriptedPath(
      scripted([
        { at: 0, change: -0.5, over: 100 },
        { at: 50, change: -0.5, over: 100 },
      ]),
      grid,
      derive(1),
    )
    // t = 100: the first move is done (× 0.5), the second half done (× 0.75).
    expect(path[20]).toBeCloseTo(2000 * 0.5 * 0.75, 9)
    expect(path[30]).toBeCloseTo(500, 9)
  })

  it('puts driftless GBM noise from the gbm model’s shocks on top of the script', () => {
    const moves = [{ at: 600, change: -0.3, over: 3600 }]
    const noisy = scriptedPath(scripted(moves, 0.8), grid, derive(4, 'price', 'WETH'))
    const clean = scriptedPath(scripted(moves), grid, derive(4, 'price', 'WETH'))
    const noise = gbmPath({ model: 'gbm', drift: 0, volatility: 0.8 }, { ...grid, startPrice: 1 }, derive(4, 'price', 'WETH'))
    expect(noisy).not.toEqual(clean)
    for (let i = 0; i <= grid.steps; i++) expect(noisy[i]).toBeCloseTo(clean[i]! * noise[i]!, 8)
    expect(scriptedPath(scripted(moves, 0.8), grid, derive(4, 'price', 'WETH'))).toEqual(noisy)
  })

  it('takes the schema’s durations ("10m", "1h") once parsed', () => {
    const model = priceModel.parse({ model: 'scripted', moves: [{ at: '10m', change: -0.3, over: '1h' }] })
    expect(model.model).toBe('scripted')
    const path = scriptedPath(model as ScriptedModel, grid, derive(1))
    expect(path[840]).toBe(1400)
  })
})
