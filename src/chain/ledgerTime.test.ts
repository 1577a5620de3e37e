import { xdr } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import {
  DEFAULT_LEDGER_MS,
  ledgersFor,
  observedIntervalMs,
  readLedgerTime,
  readObservedCloseMs,
  scpTimingKey,
  secondsFor,
  targetCloseMsOf,
  type LedgerTimeReader,
} from './ledgerTime.js'

function scpTiming(ms: number): xdr.LedgerEntryData {
  return xdr.LedgerEntryData.configSetting(
    xdr.ConfigSettingEntry.configSettingScpTiming(
      new xdr.ConfigSettingScpTiming({
        ledgerTargetCloseTimeMilliseconds: ms,
        nominationTimeoutInitialMilliseconds: 1000,
        nominationTimeoutIncrementMilliseconds: 1000,
        ballotTimeoutInitialMilliseconds: 1000,
        ballotTimeoutIncrementMilliseconds: 1000,
      }),
    ),
  )
}

/** A node with an optional scp_timing entry and ledgers closing at the given unix seconds from sequence 100. */
function node(o: { target?: number; closes?: number[]; failEntries?: boolean }): LedgerTimeReader & { keys: string[] } {
  const closes = o.closes ?? []
  const keys: string[] = []
  const reader = {
    keys,
    getLedgerEntries: async (...k: xdr.LedgerKey[]) => {
      if (o.failEntries === true) throw new Error('connection refused')
      keys.push(...k.map((x) => x.toXDR('base64')))
      return { latestLedger: 1, entries: o.target === undefined ? [] : [{ key: k[0]!, val: scpTiming(o.target), lastModifiedLedgerSeq: 1 }] }
    },
    getLatestLedger: async () => ({ id: '', sequence: 100 + closes.length - 1, protocolVersion: 23 }),
    getLedgers: async (req: { startLedger: number; pagination?: { limit?: number } }) => ({
      ledgers: closes
        .map((t, i) => ({ sequence: 100 + i, ledgerCloseTime: String(t) }))
        .filter((l) => l.sequence >= req.startLedger)
        .slice(0, req.pagination?.limit ?? 100),
    }),
  }
  return reader as unknown as LedgerTimeReader & { keys: string[] }
}

describe('ledger time', () => {
  it('reads the scp_timing target first', async () => {
    const n = node({ target: 2500, closes: [0, 5, 10] })
    expect(await readLedgerTime(n)).toEqual({ ms: 2500, source: 'scp_timing' })
    expect(n.keys).toEqual([scpTimingKey().toXDR('base64')])
  })

  it('falls back to the observed closes, averaging whole seconds', async () => {
    // 2.5 s ledgers close +2, +3, +2, +3 s apart.
    const closes = [1000, 1002, 1005, 1007, 1010, 1012, 1015, 1017, 1020]
    expect(await readLedgerTime(node({ closes }))).toEqual({ ms: 2500, source: 'observed' })
    expect(await readObservedCloseMs(node({ closes: [7] }))).toBeUndefined()
  })

  it('falls back to the default when the node tells nothing, and reports why', async () => {
    const errors: unknown[] = []
    expect(await readLedgerTime(node({ failEntries: true, closes: [5] }), (e) => errors.push(e))).toEqual({ ms: DEFAULT_LEDGER_MS, source: 'default' })
    expect(errors).toHaveLength(1)
    expect(await readLedgerTime({})).toEqual({ ms: 5000, source: 'default' })
  })

  it('ignores other settings and a zero target', () => {
    expect(targetCloseMsOf(scpTiming(0))).toBeUndefined()
    expect(targetCloseMsOf(xdr.LedgerEntryData.configSetting(xdr.ConfigSettingEntry.configSettingContractMaxSizeBytes(65536)))).toBeUndefined()
  })

  it('averages an interval over sequences, whatever order they come in', () => {
    expect(observedIntervalMs([[12, 30_000], [10, 25_000], [11, 27_000]])).toBe(2500)
    expect(observedIntervalMs([[10, 25_000]])).toBeUndefined()
    expect(observedIntervalMs([[10, 25_000], [11, 25_000]])).toBeUndefined()
  })

  it('turns seconds into ledgers and back', () => {
    expect(ledgersFor(30, 5000)).toBe(6)
    expect(ledgersFor(30, 2500)).toBe(12)
    expect(ledgersFor(31, 2500)).toBe(13)
    expect(ledgersFor(0, 2500)).toBe(0)
    expect(secondsFor(12, 2500)).toBe(30)
    expect(() => ledgersFor(30, 0)).toThrow(/positive/)
  })
})
