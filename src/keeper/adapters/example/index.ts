import type { Keypair } from '@stellar/stellar-sdk'
import type { Chain } from '../../../chain/index.js'
import { makeResult, type ProtocolAdapter, type Result, type Task, type VaultClient } from '../../sdk/index.js'

/** Payload of the example adapter's tasks. */
export interface RoundTripJob {
  /** USDC (7 decimals) to draw and hand straight back. */
  amount: bigint
}

export interface RoundTripAdapterParameters {
  /** Work to offer each cycle (a function so tests and demos can change it between cycles). */
  jobs: () => Array<{ priority: number; amount: bigint; label?: string }>
}

/**
 * Example adapter: each job draws `amount` from the vault and returns it unchanged, which
 * exercises the whole draw → return_proceeds path (and the registry's execution record) with no
 * protocol behind it. Copy it as the skeleton of a real adapter: `getTasks` reads, `execute`
 * draws, works, returns, and reports what it did.
 *
 * @example
 * import { createRoundTripAdapter } from 'stellar-pooled-liquidations/keeper-sdk/example'
 * const adapter = createRoundTripAdapter({ jobs: () => [{ priority: 4, amount: 10_000_000n }] })
 */
export function createRoundTripAdapter(p: RoundTripAdapterParameters): ProtocolAdapter<RoundTripJob> {
  return {
    name: () => 'round-trip',
    async getTasks(_rpc: Chain): Promise<Task<RoundTripJob>[]> {
      return p.jobs().map((j) => ({
        priority: j.priority,
        estProfit: 0n,
        label: j.label ?? `round trip ${j.amount}`,
        data: { amount: j.amount },
      }))
    },
    async execute(_rpc: Chain, _keypair: Keypair, task: Task<RoundTripJob>, vault: VaultClient): Promise<Result> {
      const started = Date.now()
      await vault.draw(task.data.amount)
      // A real adapter fills an auction and swaps here; the proceeds are what it measured.
      const proceeds = task.data.amount
      await vault.returnProceeds(proceeds, Date.now() - started)
      return makeResult({ drew: task.data.amount, proceeds, responseTimeMs: Date.now() - started, note: 'round trip' })
    },
    estimateCapital: (task) => task.data.amount,
  }
}
