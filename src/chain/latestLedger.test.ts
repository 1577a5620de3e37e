import { rpc } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { lazyLatestLedger, withLazyLatestLedger } from './latestLedger.js'

const raw = { id: 'ab', sequence: 42, protocolVersion: '23', closeTime: '1700000000', headerXdr: 'not a header', metadataXdr: 'not a ledger' }

describe('lazyLatestLedger', () => {
  it('answers the sequence and close time without decoding the header or the close meta', () => {
    const l = lazyLatestLedger(raw)
    expect([l.id, l.sequence, l.protocolVersion, l.closeTime]).toEqual(['ab', 42, '23', '1700000000'])
    // Copying or logging the answer decodes nothing either.
    expect(JSON.parse(JSON.stringify(l))).toEqual({ id: 'ab', sequence: 42, protocolVersion: '23', closeTime: '1700000000' })
    expect({ ...l }.sequence).toBe(42)
  })

  it('decodes a field when it is read (bad bytes fail there, not before)', () => {
    const l = lazyLatestLedger(raw)
    expect(() => l.headerXdr).toThrow()
    expect(() => l.metadataXdr).toThrow()
  })

  it('replaces the server method with the raw call and the lazy answer', async () => {
    const server = new rpc.Server('http://127.0.0.1:1', { allowHttp: true })
    ;(server as unknown as { _getLatestLedger: () => Promise<typeof raw> })._getLatestLedger = async () => raw
    const l = await withLazyLatestLedger(server).getLatestLedger()
    expect(l.sequence).toBe(42)
  })
})
