import { Keypair } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { configProblems, minimalEnv } from '../../../test/keeper/configEnv.js'
import { parseConfig } from './config.js'

const base = minimalEnv(Keypair.random())

describe('DRY_RUN', () => {
  it('is off unless set, and takes true/false, 1/0, yes/no in any case', () => {
    expect(parseConfig(base).dryRun).toBe(false)
    expect(parseConfig({ ...base, DRY_RUN: '' }).dryRun).toBe(false)
    for (const on of ['true', 'TRUE', '1', 'yes', ' true ']) expect(parseConfig({ ...base, DRY_RUN: on }).dryRun, on).toBe(true)
    for (const off of ['false', 'False', '0', 'no']) expect(parseConfig({ ...base, DRY_RUN: off }).dryRun, off).toBe(false)
  })

  it('a bad value is one line naming the setting and quoting the value', () => {
    expect(configProblems({ ...base, DRY_RUN: 'maybe' })).toEqual(['DRY_RUN must be true or false, got "maybe"'])
    expect(configProblems({ ...base, DRY_RUN: 'on' })).toEqual(['DRY_RUN must be true or false, got "on"'])
  })

  it('needs nothing else: no executor, no pool, no USDC', () => {
    const c = parseConfig({ ...base, DRY_RUN: 'true' })
    expect(c).toMatchObject({ dryRun: true, executorContract: undefined, lendingPools: [], usdcContract: undefined })
  })
})
