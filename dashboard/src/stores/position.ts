/**
 * The "My position" store: the vault's books and settings (for previews and the cap) and the
 * connected account's record, share value and wallet USDC, each keyed by what it reads and by
 * the write counter, so every figure refetches after a write.
 */
import { createResource } from 'solid-js'
import type { DepositorInfo, Reads, VaultConfig, VaultState } from '../clients/chain.js'
import { writes } from './wallet.js'

export interface VaultSnapshot {
  state: VaultState
  config: VaultConfig
  /**
   * Close time (unix s) of the latest ledger when the books were read: the clock previews price
   * the free assets at (the profit still locked falls with it). 0 when the node did not say.
   */
  closeTime: number
}

export interface AccountSnapshot {
  depositor: DepositorInfo
  /** `vault.balance`: the USDC value of the account's shares (floor). */
  value: bigint
  /** The account's own USDC balance; undefined when it cannot be read (no trustline yet). */
  walletUsdc: bigint | undefined
}

async function loadVault(reads: Reads): Promise<VaultSnapshot> {
  const [state, config, latest] = await Promise.all([reads.vaultState(), reads.vaultConfig(), reads.latestLedger()])
  return { state, config, closeTime: latest.closeTime }
}

async function loadAccount(reads: Reads, account: string): Promise<AccountSnapshot> {
  const [depositor, value, walletUsdc] = await Promise.all([
    reads.depositor(account),
    reads.vaultBalance(account),
    reads.usdcBalance(account).catch(() => undefined),
  ])
  return { depositor, value, walletUsdc }
}

/** A read's outcome: the data, or why it failed in words (a resource that throws would break the view). */
export type Loaded<T> = { data: T; error?: undefined } | { data?: undefined; error: string }

export async function settle<T>(load: Promise<T>): Promise<Loaded<T>> {
  try {
    return { data: await load }
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) }
  }
}

export function createPositionStore(reads: () => Reads | undefined, account: () => string | undefined) {
  const [vault, { refetch: refetchVault }] = createResource(
    () => {
      const r = reads()
      return r === undefined ? undefined : { reads: r, writes: writes() }
    },
    ({ reads }) => settle(loadVault(reads)),
  )
  const [mine, { refetch: refetchMine }] = createResource(
    () => {
      const r = reads()
      const a = account()
      return r === undefined || a === undefined ? undefined : { reads: r, account: a, writes: writes() }
    },
    ({ reads, account }) => settle(loadAccount(reads, account)),
  )
  return {
    /** The vault's books and settings (undefined while the first read runs or after a failure). */
    vault: () => vault.latest?.data,
    /** The connected account's figures. */
    mine: () => mine.latest?.data,
    /** Why the last read failed, if it did. */
    error: () => vault.latest?.error ?? mine.latest?.error,
    refresh: () => {
      void refetchVault()
      void refetchMine()
    },
  }
}

export type PositionStore = ReturnType<typeof createPositionStore>
