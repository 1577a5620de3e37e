import { Keypair, Networks } from '@stellar/stellar-sdk'
import pino from 'pino'
import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { FAST_RETRY, fakeNode } from '../../test/chain/fakeNode.js'
import { minimalEnv } from '../../test/keeper/configEnv.js'
import { createChain, refusesSends } from '../chain/index.js'
import { parseConfig } from './config/index.js'
import { ManualLedgerClock } from './engine/index.js'
import { DRY_RUN_WORDS, startKeeperRuntime } from './runtime.js'
import { stateView } from './routes/views.js'

/** A runtime on a scripted node that would take every transaction (PENDING, then SUCCESS). */
async function runtime(env: Record<string, string>) {
  const node = fakeNode({ send: [], get: Array(50).fill('SUCCESS') })
  const lines: Record<string, unknown>[] = []
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n')) if (l.trim() !== '') lines.push(JSON.parse(l) as Record<string, unknown>)
      done()
    },
  })
  const config = parseConfig({ ...minimalEnv(Keypair.random()), CHANNEL_ACCOUNTS: '4', ...env })
  const rt = await startKeeperRuntime(config, {
    logger: pino({ level: 'info' }, sink),
    chain: createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server: node.server, retry: FAST_RETRY }),
    clock: new ManualLedgerClock({ sequence: 100, closeTimeMs: 100_000 }),
    ledgerMs: 5_000,
    factories: {},
    retryChannels: false,
  })
  return { rt, node, lines }
}

describe('a keeper runtime with DRY_RUN=true', () => {
  it('refuses every send at its node client, registers nothing, sets up no channel account, and says so at start', async () => {
    const { rt, node, lines } = await runtime({ DRY_RUN: 'true' })
    try {
      expect(refusesSends(rt.chain.server)).toBe(true)
      expect(rt.registration).toBe('not attempted')
      expect(rt.lanes.size).toBe(1)
      await rt.cycle()
      expect(node.calls.send).toBe(0)
      const starting = lines.find((l) => l.msg === 'keeper starting')!
      expect(starting.dryRun).toBe(DRY_RUN_WORDS)
      expect(lines.some((l) => l.msg === 'registered with the keeper registry' || l.msg === 'channel accounts ready')).toBe(false)
      expect(stateView(rt.state, rt.events, { details: false }).shadow).toMatchObject({ dryRun: true, totals: { fills: 0 } })
      expect(await rt.metrics.own.metrics()).toMatch(/^# TYPE service_shadow_fills_total counter$/m)
      expect(await rt.metrics.own.metrics()).toMatch(/^service_shadow_drawn_usdc_total 0$/m)
    } finally {
      await rt.stop(1_000)
    }
  })

  it('without it the same runtime sends (registration, channel accounts) and has no shadow section', async () => {
    const { rt, node, lines } = await runtime({})
    try {
      expect(refusesSends(rt.chain.server)).toBe(false)
      expect(node.calls.send).toBeGreaterThan(0)
      expect(lines.find((l) => l.msg === 'keeper starting')!.dryRun).toBeUndefined()
      expect(stateView(rt.state, rt.events).shadow).toBeNull()
      expect(await rt.metrics.own.metrics()).not.toMatch(/service_shadow_/)
    } finally {
      await rt.stop(1_000)
    }
  })
})
