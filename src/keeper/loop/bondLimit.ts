/**
 * The registry's bond limit on this keeper's two-step draws. A two-step draw leaves capital out
 * between ledgers, backed only by the keeper's stake, so the registry refuses a new draw above
 * the keeper's `draw_limit` (floor(stake × (10000 − slash_rate_bps) / 10000): what the stake
 * still covers after the slash penalty) with BondTooSmall (#216). Flash draws are not bounded by
 * it: their capital never leaves the transaction.
 *
 * The keeper keeps to it before anything is sent: the planner sizes two-step fills within it
 * (`AdapterContext.drawLimit`), the engine skips a two-step plan above it with a log line, and the
 * vault client the engine hands adapters refuses a two-step draw above it (`guard`).
 */
import { CodedError } from '../errors.js'
import type { KeeperInfo } from '../clients/index.js'
import type { AdapterLogger, VaultClient } from '../sdk/index.js'

/** A two-step draw refused before it was sent: the registry would refuse it (BondTooSmall). */
export class ErrBondLimit extends CodedError {
  override name = 'ErrBondLimit'
  constructor(
    readonly amount: bigint,
    readonly limit: bigint,
  ) {
    super('BOND_LIMIT', `two-step draw of ${amount} USDC stroops is above the registry's bond limit for this keeper (draw_limit ${limit})`, 'add bond to raise it')
  }
}

/**
 * The bond limit of a keeper's record: its `drawLimit`; undefined when the record cannot say (a
 * registry without `draw_limit` decodes it as 0 beside a positive stake).
 */
export function drawLimitOf(info: Pick<KeeperInfo, 'drawLimit' | 'stake'>): bigint | undefined {
  if (info.drawLimit > 0n || info.stake <= 0n) return info.drawLimit
  return undefined
}

/** The words of a two-step draw above the limit, for skips, notes and log lines. */
export function aboveBondLimit(amount: bigint, limit: bigint): string {
  return `needs a two-step draw of ${amount} USDC stroops, above the registry's bond limit for this keeper (draw_limit ${limit}): skipped; add bond to raise it`
}

export interface BondLimitParameters {
  /** Reads a keeper's record (`registry.get_keeper`). */
  getKeeper: (operator: string) => Promise<Pick<KeeperInfo, 'drawLimit' | 'stake'>>
  /** The address the registry knows this keeper by (the operator, or its executor contract). */
  keeperAddress: string
  /** The latest closed ledger known: the record is read at most once per ledger. */
  latestLedger: () => number
  logger?: AdapterLogger
}

export class BondLimit {
  private cached: { ledger: number; limit: bigint | undefined } | undefined
  private reading: Promise<bigint | undefined> | undefined

  constructor(private readonly p: BondLimitParameters) {}

  /**
   * The largest new two-step draw the registry allows this keeper now; undefined when unknown
   * (not registered, the record unreadable, or a registry without the field): then nothing is
   * held back here and the registry decides.
   */
  async limit(): Promise<bigint | undefined> {
    const ledger = this.p.latestLedger()
    if (this.cached !== undefined && this.cached.ledger === ledger && ledger > 0) return this.cached.limit
    this.reading ??= this.p
      .getKeeper(this.p.keeperAddress)
      .then(
        (info) => drawLimitOf(info),
        (err: unknown) => {
          this.p.logger?.debug({ err: err instanceof Error ? err.message : String(err) }, 'bond limit unreadable (keeper record)')
          return undefined
        },
      )
      .then((limit) => {
        this.cached = { ledger, limit }
        return limit
      })
      .finally(() => {
        this.reading = undefined
      })
    return this.reading
  }

  /** Forget the last read (the stake changed: a bond added or withdrawn, a slash). */
  invalidate(): void {
    this.cached = undefined
  }

  /**
   * `vault` with every draw checked against the limit first: a draw above it is refused with
   * ErrBondLimit (and a warning) before any transaction is sent.
   */
  guard(vault: VaultClient): VaultClient {
    return {
      ...vault,
      draw: async (amount) => {
        const limit = await this.limit()
        if (limit !== undefined && amount > limit) {
          const err = new ErrBondLimit(amount, limit)
          this.p.logger?.warn({ amount: amount.toString(), drawLimit: limit.toString() }, 'two-step draw above the bond limit refused before sending')
          throw err
        }
        await vault.draw(amount)
      },
    }
  }
}
