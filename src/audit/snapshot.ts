/**
 * Reads everything the invariants compare, as one consistent picture of the chain.
 *
 * The reads are many simulations, not one atomic query, and the chain may move while they run.
 * A read round therefore reads the books (vault state, dead shares, keeper records, both USDC
 * balances) first, then the events and the per-account records, then the books again. Every
 * deposit, withdrawal, draw, return, slash, registration or USDC transfer to either contract
 * changes those books, so when both reads agree nothing that the per-account reads depend on moved
 * in between, and the round is kept. Otherwise the round is read again, up to `attempts` times.
 */
import { ChainReadError } from './errors.js'
import { readVaultHistory, type VaultHistory } from './events.js'
import {
  readBooks,
  readDepositor,
  readKeeperDraw,
  readKeepers,
  readLink,
  readLockedProfit,
  readRegistrySettings,
  readTokenBalance,
  readVaultBalance,
  readVaultSettings,
  readVaultUsdc,
  type DepositorRecord,
  type KeeperRecord,
  type RegistrySettings,
  type VaultBooks,
  type VaultSettings,
} from './reads.js'
import { allInOrder, call, connect, mapLimit, type AuditConnection, type AuditTarget } from './rpc.js'
import type { AuditAddresses, AuditOptions } from './types.js'

/** How the two contracts are wired (invariant 8). */
export interface Wiring {
  /** `vault.get_registry()`, or the error it returned (NotInit before set_registry). */
  vaultRegistry: { address: string } | { error: string }
  /** `registry.get_vault()`, or the error (VaultNotSet). */
  registryVault: { address: string } | { error: string }
  /** `vault.get_usdc()`. */
  vaultUsdc: string
  /** The registry's `usdc_token`. */
  registryUsdc: string
}

/** A keeper that is registered or drew from the vault within the history, with its vault draw. */
export interface KeeperDraw {
  account: string
  /** `vault.get_keeper_draw(account)`. */
  draw: bigint
  /** The registry's record; undefined when the keeper is not registered (any more). */
  keeper: KeeperRecord | undefined
}

/** Everything the invariants compare. */
export interface AuditSnapshot {
  addresses: AuditAddresses
  /** The ledger the books were read at. */
  ledger: number
  /** Close time (unix s) of the latest ledger when the books were read. */
  closeTime: bigint
  wiring: Wiring
  registrySettings: RegistrySettings
  /** The vault's `get_config` (keeper fee, profit unlock period). */
  vaultSettings: VaultSettings
  books: VaultBooks
  /**
   * `vault.get_locked_profit()` read at the start and at the end of the kept round. A simulation
   * runs at the node's clock, at or after `closeTime`, so the per-account reads in between (the
   * depositors' `balance`) saw a locked amount from `after` up to `before`: with the books
   * unchanged, locked profit only falls as time passes. Equal when nothing is unlocking.
   */
  locked: { before: bigint; after: bigint }
  /** Shares held by the vault's own address (the dead shares of the first deposit). */
  deadShares: bigint
  /** USDC token balance of the vault contract (the vault's token). */
  vaultUsdcBalance: bigint
  /** USDC token balance of the registry contract (the registry's token). */
  registryUsdcBalance: bigint
  /** Registered keepers, in registration order. */
  keepers: KeeperRecord[]
  /** Registered keepers, then keepers named only by vault events. */
  draws: KeeperDraw[]
  /** Depositors named by the events or the `depositors` option (the vault itself excluded). */
  depositors: DepositorRecord[]
  history: VaultHistory
}

interface Books {
  ledger: number
  closeTime: bigint
  books: VaultBooks
  /** Moves with the clock, so it is not part of `booksKey`. */
  locked: bigint
  deadShares: bigint
  vaultUsdcBalance: bigint
  registryUsdcBalance: bigint
  keepers: KeeperRecord[]
}

async function readBookSet(c: AuditConnection, a: AuditAddresses, w: Wiring): Promise<Books> {
  const [books, dead, keepers, vaultBal, registryBal, latest, locked] = await allInOrder([
    readBooks(c, a.vault),
    readDepositor(c, a.vault, a.vault),
    readKeepers(c, a.registry),
    readTokenBalance(c, 'usdc.balance(vault)', w.vaultUsdc, a.vault),
    readTokenBalance(c, 'usdc.balance(registry)', w.registryUsdc, a.registry),
    call('getLatestLedger', () => c.server.getLatestLedger()),
    readLockedProfit(c, a.vault),
  ])
  // closeTime is unix seconds as a decimal string; nodes that leave it out cannot date the draws.
  const closeTime = String((latest as { closeTime?: unknown }).closeTime ?? '')
  if (!/^\d+$/.test(closeTime)) throw new ChainReadError('getLatestLedger', `no closeTime in the answer (got ${JSON.stringify(closeTime)})`)
  return {
    ledger: Math.max(books.ledger, dead.ledger, keepers.ledger, vaultBal.ledger, registryBal.ledger),
    closeTime: BigInt(closeTime),
    books: books.value,
    locked: locked.value,
    deadShares: dead.value.shares,
    vaultUsdcBalance: vaultBal.value,
    registryUsdcBalance: registryBal.value,
    keepers: keepers.value,
  }
}

/** Everything a round compares before and after, as one string. */
const booksKey = (b: Books): string =>
  JSON.stringify([b.books, b.deadShares, b.vaultUsdcBalance, b.registryUsdcBalance, b.keepers], (_, v: unknown) =>
    typeof v === 'bigint' ? v.toString() : v,
  )

/** Accounts in first-seen order, without repeats. */
function unique(list: Iterable<string>): string[] {
  return [...new Set(list)]
}

/**
 * Reads the snapshot the invariants run on.
 *
 * @throws ChainReadError when a read fails, or when the books changed during every attempt
 */
export async function readSnapshot(target: AuditTarget, addresses: AuditAddresses, opts: AuditOptions = {}): Promise<AuditSnapshot> {
  const c = await connect(target)
  const limit = opts.concurrency ?? 8
  const [vaultUsdc, registrySettings, vaultRegistry, registryVault, vaultSettings] = await allInOrder([
    readVaultUsdc(c, addresses.vault),
    readRegistrySettings(c, addresses.registry),
    readLink(c, 'vault.get_registry', addresses.vault, 'get_registry'),
    readLink(c, 'registry.get_vault', addresses.registry, 'get_vault'),
    readVaultSettings(c, addresses.vault),
  ])
  const wiring: Wiring = { vaultRegistry, registryVault, vaultUsdc, registryUsdc: registrySettings.usdcToken }

  const attempts = Math.max(1, opts.attempts ?? 4)
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const before = await readBookSet(c, addresses, wiring)
    const history = await readVaultHistory(c, addresses.vault, {
      fromLedger: opts.fromLedger,
      toLedger: before.ledger,
      pageSize: opts.eventPageSize,
    })

    const depositorAccounts = unique([
      ...history.events.flatMap((e) => (e.kind === 'deposit' || e.kind === 'withdraw' || e.kind === 'wreq' ? [e.account] : [])),
      ...(opts.depositors ?? []),
    ]).filter((a) => a !== addresses.vault)
    const keeperAccounts = unique([
      ...before.keepers.map((k) => k.operator),
      ...history.events.flatMap((e) => (e.kind === 'draw' || e.kind === 'return' || e.kind === 'write_off' ? [e.account] : [])),
    ])

    // One task list, so depositor and keeper reads share the concurrency limit.
    const records = new Array<DepositorRecord>(depositorAccounts.length)
    const balances = new Array<{ balance: bigint } | { error: string }>(depositorAccounts.length)
    const registered = new Map(before.keepers.map((k) => [k.operator, k]))
    const draws: KeeperDraw[] = keeperAccounts.map((account) => ({ account, draw: 0n, keeper: registered.get(account) }))
    const tasks: (() => Promise<void>)[] = [
      ...depositorAccounts.flatMap((account, i) => [
        async () => void (records[i] = (await readDepositor(c, addresses.vault, account)).value),
        async () => void (balances[i] = await readVaultBalance(c, addresses.vault, account)),
      ]),
      ...draws.map((d) => async () => void (d.draw = (await readKeeperDraw(c, addresses.vault, d.account)).value)),
    ]
    await mapLimit(tasks, limit, (t) => t())
    const depositors = records.map((r, i): DepositorRecord => {
      const b = balances[i]!
      return 'balance' in b ? { ...r, balance: b.balance } : { ...r, balanceError: b.error }
    })

    const after = await readBookSet(c, addresses, wiring)
    if (booksKey(before) === booksKey(after)) {
      return {
        addresses,
        ledger: before.ledger,
        closeTime: before.closeTime,
        wiring,
        registrySettings,
        vaultSettings,
        books: before.books,
        locked: { before: before.locked, after: after.locked },
        deadShares: before.deadShares,
        vaultUsdcBalance: before.vaultUsdcBalance,
        registryUsdcBalance: before.registryUsdcBalance,
        keepers: before.keepers,
        draws,
        depositors,
        history,
      }
    }
  }
  throw new ChainReadError(
    'snapshot',
    `the vault's or registry's books changed during each of ${attempts} read rounds; audit a quieter moment or raise attempts`,
  )
}
