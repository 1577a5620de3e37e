/**
 * What a determinism trace needs from one ledger's LedgerCloseMeta (getLedgers' `metadataXdr`):
 * the applied transactions in apply order (hash, source account, success, fee charged) and every
 * ledger entry change with the raw XDR bytes of the entry it leaves behind.
 *
 * The meta is walked once with the SDK's own schemas: parts the trace ignores (the header,
 * events, the Soroban return value) are read only to move past them, and an entry's value is
 * hashed from the bytes it was read from instead of being encoded again. Only what the sandbox
 * writes is understood: LedgerCloseMeta v2 with TransactionMeta v4 (protocol 23 on).
 */
import { createHash } from 'node:crypto'
import { StrKey, xdr } from '@stellar/stellar-sdk'

type Reader = Parameters<xdr.XdrType<unknown>['_read']>[0]
type EntryWire = ReturnType<typeof xdr.LedgerEntry.schema._read>
type KeyWire = ReturnType<typeof xdr.LedgerKey.schema._read>
type EnvelopeWire = ReturnType<typeof xdr.TransactionEnvelope.schema._read>
type TxSetWire = ReturnType<typeof xdr.GeneralizedTransactionSet.schema._read>
type MuxedWire = ReturnType<typeof xdr.MuxedAccount.schema._read>

/** One ledger entry change: the entry as it is after it, with its XDR, or the key it removed. */
export type EntryChange = { entry: EntryWire; raw: Uint8Array } | { removed: KeyWire }

export interface AppliedTransaction {
  /** Hex. */
  hash: string
  /** The transaction's source account (the inner transaction's for a fee bump). */
  source: string
  success: boolean
  feeCharged: bigint
}

export interface LedgerChanges {
  sequence: number
  transactions: AppliedTransaction[]
  /** In the order the ledger made them: fees, each transaction, evictions. */
  changes: EntryChange[]
}

// LedgerEntryChangeType: created 0, updated 1, removed 2, state 3 (the value before), restored 4
const REMOVED = 2
const STATE = 3
// EnvelopeType
const ENVELOPE_TX = 2
const ENVELOPE_FEE_BUMP = 5
// TransactionResultCode: txFEE_BUMP_INNER_SUCCESS, txSUCCESS
const SUCCESS_CODES = new Set([0, 1])

function readChanges(r: Reader, bytes: Uint8Array, out: EntryChange[]): void {
  const n = r.readUint32('changes')
  for (let i = 0; i < n; i++) {
    const type = r.readInt32('change')
    if (type === REMOVED) {
      out.push({ removed: xdr.LedgerKey.schema._read(r, 'removed') })
    } else if (type === STATE) {
      xdr.LedgerEntry.schema._read(r, 'state')
    } else {
      const start = r.offset
      const entry = xdr.LedgerEntry.schema._read(r, 'entry')
      out.push({ entry, raw: bytes.subarray(start, r.offset) })
    }
  }
}

function skipArray(r: Reader, schema: xdr.XdrType<unknown>, path: string): void {
  const n = r.readUint32(path)
  for (let i = 0; i < n; i++) schema._read(r, path)
}

/** TransactionMeta: only v4 (what the sandbox writes). */
function readTransactionMeta(r: Reader, bytes: Uint8Array, out: EntryChange[]): void {
  const v = r.readInt32('TransactionMeta')
  if (v !== 4) throw new Error(`TransactionMeta v${v}: the determinism trace reads v4 only`)
  xdr.ExtensionPoint.schema._read(r, 'ext')
  readChanges(r, bytes, out)
  const ops = r.readUint32('operations')
  for (let i = 0; i < ops; i++) {
    xdr.ExtensionPoint.schema._read(r, 'op.ext')
    readChanges(r, bytes, out)
    skipArray(r, xdr.ContractEvent.schema, 'op.events')
  }
  readChanges(r, bytes, out)
  if (r.readUint32('sorobanMeta') !== 0) xdr.SorobanTransactionMetaV2.schema._read(r, 'sorobanMeta')
  skipArray(r, xdr.TransactionEvent.schema, 'events')
  skipArray(r, xdr.DiagnosticEvent.schema, 'diagnosticEvents')
}

interface RawLedger {
  sequence: number
  results: { hash: string; success: boolean; feeCharged: bigint }[]
  envelopes: EnvelopeWire[]
  changes: EntryChange[]
}

/** A schema whose read walks a LedgerCloseMeta (it lends us the SDK's XDR reader). */
class CloseMetaWalker extends xdr.BaseType<RawLedger> {
  readonly kind = 'LedgerCloseMetaWalk'
  bytes: Uint8Array = new Uint8Array(0)

  _read(r: Reader): RawLedger {
    const bytes = this.bytes
    const v = r.readInt32('LedgerCloseMeta')
    if (v !== 2) throw new Error(`LedgerCloseMeta v${v}: the determinism trace reads v2 only`)
    xdr.LedgerCloseMetaExt.schema._read(r, 'ext')
    const header = xdr.LedgerHeaderHistoryEntry.schema._read(r, 'ledgerHeader')
    const envelopes = envelopesOf(xdr.GeneralizedTransactionSet.schema._read(r, 'txSet'))
    const changes: EntryChange[] = []
    const results: RawLedger['results'] = []
    const n = r.readUint32('txProcessing')
    for (let i = 0; i < n; i++) {
      xdr.ExtensionPoint.schema._read(r, 'ext')
      const pair = xdr.TransactionResultPair.schema._read(r, 'result')
      results.push({ hash: hex(pair.transactionHash), success: SUCCESS_CODES.has(pair.result.result.code), feeCharged: pair.result.feeCharged })
      readChanges(r, bytes, changes)
      readTransactionMeta(r, bytes, changes)
      readChanges(r, bytes, changes)
    }
    const upgrades = r.readUint32('upgradesProcessing')
    for (let i = 0; i < upgrades; i++) {
      xdr.LedgerUpgrade.schema._read(r, 'upgrade')
      readChanges(r, bytes, changes)
    }
    skipArray(r, xdr.ScpHistoryEntry.schema, 'scpInfo')
    r.readBigUint64('totalByteSizeOfLiveSorobanState')
    const evicted = r.readUint32('evictedKeys')
    for (let i = 0; i < evicted; i++) changes.push({ removed: xdr.LedgerKey.schema._read(r, 'evicted') })
    return { sequence: header.header.ledgerSeq, results, envelopes, changes }
  }

  _write(): void {
    throw new Error('read only')
  }
}

function envelopesOf(set: TxSetWire): EnvelopeWire[] {
  const out: EnvelopeWire[] = []
  for (const phase of set.v1TxSet.phases) {
    if (phase.v === 0) {
      for (const c of phase.v0Components) out.push(...c.txsMaybeDiscountedFee.txs)
    } else {
      for (const stage of phase.parallelTxsComponent.executionStages) for (const cluster of stage) out.push(...cluster)
    }
  }
  return out
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')

function accountOf(m: MuxedWire): string {
  return StrKey.encodeEd25519PublicKey(Buffer.from(m.type === 0 ? m.ed25519 : m.med25519.ed25519))
}

/** Hash and source account of each envelope (transaction hash = sha256(network id ‖ type ‖ tx)). */
function sourcesByHash(envelopes: EnvelopeWire[], networkId: Buffer): Map<string, string> {
  const out = new Map<string, string>()
  for (const e of envelopes) {
    let tagged: Uint8Array
    let source: string
    let type: number
    if (e.type === ENVELOPE_TX) {
      tagged = xdr.Transaction.schema.encode(e.v1.tx)
      source = accountOf(e.v1.tx.sourceAccount)
      type = ENVELOPE_TX
    } else if (e.type === ENVELOPE_FEE_BUMP) {
      tagged = xdr.FeeBumpTransaction.schema.encode(e.feeBump.tx)
      source = accountOf(e.feeBump.tx.innerTx.v1.tx.sourceAccount)
      type = ENVELOPE_FEE_BUMP
    } else {
      // v0 envelopes: no client of the sandbox sends them (their source shows as '?').
      continue
    }
    const prefix = Buffer.alloc(4)
    prefix.writeInt32BE(type)
    out.set(createHash('sha256').update(networkId).update(prefix).update(tagged).digest('hex'), source)
  }
  return out
}

const walker = new CloseMetaWalker()

/** Decodes one ledger's `metadataXdr` (base64) into what the trace records. */
export function readLedgerChanges(metadataXdr: string, networkPassphrase: string): LedgerChanges {
  const bytes = Buffer.from(metadataXdr, 'base64')
  walker.bytes = bytes
  const raw = walker.decode(bytes)
  walker.bytes = new Uint8Array(0)
  const networkId = createHash('sha256').update(networkPassphrase).digest()
  const sources = raw.results.length > 0 ? sourcesByHash(raw.envelopes, networkId) : new Map<string, string>()
  return {
    sequence: raw.sequence,
    transactions: raw.results.map((t) => ({ ...t, source: sources.get(t.hash) ?? '?' })),
    changes: raw.changes,
  }
}
