/**
 * The network's ledger time: how long a ledger takes to close, in milliseconds. The one place the
 * keeper, the sim, the dashboard and the auditor learn it from, so that no 5 s is assumed
 * anywhere else.
 *
 * CAP-70 made consensus timing a network setting on the way from 5 s to 2.5 s ledgers: the
 * ConfigSetting entry CONFIG_SETTING_SCP_TIMING (`ConfigSettingSCPTiming` in Stellar-contract-config-setting.x)
 * holds `ledgerTargetCloseTimeMilliseconds`. A node that has no such entry (before protocol 23)
 * still shows its pace in its close times (getLedgers), which are whole unix seconds: 2.5 s
 * ledgers close +2 s, +3 s, +2 s... apart, so an observed interval is an average over several.
 * Browser-safe: no `node:` import.
 */
import { xdr, type rpc } from '@stellar/stellar-sdk'
import { DEFAULT_LEDGER_MS } from './ledgerSpan.js'

export { DEFAULT_LEDGER_MS, ledgersFor, secondsFor } from './ledgerSpan.js'

/** Where a ledger time came from. */
export type LedgerTimeSource = 'scp_timing' | 'observed' | 'default'

export interface LedgerTime {
  /** Milliseconds per ledger (> 0). */
  ms: number
  source: LedgerTimeSource
}

/** The node calls the read may make (an `rpc.Server` has them; each one is optional). */
export type LedgerTimeReader = Partial<Pick<rpc.Server, 'getLedgerEntries' | 'getLedgers' | 'getLatestLedger'>>

/** The ledger key of the scp_timing network setting. */
export function scpTimingKey(): xdr.LedgerKey {
  return xdr.LedgerKey.configSetting(new xdr.LedgerKeyConfigSetting({ configSettingId: xdr.ConfigSettingId.configSettingScpTiming }))
}

/** `ledgerTargetCloseTimeMilliseconds` of an scp_timing entry, undefined for any other entry or 0. */
export function targetCloseMsOf(data: xdr.LedgerEntryData): number | undefined {
  if (!xdr.isUnionVariant(data, 'configSetting')) return undefined
  const setting = data.configSetting
  if (!xdr.isUnionVariant(setting, 'configSettingScpTiming')) return undefined
  const ms = setting.contractScpTiming.ledgerTargetCloseTimeMilliseconds
  return ms > 0 ? ms : undefined
}

/**
 * The average time between closes (ms) over `(sequence, closeTimeMs)` pairs: the span of close
 * times over the span of sequences, so whole-second close times average out. Undefined with
 * fewer than two distinct ledgers or a span that is not positive.
 */
export function observedIntervalMs(closes: Iterable<readonly [number, number]>): number | undefined {
  let first: readonly [number, number] | undefined
  let last: readonly [number, number] | undefined
  for (const c of closes) {
    if (first === undefined || c[0] < first[0]) first = c
    if (last === undefined || c[0] > last[0]) last = c
  }
  if (first === undefined || last === undefined || last[0] === first[0]) return undefined
  const ms = (last[1] - first[1]) / (last[0] - first[0])
  return Number.isFinite(ms) && ms > 0 ? ms : undefined
}

/** The network's target close time from its scp_timing setting; undefined when the node has none. */
export async function readTargetCloseMs(server: LedgerTimeReader): Promise<number | undefined> {
  if (server.getLedgerEntries === undefined) return undefined
  const { entries } = await server.getLedgerEntries(scpTimingKey())
  const entry = entries[0]
  return entry === undefined ? undefined : targetCloseMsOf(entry.val)
}

/**
 * The average interval over the node's last `sample` ledgers (getLatestLedger, then getLedgers
 * from `sample` ledgers back); undefined when the node keeps fewer than two.
 */
export async function readObservedCloseMs(server: LedgerTimeReader, sample = 20): Promise<number | undefined> {
  if (server.getLedgers === undefined || server.getLatestLedger === undefined) return undefined
  const latest = await server.getLatestLedger()
  const start = Math.max(1, latest.sequence - sample)
  if (start >= latest.sequence) return undefined
  const { ledgers } = await server.getLedgers({ startLedger: start, pagination: { limit: sample + 1 } })
  return observedIntervalMs(ledgers.map((l) => [l.sequence, Number(l.ledgerCloseTime) * 1000] as const))
}

/**
 * The network's ledger time: the scp_timing target when the node has it, else the interval its
 * recent closes show, else {@link DEFAULT_LEDGER_MS}. A read that fails counts as telling
 * nothing (`onError` hears why), so this never throws.
 */
export async function readLedgerTime(server: LedgerTimeReader, onError: (err: unknown) => void = () => {}): Promise<LedgerTime> {
  try {
    const ms = await readTargetCloseMs(server)
    if (ms !== undefined) return { ms, source: 'scp_timing' }
  } catch (err) {
    onError(err)
  }
  try {
    const ms = await readObservedCloseMs(server)
    if (ms !== undefined) return { ms, source: 'observed' }
  } catch (err) {
    onError(err)
  }
  return { ms: DEFAULT_LEDGER_MS, source: 'default' }
}
