/**
 * What the node's protocol choice rests on, through @stellar/stellar-sdk: getEvents' filters
 * are ORed each on its own (stellar-rpc v27.1.1's fix), and the SDK's XDR cannot read a
 * protocol-30 ledger header, which is why the node stays on protocol 28 (sandbox/README.md,
 * "Protocol").
 */
import { Keypair, StrKey, nativeToScVal, xdr } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from './launch.js'

let sb: Sandbox

beforeAll(async () => {
  sb = await startSandbox({ manual: true })
  await sb.server.requestAirdrop(Keypair.random().publicKey())
})

afterAll(async () => {
  await sb?.stop()
})

describe('protocol and getEvents filters through rpc.Server', () => {
  it('a filter on another contract does not hide what a second filter matches', async () => {
    const fee = nativeToScVal('fee', { type: 'symbol' }).toXDR('base64')
    const other = StrKey.encodeContract(Buffer.alloc(32))
    const fees = await sb.server.getEvents({ startLedger: 1, filters: [{ type: 'contract', topics: [[fee, '**']] }] })
    expect(fees.events.length).toBeGreaterThan(0)
    const both = await sb.server.getEvents({ startLedger: 1, filters: [{ contractIds: [other] }, { topics: [[fee, '**']] }] })
    expect(both.events.map((e) => e.id)).toEqual(fees.events.map((e) => e.id))
  })

  it('the node speaks protocol 28, and the SDK cannot decode a protocol-30 ledger header (STELLAR_VALUE_SIGNED_MS)', async () => {
    // getLatestLedger decodes headerXdr itself: a protocol-30 header would fail right there.
    const latest = await sb.server.getLatestLedger()
    expect(Number(latest.protocolVersion)).toBe(28)
    expect(Number((await sb.server.getNetwork()).protocolVersion)).toBe(28)
    // The node's own header, its StellarValue.ext replaced by the arm protocol 30 (CAP-88)
    // closes ledgers with: { TimePointMs closeTimeMs; LedgerCloseValueSignature } (stellar-xdr
    // 30.0.0, src/generated/stellar_value_ext.rs). The bytes are otherwise the node's.
    const header = latest.headerXdr
    const raw = Buffer.from(header.toXDR())
    const scp = Buffer.from(header.scpValue.toXDR())
    const ext = Buffer.from(header.scpValue.ext.toXDR())
    const at = 4 + 32 + (scp.length - ext.length) // ledgerVersion, previousLedgerHash, then the StellarValue up to ext
    const arm = Buffer.alloc(4)
    arm.writeInt32BE(3) // STELLAR_VALUE_SIGNED_MS
    const closeTimeMs = Buffer.alloc(8)
    closeTimeMs.writeBigUInt64BE(BigInt(latest.closeTime) * 1000n)
    const signature = Buffer.from(new xdr.LedgerCloseValueSignature({ nodeId: Keypair.random().xdrAccountId(), signature: Buffer.alloc(64) }).toXDR())
    const p30 = Buffer.concat([raw.subarray(0, at), arm, closeTimeMs, signature, raw.subarray(at + ext.length)])
    // When these start to pass, the SDK reads protocol 30: see sandbox/README.md, "Protocol".
    expect(() => xdr.LedgerHeader.fromXDR(p30)).toThrow(/scpValue\.ext\.v: unknown enum value 3/)
    // LedgerCloseMeta (getLatestLedger's and getLedgers' metadataXdr) holds the header too.
    const meta = Buffer.from(latest.metadataXdr.toXDR())
    const inMeta = meta.indexOf(raw)
    expect(inMeta).toBeGreaterThan(0)
    const meta30 = Buffer.concat([meta.subarray(0, inMeta), p30, meta.subarray(inMeta + raw.length)])
    expect(() => xdr.LedgerCloseMeta.fromXDR(meta30)).toThrow(/unknown enum value 3/)
  })
})
