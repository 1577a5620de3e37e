/**
 * The connected account's earnings, return and own history: the vault's events (the Vault view's
 * store, refreshed every few seconds and after each write) filtered to the account, against its
 * depositor record and the current books.
 *
 * Net deposits come from the account's events when they hold all of it (their sums equal the
 * record's running totals); when the node no longer keeps the oldest ones, from the record, and
 * the return then covers only the history the node keeps.
 */
import { createEffect, createMemo, on } from 'solid-js'
import type { Reads } from '../clients/chain.js'
import { accountHistory, historyIsWhole, holdingStart, netDeposits, type HistoryRow } from '../logic/accountHistory.js'
import { accountReturn, earningsFigure, valueOfShares, type AccountReturn, type EarningsFigure } from '../logic/earnings.js'
import { freeBooks } from '../logic/profitLock.js'
import type { PositionStore } from './position.js'
import { createVaultStore } from './vault.js'
import { writes } from './wallet.js'

export interface AccountEarnings {
  figure: EarningsFigure
  /** What the shares would pay now. */
  value: bigint
  deposited: bigint
  withdrawn: bigint
  /** The sums come from the account's events (true) or the vault's record of its totals. */
  fromEvents: boolean
}

export interface AccountFigures {
  /** The account's deposits and withdrawals, newest first (empty while reading). */
  history: () => HistoryRow[]
  /** undefined while reading or before a first deposit. */
  earnings: () => AccountEarnings | undefined
  /** undefined while reading; the APY `missing` with a reason when there is nothing to show. */
  ret: () => AccountReturn | undefined
  /** Why the events could not be read, if they could not. */
  error: () => string | undefined
}

export function createAccountFigures(reads: () => Reads | undefined, account: () => string | undefined, position: PositionStore): AccountFigures {
  const vault = createVaultStore(reads)
  createEffect(on(writes, () => vault.refresh(), { defer: true }))

  const history = createMemo(() => {
    const a = account()
    const events = vault.load()?.read?.events
    return a === undefined || events === undefined ? [] : accountHistory(events, a)
  })
  const whole = () => {
    const m = position.mine()
    return m !== undefined && historyIsWhole(history(), m.depositor)
  }

  const earnings = createMemo((): AccountEarnings | undefined => {
    const m = position.mine()
    const v = position.vault()
    if (account() === undefined || m === undefined || v === undefined || m.depositor.totalDeposited === 0n) return undefined
    const fromEvents = whole()
    const { deposited, withdrawn } = fromEvents
      ? netDeposits(history())
      : { deposited: m.depositor.totalDeposited, withdrawn: m.depositor.totalWithdrawn }
    const free = freeBooks(v.state, v.closeTime)
    if (free === undefined) return undefined
    let value: bigint
    try {
      value = valueOfShares(m.depositor.shares, free)
    } catch {
      return undefined
    }
    return { figure: earningsFigure(value, deposited - withdrawn), value, deposited, withdrawn, fromEvents }
  })

  const ret = createMemo((): AccountReturn | undefined => {
    const m = position.mine()
    if (account() === undefined || m === undefined || vault.load()?.read === undefined) return undefined
    if (m.depositor.shares <= 0n) return { ...accountReturn([], undefined), period: 'You hold no shares now.' }
    const start = whole() ? holdingStart(history()) : undefined
    return accountReturn(vault.history(), start)
  })

  return { history, earnings, ret, error: () => vault.load()?.error }
}
