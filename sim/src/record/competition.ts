/**
 * Keeper competition, per auction and per keeper, from three exact sources: the chain's events
 * (who filled, the vault's return of the same transaction), the keepers' applied transactions
 * read back from the node (seeded latency, fee charged, which auctions each asked to fill), and
 * each keeper engine's own answers (agents/probe.ts: when it found an auction profitable at its
 * MIN_PROFIT, whether a fire found it already taken).
 *
 * An auction's transactions and answers are those of its Blend type and user from its creation
 * up to the next auction on the same type and user (one can be open at a time).
 *
 * Per keeper, every auction that ended (filled, or expired unfilled) falls in at most one of:
 * - a win: it filled it;
 * - a loss: another keeper filled it first: this keeper's fill transaction was applied after the
 *   winning one (later in the same ledger, or in a later ledger), or its fire found the auction
 *   already taken; and it was profitable for it in time (not `unprofitable`). A fill of its own
 *   that failed before the winner's landed (slippage, a reverted swap) is not a loss;
 * - unprofitable: not won, and the keeper's last answer by the end ledger said it does not clear
 *   its MIN_PROFIT by then: no profitable ledger at all, or one after the fill / expiry;
 * - missed: none of the above, the keeper ran during some ledger of the auction and sent no fill
 *   transaction for it (it did not see it, or waited on capital, a crash, a plan given up);
 * - none: it was down throughout, or its fill transactions failed on their own (before the
 *   winner's, or the auction expired).
 */
import type { AliveSpan } from '../agents/keepers.js'
import type { KeeperDecision } from '../agents/probe.js'
import type { VaultFlow } from '../../../src/world/runEvents.js'
import type { KeeperTx } from './transactions.js'

export interface CompetitionAuction {
  type: number
  user: string
  createdLedger: number
  /** The ledger it ended: its fill, or its expiry; null while it is open. */
  endLedger: number | null
  fill: {
    ledger: number
    txHash: string
    /** The filler's address as the pool's event names it (the registered keeper). */
    address: string
    /** The run's keeper that filled it (null: not one of them). */
    keeper: string | null
  } | null
}

export interface CompetitionKeeper {
  name: string
  /** The registered keeper address (the vault's events name it). */
  address: string
  alive: readonly AliveSpan[]
  decisions: readonly KeeperDecision[]
}

export interface CompetitionInput {
  auctions: readonly CompetitionAuction[]
  keepers: readonly CompetitionKeeper[]
  /** Every applied keeper transaction; `agent` is the keeper's name. */
  transactions: readonly KeeperTx[]
  vault: readonly VaultFlow[]
}

export interface AuctionCompetition {
  /** Seeded submission latency of the winning transaction (ms). */
  fillLatencyMs: number | null
  /** Fee the winning transaction was charged (XLM). */
  fillFee: number | null
  /** USDC profit the fill returned to the vault. */
  fillProfit: number | null
  /** Keepers that sent a fill for it, in the order their first one was applied. */
  contenders: string[]
}

export interface KeeperCompetition {
  losses: number
  missed: number
  unprofitable: number
  /** Σ fees charged on its applied transactions (XLM). */
  feesPaid: number
}

const r7 = (x: number) => Math.round(x * 1e7) / 1e7
const units = (x: bigint) => r7(Number(x) / 1e7)
const pairKey = (type: number, user: string) => `${type}:${user}`

/** Last ledger of each auction's window: the ledger before the next auction on its type and user. */
function windowEnds(auctions: readonly CompetitionAuction[]): number[] {
  return auctions.map((a) => {
    let next = Infinity
    for (const b of auctions) if (b.type === a.type && b.user === a.user && b.createdLedger > a.createdLedger) next = Math.min(next, b.createdLedger)
    return next - 1
  })
}

/**
 * The vault profit of a fill: the flash (or return) event of the fill's own transaction (atomic path), else
 * the filler's first vault event from the fill's ledger on when it is a return (the two-step
 * return that closes the draw funding the fill: one outstanding draw per keeper), else 0.
 */
export function fillProfitOf(fill: NonNullable<CompetitionAuction['fill']>, vault: readonly VaultFlow[]): number {
  const same = vault.find((v) => (v.kind === 'flash' || v.kind === 'return') && v.txHash === fill.txHash)
  if (same !== undefined) return units(same.data.profit ?? 0n)
  const next = vault.find((v) => v.address === fill.address && v.ledger >= fill.ledger && (v.kind === 'draw' || v.kind === 'return' || v.kind === 'write_off'))
  return next?.kind === 'return' ? units(next.data.profit ?? 0n) : 0
}

function aliveDuring(spans: readonly AliveSpan[], from: number, to: number): boolean {
  return spans.some((s) => s.from <= to && (s.to === null || s.to >= from))
}

/**
 * Whether the keeper's last profitability answer for the auction by its end said it would not be
 * profitable at its MIN_PROFIT by then; undefined when it gave none (it did not value it).
 */
function unprofitableBy(decisions: readonly KeeperDecision[], end: number): boolean | undefined {
  let last: KeeperDecision | undefined
  for (const d of decisions) if (d.ledger <= end && (d.kind === 'planned' || d.kind === 'replanned' || d.kind === 'unprofitable')) last = d
  if (last === undefined) return undefined
  return last.kind === 'unprofitable' || (last.target !== null && last.target > end)
}

/** Whether `t` was applied after the winning fill (in ledger `fillLedger`; `winning` when known). */
function after(t: KeeperTx, fillLedger: number, winning: KeeperTx | undefined): boolean {
  return t.ledger > fillLedger || (t.ledger === fillLedger && (winning === undefined || t.position > winning.position))
}

export function competition(input: CompetitionInput): { auctions: AuctionCompetition[]; keepers: Map<string, KeeperCompetition> } {
  const ends = windowEnds(input.auctions)
  const byHash = new Map(input.transactions.map((t) => [t.hash, t]))
  const fillTxs = new Map<string, KeeperTx[]>()
  for (const t of [...input.transactions].sort((a, b) => a.ledger - b.ledger || a.position - b.position)) {
    for (const f of new Set(t.fills.map((x) => pairKey(x.type, x.user)))) {
      const list = fillTxs.get(f) ?? []
      list.push(t)
      fillTxs.set(f, list)
    }
  }
  const keepers = new Map<string, KeeperCompetition>(
    input.keepers.map((k) => [
      k.name,
      { losses: 0, missed: 0, unprofitable: 0, feesPaid: units(input.transactions.filter((t) => t.agent === k.name).reduce((s, t) => s + t.feeCharged, 0n)) },
    ]),
  )

  const auctions = input.auctions.map((a, i) => {
    const last = ends[i]!
    const txs = (fillTxs.get(pairKey(a.type, a.user)) ?? []).filter((t) => t.ledger >= a.createdLedger && t.ledger <= last)
    const contenders = [...new Set(txs.map((t) => t.agent))]
    const winning = a.fill === null ? undefined : byHash.get(a.fill.txHash)

    if (a.endLedger !== null) {
      const end = a.endLedger
      for (const k of input.keepers) {
        if (a.fill?.keeper === k.name) continue
        const c = keepers.get(k.name)!
        const mine = k.decisions.filter((d) => d.type === a.type && d.user === a.user && d.ledger >= a.createdLedger && d.ledger <= last)
        const sent = contenders.includes(k.name)
        const beaten = a.fill !== null && txs.some((t) => t.agent === k.name && after(t, a.fill!.ledger, winning))
        if (unprofitableBy(mine, end) === true) c.unprofitable++
        else if (a.fill !== null && (beaten || mine.some((d) => d.kind === 'lost'))) c.losses++
        else if (!sent && aliveDuring(k.alive, a.createdLedger, end)) c.missed++
      }
    }

    return {
      fillLatencyMs: winning === undefined ? null : winning.latencyMs,
      fillFee: winning === undefined ? null : units(winning.feeCharged),
      fillProfit: a.fill === null ? null : fillProfitOf(a.fill, input.vault),
      contenders,
    }
  })
  return { auctions, keepers }
}
