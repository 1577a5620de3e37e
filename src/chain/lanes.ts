/**
 * Submission lanes: several source accounts for one operator, so that independent transactions
 * (opening a dozen auctions after a crash, atomic fills due in the same ledger) land in the same
 * ledger instead of one per ledger. A network keeps at most one pending transaction per source
 * account, so each lane carries one submission at a time.
 *
 * Lane 0 is the operator itself. The others are channel accounts derived from the operator's
 * secret (nothing to store: the same secret always gives the same channels); they pay the fee and
 * the sequence number, while the operator signs the Soroban authorization of whatever the
 * transaction does in its name (address credentials).
 */
import { Keypair, Operation, hash } from '@stellar/stellar-sdk'
import type { Chain } from './connection.js'
import { ConnectionError, TransactionRejectedError } from './errors.js'
import { submit, type SubmitOptions } from './submit.js'

/** The `n` channel accounts of `operator`, derived from its secret seed. */
export function channelKeypairs(operator: Keypair, n: number): Keypair[] {
  const out: Keypair[] = []
  for (let i = 1; i <= n; i++) {
    out.push(Keypair.fromRawEd25519Seed(hash(Buffer.concat([operator.rawSecretKey(), Buffer.from(`channel/${i}`)]))))
  }
  return out
}

/**
 * Creates the channel accounts that do not exist yet, funded by the operator with
 * `startingBalance` XLM each, in one transaction. Returns the addresses it created.
 *
 * @throws ConnectionError when the node cannot be reached (no account is taken for missing then)
 */
export async function ensureChannels(chain: Chain, operator: Keypair, channels: readonly Keypair[], startingBalance = '5'): Promise<string[]> {
  const missing: string[] = []
  for (const c of channels) {
    try {
      await chain.server.getAccount(c.publicKey())
    } catch (err) {
      // A node that cannot be reached says nothing about the account.
      if (err instanceof ConnectionError) throw err
      missing.push(c.publicKey())
    }
  }
  if (missing.length === 0) return []
  await submit(
    chain,
    operator,
    missing.map((destination) => Operation.createAccount({ destination, startingBalance })),
  )
  return missing
}

/** A source account to send with, and the options that make the operator sign its auth. */
export interface Lane {
  source: Keypair
  options: SubmitOptions
}

/** Whether the network refused a transaction because its source account cannot pay the fee. */
export function isOutOfXlm(err: unknown): boolean {
  return err instanceof TransactionRejectedError && err.result === 'txInsufficientBalance'
}

export class SubmissionLanes {
  private readonly lanes: Lane[]
  private readonly busy: boolean[]
  private waiting: Array<() => void> = []
  private refill: ((lane: Lane) => Promise<void>) | undefined

  constructor(
    readonly operator: Keypair,
    channels: readonly Keypair[] = [],
  ) {
    this.lanes = [{ source: operator, options: {} }, ...channels.map((source) => ({ source, options: { authSigners: [operator] } }))]
    this.busy = this.lanes.map(() => false)
  }

  get size(): number {
    return this.lanes.length
  }

  /** The lanes' source accounts, lane 0 (the operator) first. */
  get accounts(): string[] {
    return this.lanes.map((l) => l.source.publicKey())
  }

  /**
   * Adds channel accounts as lanes, at any time: submissions already running keep their lanes,
   * and callers waiting for a free lane are woken, one per new lane. A channel that is already a
   * lane is skipped. Returns the number of lanes added.
   */
  add(channels: readonly Keypair[]): number {
    const present = new Set(this.lanes.map((l) => l.source.publicKey()))
    let added = 0
    for (const source of channels) {
      if (present.has(source.publicKey())) continue
      present.add(source.publicKey())
      this.lanes.push({ source, options: { authSigners: [this.operator] } })
      this.busy.push(false)
      added++
    }
    for (let i = 0; i < added; i++) this.waiting.shift()?.()
    return added
  }

  /**
   * What to do when the network refuses a channel's transaction because the channel cannot pay
   * its fee (txInsufficientBalance): e.g. send it XLM from the operator. The lane is held until
   * it is done, so no other submission meets the empty account; the refused submission still
   * fails. Without it a dry channel fails every transaction it is given.
   */
  refillWith(refill: (lane: Lane) => Promise<void>): void {
    this.refill = refill
  }

  /** Runs `f` on a free lane (waiting for one when all are busy) and frees it afterwards. */
  async run<T>(f: (lane: Lane) => Promise<T>): Promise<T> {
    let i = this.busy.indexOf(false)
    while (i < 0) {
      await new Promise<void>((r) => this.waiting.push(r))
      i = this.busy.indexOf(false)
    }
    this.busy[i] = true
    const lane = this.lanes[i]!
    try {
      return await f(lane)
    } catch (err) {
      if (i > 0 && this.refill !== undefined && isOutOfXlm(err)) await this.refill(lane).catch(() => undefined)
      throw err
    } finally {
      this.busy[i] = false
      this.waiting.shift()?.()
    }
  }
}
