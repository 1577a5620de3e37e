/** The demo's progress lines while auctions ripen, and its number formatting. */
import type { Daemon } from '../../src/keeper/daemon.js'

const UNIT = 10_000_000n

/** 7-decimal fixed point as a decimal string. */
export function fmt7(v: bigint, digits = 7): string {
  const neg = v < 0n
  const a = neg ? -v : v
  const frac = (a % UNIT).toString().padStart(7, '0').slice(0, digits)
  return `${neg ? '-' : ''}${a / UNIT}${digits > 0 ? `.${frac}` : ''}`
}

/**
 * Prints each planned fill once, then a progress line per auction every few seconds while it
 * ripens: block offset on the Dutch curve, lot/bid ratio against MIN_PROFIT, ledgers to go.
 */
export class RipeningProgress {
  private readonly announced = new Set<string>()
  private ticks = 0

  constructor(
    private readonly say: (line: string) => void,
    private readonly daemons: readonly Daemon[],
  ) {}

  tick(): void {
    this.ticks++
    const seen = new Map<string, { keeper: string; e: Daemon['state']['executions'][number] }>()
    for (const d of this.daemons) {
      for (const e of d.state.executions) {
        if (e.stage !== 'planned' && e.stage !== 'due') continue
        if (!seen.has(e.key)) seen.set(e.key, { keeper: d.state.keeperName, e })
      }
    }
    for (const [key, { keeper, e }] of seen) {
      if (!this.announced.has(key)) {
        this.announced.add(key)
        const when = e.path === 'atomic' ? 'drawn and returned in the fill transaction' : 'drawn one ledger before the fill'
        this.say(`${keeper} planned the fill of ${short(e.label)} at ledger ${e.targetLedger} (${e.targetLedger - e.plannedAt} ledgers after planning), capital ${fmt7(e.capital, 2)} USDC, ${when}`)
      }
      const p = e.progress
      if (p === null || this.ticks % 3 !== 0) continue
      const total = Math.max(1, e.targetLedger - e.plannedAt)
      const done = Math.min(total, Math.max(0, p.ledger - e.plannedAt))
      const width = 24
      const bar = '#'.repeat(Math.round((done / total) * width)).padEnd(width, '.')
      const ratio = p.ratio === null ? '-' : fmt7(p.ratio, 4)
      this.say(`  ripening ${short(e.label)} [${bar}] block ${p.offset}, lot/bid ${ratio} vs MIN_PROFIT ${fmt7(p.minProfit, 4)}, ${Math.max(0, e.targetLedger - p.ledger)} ledgers to go`)
    }
  }
}

export function short(address: string): string {
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address
}
