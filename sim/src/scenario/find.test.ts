import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../../sandbox/ts/launch.js'
import { findScenario } from './find.js'

const SHIPPED = join(REPO_ROOT, 'sim', 'scenarios')

describe('findScenario', () => {
  it('takes a file, or the name of a shipped scenario with or without its ending', () => {
    expect(findScenario(join(SHIPPED, 'calm.yaml'), SHIPPED)).toBe(join(SHIPPED, 'calm.yaml'))
    expect(findScenario('calm', SHIPPED)).toBe(join(SHIPPED, 'calm.yaml'))
    expect(findScenario('calm.yaml', SHIPPED)).toBe(join(SHIPPED, 'calm.yaml'))
  })

  it('says in one line that a mistyped path is no file, without inventing a second path', () => {
    const r = findScenario('sim/scenarios/nonexistent.yaml', SHIPPED)
    expect(r).toEqual({ missing: 'no scenario file sim/scenarios/nonexistent.yaml (npm run sim -- list shows the shipped ones)' })
    expect(JSON.stringify(r)).not.toMatch(/yaml\.yaml/)
  })

  it('offers the nearest shipped name for a near miss', () => {
    expect(findScenario('crash30', SHIPPED)).toEqual({ missing: 'no scenario file crash30 here and no shipped scenario named crash30; did you mean crash-30?' })
    expect(findScenario('nonexistent', SHIPPED)).toEqual({ missing: 'no scenario file nonexistent here and no shipped scenario named nonexistent (npm run sim -- list shows the shipped ones)' })
  })
})
