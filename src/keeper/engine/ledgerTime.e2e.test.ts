/**
 * The keeper's ledger time on the sandbox: what the runtime reads at start (src/chain
 * readLedgerTime: the scp_timing setting the node writes from its interval) and what the engine's
 * clock derives from the closes it sees, on 2.5 s ledgers whose close times are whole seconds.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { readLedgerTime, readObservedCloseMs, type LedgerTimeReader } from '../../chain/ledgerTime.js'
import { startSandbox, type Sandbox } from '../../../sandbox/ts/launch.js'
import { RpcLedgerClock, type LedgerSource } from './ledgerClock.js'

const started: Sandbox[] = []
afterAll(async () => {
  await Promise.all(started.map((s) => s.stop()))
})

async function sandbox(o: Parameters<typeof startSandbox>[0]): Promise<Sandbox> {
  const s = await startSandbox(o)
  started.push(s)
  return s
}

describe('ledger time on the sandbox', () => {
  it('a keeper on a seeded 2.5 s sandbox derives 2500 ms, from the setting and from the closes', { timeout: 60_000 }, async () => {
    const sb = await sandbox({ port: 0, manual: true, seed: 3, ledgerIntervalSeconds: 2.5 })
    const server = sb.server as unknown as LedgerTimeReader
    expect(await readLedgerTime(server)).toEqual({ ms: 2500, source: 'scp_timing' })

    const clock = new RpcLedgerClock(sb.server as unknown as LedgerSource, 20)
    clock.setNetworkMs((await readLedgerTime(server)).ms)
    const start = await clock.latest()
    const stop = clock.subscribe(() => {})
    for (let i = 1; i <= 10; i++) {
      await sb.closeLedgers(1)
      await clock.waitFor(start.sequence + i)
    }
    stop()
    // Close times are whole seconds: +2, +3, +2, +3 ... (the virtual clock keeps the half seconds).
    const { ledgers } = await sb.server.getLedgers({ startLedger: start.sequence, pagination: { limit: 11 } })
    const steps = ledgers.slice(1).map((l, i) => Number(l.ledgerCloseTime) - Number(ledgers[i]!.ledgerCloseTime))
    expect(steps).toHaveLength(10)
    expect(steps.every((s) => s === 2 || s === 3)).toBe(true)
    expect(steps.every((s, i) => i === 0 || s !== steps[i - 1])).toBe(true)
    expect(steps.reduce((a, b) => a + b, 0)).toBe(25)
    expect(clock.ledgerMs()).toBe(2500)
    expect(await readObservedCloseMs(server, 10)).toBe(2500)
  })

  it('a manual node without an interval keeps testnet’s 5000 ms; a scheduled one states its own', { timeout: 60_000 }, async () => {
    const manual = await sandbox({ port: 0, manual: true })
    expect(await readLedgerTime(manual.server as unknown as LedgerTimeReader)).toEqual({ ms: 5000, source: 'scp_timing' })
    const scheduled = await sandbox({ port: 0, ledgerIntervalSeconds: 0.5 })
    expect(await readLedgerTime(scheduled.server as unknown as LedgerTimeReader)).toEqual({ ms: 500, source: 'scp_timing' })
  })
})
