import { Keypair } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { parseScenarioText } from '../../scenario/load.js'
import { adversaryFunding, adversaryNames } from './index.js'

const scenario = parseScenarioText(
  `run: {ledgers: 10}
world:
  depositors: {count: 2, adversaries: [{kind: jit-deposit, amount: 2500}, {kind: exit-ahead, depositor: 1}, {kind: jit-deposit, amount: 10}]}
  vault: {maxDrawPerKeeper: 9000}
  registry: {minStake: 1000, slashRateBps: 1000}
keepers:
  count: 4
  individual: [{index: 3, hostile: skim}, {index: 1, hostile: {kind: par-returns, victim: 0}}, {index: 2, hostile: draw-and-run}]
`,
  'x.yaml',
).scenario
const keepers = Array.from({ length: 4 }, (_, i) => Keypair.fromRawEd25519Seed(Buffer.alloc(32, i + 1)))

describe('adversaries of a scenario', () => {
  it('are named after the keeper they replace or the depositor they are, hostile keepers first in index order', () => {
    expect(adversaryNames(scenario)).toEqual(['keeper-2', 'keeper-3', 'keeper-4', 'jit-1', 'depositor-1', 'jit-2'])
  })

  it('need a funded account per JIT depositor (the same for the same seed) and the par-returns bond minted to its operator', () => {
    const f = adversaryFunding(scenario, { keepers }, 7)
    expect(f.accounts).toHaveLength(2)
    expect(f.accounts.map((a) => a.publicKey())).toEqual(adversaryFunding(scenario, { keepers }, 7).accounts.map((a) => a.publicKey()))
    expect(f.accounts[0]!.publicKey()).not.toBe(adversaryFunding(scenario, { keepers }, 8).accounts[0]!.publicKey())
    // the bond that backs max_draw_per_keeper: ceil(9000 / 0.9) − min_stake = 9000
    expect(f.mints).toEqual([
      { to: f.accounts[0]!.publicKey(), amount: 2_500_0000000n },
      { to: f.accounts[1]!.publicKey(), amount: 10_0000000n },
      { to: keepers[1]!.publicKey(), amount: 9_000_0000000n },
    ])
  })
})
