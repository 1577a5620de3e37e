/**
 * `getLatestLedger` without decoding the whole ledger on every call.
 *
 * Since protocol 23, Stellar RPC's getLatestLedger answer carries the ledger's header and its
 * close meta (every transaction of the ledger with its results and events), and the SDK's
 * `rpc.Server.getLatestLedger` decodes both before it returns. A client that only wants the
 * sequence and close time, as a keeper does several times per ledger, pays for decoding the
 * whole ledger each time: on a busy ledger that is most of its CPU. Here the two fields are
 * decoded when first read, and only then.
 */
import { xdr, type rpc } from '@stellar/stellar-sdk'

/** The SDK's answer shape over the raw one, `headerXdr` and `metadataXdr` decoded on first read. */
export function lazyLatestLedger(raw: rpc.Api.RawGetLatestLedgerResponse): rpc.Api.GetLatestLedgerResponse {
  const out = { id: raw.id, sequence: raw.sequence, protocolVersion: raw.protocolVersion, closeTime: raw.closeTime } as rpc.Api.GetLatestLedgerResponse
  let header: xdr.LedgerHeader | undefined
  let meta: xdr.LedgerCloseMeta | undefined
  // Not enumerable, so logging or copying the answer does not decode the ledger either.
  Object.defineProperty(out, 'headerXdr', { get: () => (header ??= xdr.LedgerHeader.fromXDR(raw.headerXdr, 'base64')) })
  Object.defineProperty(out, 'metadataXdr', { get: () => (meta ??= xdr.LedgerCloseMeta.fromXDR(raw.metadataXdr, 'base64')) })
  return out
}

/** `server`, its `getLatestLedger` answering through {@link lazyLatestLedger}. */
export function withLazyLatestLedger<S extends rpc.Server>(server: S): S {
  const raw = server._getLatestLedger.bind(server)
  server.getLatestLedger = async () => lazyLatestLedger(await raw())
  return server
}
