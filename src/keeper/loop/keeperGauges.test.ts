import { Keypair } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { cycleWorld, keeperInfo, type CycleWorld } from '../../../test/keeper/cycleFakes.js'
import type { KeeperInfo } from '../clients/index.js'
import { stateView } from '../routes/views.js'
import { runCycle } from './cycle.js'

/** The value of an unlabelled keeper metric as /metrics renders it. */
async function exposed(w: CycleWorld, name: string): Promise<string | undefined> {
  const text = await w.deps.metrics.registry.metrics()
  return new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]
}

describe('registration, slashed and XLM gauges', () => {
  it('are NaN (no alert can fire) until the cycle has read them', async () => {
    const w = cycleWorld()
    expect(await exposed(w, 'service_keeper_registered')).toBe('Nan')
    expect(await exposed(w, 'service_keeper_slashed')).toBe('Nan')
    expect(await exposed(w, 'service_operator_xlm_balance')).toBe('Nan')
  })

  it('follow the registry: listed, slashed, gone; a failed read leaves the last values', async () => {
    const keypair = Keypair.random()
    let listed: KeeperInfo[] = []
    let down = false
    const registry = {
      getKeepers: async () => {
        if (down) throw new Error('rpc down')
        return listed
      },
      getKeeper: async () => listed[0]!,
    }
    const w = cycleWorld({ keypair, registry })
    const other = keeperInfo(Keypair.random().publicKey())

    listed = [other]
    await runCycle(w.deps)
    expect([await exposed(w, 'service_keeper_registered'), await exposed(w, 'service_keeper_slashed')]).toEqual(['0', '0'])

    listed = [other, keeperInfo(keypair.publicKey())]
    await runCycle(w.deps)
    expect([await exposed(w, 'service_keeper_registered'), await exposed(w, 'service_keeper_slashed')]).toEqual(['1', '0'])

    listed = [other, { ...keeperInfo(keypair.publicKey()), slashed: true, slashCount: 1 }]
    await runCycle(w.deps)
    expect([await exposed(w, 'service_keeper_registered'), await exposed(w, 'service_keeper_slashed')]).toEqual(['1', '1'])

    down = true
    const report = await runCycle(w.deps)
    expect(report.errorMessages).toContain('keepers: rpc down')
    expect([await exposed(w, 'service_keeper_registered'), await exposed(w, 'service_keeper_slashed')]).toEqual(['1', '1'])

    down = false
    listed = [other]
    await runCycle(w.deps)
    expect([await exposed(w, 'service_keeper_registered'), await exposed(w, 'service_keeper_slashed')]).toEqual(['0', '0'])
  })

  it('count the executor as the registered keeper when it is one', async () => {
    const keypair = Keypair.random()
    const executor = 'CEXECUTOR'
    const w = cycleWorld({
      keypair,
      keeperAddress: executor,
      registry: { getKeepers: async () => [keeperInfo(keypair.publicKey())], getKeeper: async () => keeperInfo(executor) },
    })
    await runCycle(w.deps)
    expect(await exposed(w, 'service_keeper_registered')).toBe('0')
    const listed = cycleWorld({ keypair, keeperAddress: executor, registry: { getKeepers: async () => [keeperInfo(executor)], getKeeper: async () => keeperInfo(executor) } })
    await runCycle(listed.deps)
    expect(await exposed(listed, 'service_keeper_registered')).toBe('1')
  })

  it("read the operator's XLM balance (not the executor's) each cycle, in XLM, and show it on /api/state", async () => {
    const keypair = Keypair.random()
    const asked: string[] = []
    let balance: bigint | undefined = 52_5000000n
    let down = false
    const w = cycleWorld({
      keypair,
      keeperAddress: 'CEXECUTOR',
      xlmBalance: async (account) => {
        asked.push(account)
        if (down) throw new Error('rpc down')
        return balance
      },
    })
    expect(stateView(w.deps.state, w.deps.events).operatorXlm).toBeNull()

    await runCycle(w.deps)
    expect(asked).toEqual([keypair.publicKey()])
    expect(await exposed(w, 'service_operator_xlm_balance')).toBe('52.5')
    expect(stateView(w.deps.state, w.deps.events).operatorXlm).toBe('525000000')

    balance = 4_0000001n
    await runCycle(w.deps)
    expect(await exposed(w, 'service_operator_xlm_balance')).toBe('4.0000001')

    down = true
    const report = await runCycle(w.deps)
    expect(report.errorMessages).toContain('operator_balance: rpc down')
    expect(await exposed(w, 'service_operator_xlm_balance')).toBe('4.0000001')
    const errors = (await w.deps.metrics.registry.getMetricsAsJSON()).find((m) => m.name === 'service_rpc_errors_total')
    expect(errors?.values.find((v) => v.labels.stage === 'operator_balance')?.value).toBe(1)

    // an account that does not exist (merged, never funded) holds nothing
    down = false
    balance = undefined
    await runCycle(w.deps)
    expect(await exposed(w, 'service_operator_xlm_balance')).toBe('0')
    expect(stateView(w.deps.state, w.deps.events).operatorXlm).toBe('0')
  })

  it('without a balance reader the XLM gauge stays unknown', async () => {
    const w = cycleWorld()
    const report = await runCycle(w.deps)
    expect(report.errors).toBe(0)
    expect(await exposed(w, 'service_operator_xlm_balance')).toBe('Nan')
  })
})
