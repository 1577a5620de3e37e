/**
 * What an attack gained and what it cost the depositors who took no part, from the vault's
 * books and the attacker's holdings (sim/README.md, Adversaries). Pure functions of amounts in
 * USDC's 7-decimal units.
 *
 * - A keeper's gain is its holdings at the end of the attempt (USDC of its accounts plus their
 *   registry stakes) less those at the start. The depositors' loss is what the vault's books
 *   would hold without its dealings less what they hold: minus the profit its returns and flash
 *   draws booked, minus what its slashes recovered beyond the draw written off, plus any draw it
 *   still holds at the end of the attempt (counted as gone).
 * - A depositor's gain is what it holds at the end of the attempt (USDC out less USDC in, plus
 *   its shares at the book price T/S) less what its shares at the start would be worth on the
 *   books without its flows (T_cf / S_cf, T_cf = T − in + out, S_cf = S − (s1 − s0)). The other
 *   depositors' loss is their shares (S − s1) at T_cf / S_cf less at T / S. For a depositor that
 *   ends with no shares the two are the same number: the vault only moves value between holders.
 *
 * Book prices count the profit still locked: it belongs to the holders as it unlocks.
 */
import type { VaultFlow } from '../../../../src/world/runEvents.js'

/** A fraction of 7-decimal units as USDC, rounded up to the unit: a gain or loss above zero never shows as zero. */
export function ceilUsdc(num: bigint, den: bigint): number {
  if (den < 0n) return ceilUsdc(-num, -den)
  const q = num / den
  const up = num % den !== 0n && num > 0n ? q + 1n : q
  return Number(up) / 1e7
}

export interface DepositorFlows {
  /** USDC it paid in during the attempt. */
  deposited: bigint
  /** USDC it was paid out. */
  withdrawn: bigint
  /** Its shares when the attempt started and when it ended. */
  sharesBefore: bigint
  sharesAfter: bigint
  /** The vault's books when the attempt ended (`get_state`). */
  totalUsdc: bigint
  totalShares: bigint
}

/** A depositor adversary's gain and the other depositors' loss (USDC), see the file comment. */
export function depositorFigures(f: DepositorFlows): { gain: number; depositorLoss: number } {
  const T = f.totalUsdc
  const S = f.totalShares
  const s0 = f.sharesBefore
  const s1 = f.sharesAfter
  const tcf = T - f.deposited + f.withdrawn
  const scf = S - (s1 - s0)
  const others = S - s1
  if (S <= 0n || scf <= 0n) return { gain: Number(f.withdrawn - f.deposited) / 1e7, depositorLoss: 0 }
  // gain = (W − D) + s1·T/S − s0·T_cf/S_cf, over the common denominator S·S_cf
  const gainNum = (f.withdrawn - f.deposited) * S * scf + s1 * T * scf - s0 * tcf * S
  // loss = others·T_cf/S_cf − others·T/S
  const lossNum = others * tcf * S - others * T * scf
  return { gain: ceilUsdc(gainNum, S * scf), depositorLoss: ceilUsdc(lossNum, S * scf) }
}

/** The ledgers an attempt ran over (inclusive); `to` null: to the end of the run. */
export interface LedgerWindow {
  from: number
  to: number | null
}

const inWindow = (ledger: number, w: LedgerWindow) => ledger >= w.from && (w.to === null || ledger <= w.to)

/**
 * The depositors' loss from a keeper's dealings with the vault over `window` (7-decimal units):
 * −(profit its returns and flash draws booked) − (recovered − written down, of its write-offs)
 * + what it still held drawn at the end of the window.
 */
export function keeperAttackLoss(flows: readonly VaultFlow[], addresses: ReadonlySet<string>, window: LedgerWindow): bigint {
  let booked = 0n
  const out = new Map<string, bigint>()
  for (const f of flows) {
    if (!addresses.has(f.address) || !inWindow(f.ledger, window)) continue
    const d = f.data
    if (f.kind === 'draw') out.set(f.address, d.amount ?? 0n)
    else if (f.kind === 'return') {
      booked += d.profit ?? 0n
      const left = d.remaining ?? 0n
      if (left > 0n) out.set(f.address, left)
      else out.delete(f.address)
    } else if (f.kind === 'flash') booked += d.profit ?? 0n
    else if (f.kind === 'write_off') {
      booked += (d.recovered ?? 0n) - (d.written_down ?? 0n)
      out.delete(f.address)
    }
  }
  let held = 0n
  for (const v of out.values()) held += v
  return held - booked
}

/** A two-step draw still out: by whom, how much, since when. */
export interface OpenDraw {
  keeper: string
  amount: bigint
  ledger: number
  /** Close time (s) of the ledger that drew it: the registry's draw timestamp. */
  since: bigint
}

/**
 * The two-step draws still out after `flows`: a `draw` not yet closed by a return that left
 * nothing outstanding or by a write-off (a slash). A partial return keeps the draw's time, as
 * the registry does. In the order they were drawn.
 */
export function openDraws(flows: readonly VaultFlow[]): OpenDraw[] {
  const open = new Map<string, OpenDraw>()
  for (const f of flows) {
    if (f.kind === 'draw') open.set(f.address, { keeper: f.address, amount: f.data.amount ?? 0n, ledger: f.ledger, since: f.closeTime })
    else if (f.kind === 'return') {
      const d = open.get(f.address)
      if (d === undefined) continue
      const left = f.data.remaining ?? 0n
      if (left > 0n) d.amount = left
      else open.delete(f.address)
    } else if (f.kind === 'write_off') open.delete(f.address)
  }
  return [...open.values()].sort((a, b) => a.ledger - b.ledger || (a.keeper < b.keeper ? -1 : a.keeper > b.keeper ? 1 : 0))
}

/** The open draws anyone may slash in a ledger closing at `now` (s): out strictly longer than `timeout`. */
export function overdueDraws(open: readonly OpenDraw[], now: bigint, timeout: bigint): OpenDraw[] {
  return open.filter((d) => now > d.since + timeout)
}
