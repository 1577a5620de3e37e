/**
 * The vault's events as a landed transaction carries them (its contract events): the keeper fee
 * of a flash draw (`flash`) or of a closing two-step return (`return`), which the keeper books as
 * its reward.
 */
import { StrKey, scValToNative, type xdr } from '@stellar/stellar-sdk'
import { toBigInt } from './convert.js'

/** What a return settled: the profit booked for the depositors and the keeper's fee. */
export interface SettledReturn {
  profit: bigint
  fee: bigint
}

/**
 * The data of the first event `name` (`flash`, `return`) that `vault` emitted for `keeper` among
 * `events` (a landed transaction's contract events), decoded; undefined when there is none.
 */
export function vaultEventData(events: readonly xdr.ContractEvent[] | undefined, vault: string, name: string, keeper: string): Record<string, unknown> | undefined {
  for (const ev of events ?? []) {
    try {
      if (ev.contractId === null || StrKey.encodeContract(Buffer.from(ev.contractId.toBytes())) !== vault) continue
      const { topics, data } = ev.body.v0
      if (topics.length < 2 || scValToNative(topics[0]!) !== name || scValToNative(topics[1]!) !== keeper) continue
      const decoded = scValToNative(data) as unknown
      if (decoded !== null && typeof decoded === 'object') return decoded as Record<string, unknown>
    } catch {
      continue
    }
  }
  return undefined
}

/** The keeper fee of the vault's `name` event for `keeper` in `events` (0 when none says). */
export function keeperFeeOf(events: readonly xdr.ContractEvent[] | undefined, vault: string, name: 'flash' | 'return', keeper: string): bigint {
  const data = vaultEventData(events, vault, name, keeper)
  return data === undefined || data.fee === undefined ? 0n : toBigInt(data.fee)
}
