import { Address, Keypair, Networks, nativeToScVal, xdr, type rpc } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { fakeNode } from '../../../test/chain/fakeNode.js'
import { createChain } from '../../chain/index.js'
import { rebalanceAdapter } from '../adapters/rebalance/index.js'
import { ErrAlreadyFilled } from '../adapters/blend/errors.js'
import { createMetrics } from '../metrics.js'
import { makeResult } from '../sdk/index.js'
import { DashboardState } from '../state/dashboard.js'
import { EventLog } from '../state/events.js'
import { recordingLogger } from '../../../test/keeper/cycleFakes.js'
import { performanceView, stateView } from '../routes/views.js'
import { bookReward, recordResult } from './record.js'

function deps() {
  const rec = recordingLogger()
  return { state: new DashboardState(), metrics: createMetrics({ defaultMetrics: false }), events: new EventLog(), logger: rec.logger, lines: rec.lines }
}

async function counters(d: ReturnType<typeof deps>) {
  const all = await d.metrics.registry.getMetricsAsJSON()
  const find = (name: string) => all.find((m) => m.name === name)?.values ?? []
  return {
    liquidations: find('service_liquidations_total')[0]?.value ?? 0,
    tasks: Object.fromEntries(find('service_tasks_total').map((v) => [`${v.labels.adapter}/${v.labels.outcome}`, v.value])),
  }
}

/** The drift report the rebalance fixture's `rebalance` returns: nothing left to trade. */
function driftReport(): xdr.ScVal {
  const entry = (k: string, v: xdr.ScVal) => new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol(k), val: v })
  return xdr.ScVal.scvMap([entry('assets', xdr.ScVal.scvVec([])), entry('max_drift_bps', xdr.ScVal.scvU32(12)), entry('total_value', nativeToScVal(1000n, { type: 'i128' }))])
}

describe('service_liquidations_total', () => {
  it('counts liquidation fills, not a rebalance: the rebalance adapter says its work is no liquidation', async () => {
    const node = fakeNode({ send: ['PENDING'], get: ['SUCCESS'] })
    const server = {
      ...node.server,
      getTransaction: async () => ({ status: 'SUCCESS', ledger: 11, returnValue: driftReport() }) as unknown as rpc.Api.GetTransactionResponse,
    }
    const chain = createChain({ rpcUrl: 'http://node', networkPassphrase: Networks.TESTNET, server })
    const vault = Address.contract(Buffer.alloc(32, 3)).toString()
    const adapter = rebalanceAdapter({ vault, driftBps: 500, slippageBps: 100 })
    const plan = { trades: [], maxDriftBps: 900 } as unknown as Parameters<typeof adapter.execute>[2]['data']['plan']
    const result = await adapter.execute(chain, Keypair.random(), { priority: 1, estProfit: 0n, data: { vault, maxDriftBps: 900, plan } }, {
      draw: async () => {},
      returnProceeds: async () => 0n,
    })
    expect(result).toMatchObject({ success: true, liquidation: false, note: 'drift 900 -> 12 bps' })

    const d = deps()
    recordResult(d, 'rebalance', 'rebalance CAAA drift 900 bps', result)
    recordResult(d, 'blend', 'GBORROWER', makeResult({ drew: 100n, proceeds: 130n, responseTimeMs: 0 }))
    expect(await counters(d)).toEqual({ liquidations: 1, tasks: { 'rebalance/filled': 1, 'blend/filled': 1 } })
    expect(d.state.history.map((h) => [h.adapter, h.liquidation])).toEqual([
      ['rebalance', false],
      ['blend', true],
    ])
  })
})

describe('a result carrying a typed error', () => {
  it('keeps it on the record and names it in the log line and the event', async () => {
    const d = deps()
    const err = new ErrAlreadyFilled('GBORROWER')
    recordResult(d, 'blend', 'GBORROWER', makeResult({ drew: 0n, proceeds: 0n, responseTimeMs: 0, success: false, lost: true, note: err.message, error: err }))
    const rec = d.state.history[0]!
    expect(rec.error).toBeInstanceOf(ErrAlreadyFilled)
    expect(rec.error?.name).toBe('ErrAlreadyFilled')
    expect(d.lines.find((l) => l.msg === 'task executed')?.obj).toMatchObject({ error: 'ErrAlreadyFilled', errorCode: 'ALREADY_FILLED', success: false })
    expect(d.events.recent().at(-1)).toMatchObject({
      kind: 'miss',
      data: { error: { name: 'ErrAlreadyFilled', code: 'ALREADY_FILLED', message: 'auction for GBORROWER already filled' } },
    })
    expect(await counters(d)).toEqual({ liquidations: 0, tasks: { 'blend/unfilled': 1 } })
  })
})

describe('a fill with its fee', () => {
  it('adds the fee charged in XLM and the inclusion delay to the metrics, and logs the fee', async () => {
    const d = deps()
    const fee = { bidStroops: 5_000, chargedStroops: 1_234_567n, bumped: true, sentLedger: 100, includedLedger: 103 }
    recordResult(d, 'blend', 'GBORROWER', makeResult({ drew: 100n, proceeds: 130n, responseTimeMs: 0, fee }))
    recordResult(d, 'blend', 'GOTHER', makeResult({ drew: 100n, proceeds: 130n, responseTimeMs: 0, fee: { ...fee, chargedStroops: 100_000n, bumped: false, includedLedger: 101 } }))
    const all = await d.metrics.registry.getMetricsAsJSON()
    const values = (name: string) => all.find((m) => m.name === name)?.values ?? []
    expect(values('service_fees_paid_xlm_total')[0]?.value).toBeCloseTo(0.1334567, 9)
    const delay = values('service_inclusion_delay_ledgers') as Array<{ value: number; labels: Record<string, unknown>; metricName?: string }>
    expect(delay.find((v) => v.metricName === 'service_inclusion_delay_ledgers_count')?.value).toBe(2)
    expect(delay.find((v) => v.metricName === 'service_inclusion_delay_ledgers_sum')?.value).toBe(4)
    expect(delay.find((v) => v.metricName === 'service_inclusion_delay_ledgers_bucket' && v.labels.le === 1)?.value).toBe(1)
    expect(d.lines.find((l) => l.msg === 'task executed')?.obj).toMatchObject({ feeBid: 5_000, feeCharged: '1234567', feeBumped: true, sentLedger: 100, includedLedger: 103 })
  })
})

describe("the keeper's rewards", () => {
  it("book each result's reward (the vault's fee to the keeper) on the history, /api/state, /api/performance and service_keeper_rewards_usdc_total", async () => {
    const d = deps()
    // an atomic fill: 100 drawn, 130 back to the vault, 3 of the 30 paid to the keeper
    recordResult(d, 'blend', 'GFLASH', makeResult({ drew: 100_0000000n, proceeds: 130_0000000n, responseTimeMs: 0, reward: 3_0000000n }))
    recordResult(d, 'blend', 'GLOST', makeResult({ drew: 0n, proceeds: 0n, responseTimeMs: 0, success: false }))
    bookReward(d, 5000000n) // a return stale-draw recovery made
    bookReward(d, 0n)
    expect(d.state.history.map((h) => h.reward)).toEqual([3_0000000n, 0n])
    expect(d.state.rewards).toEqual({ total: 3_5000000n, payments: 2 })
    const all = await d.metrics.registry.getMetricsAsJSON()
    expect(all.find((m) => m.name === 'service_keeper_rewards_usdc_total')?.values[0]?.value).toBeCloseTo(3.5, 9)
    expect(stateView(d.state, d.events).rewards).toEqual({ totalUsdc: '35000000', payments: 2 })
    const perf = performanceView(d.state)
    expect(perf.liquidations.rewards).toBe('35000000')
    expect(perf.liquidations.recent.map((r) => r.reward)).toEqual(['30000000', '0'])
    expect(d.lines.find((l) => l.msg === 'task executed' && l.obj.label === 'GFLASH')?.obj.reward).toBe('30000000')
  })
})
