/**
 * The figures of one mass-liquidation run, computed from chain events (src/world/
 * runEvents.ts) plus what each keeper's daemon reports about its poll cycles, and their
 * table. Goals are checked here; a missed goal is a figure, never an error.
 */
import { planFill } from '../../src/keeper/adapters/blend/auctionPlan.js'
import type { Reserve } from '../../src/keeper/adapters/blend/loadPool.js'
import type { PriceData } from '../../src/keeper/adapters/blend/oracle.js'
import { valuationReserves } from '../../src/keeper/adapters/blend/scan.js'
import type { ExecutionView } from '../../src/keeper/engine/index.js'
import type { LiquidationEvents } from '../../src/world/runEvents.js'

/** Pool state read right after the price drop: what a fill is valued with at auction creation. */
export interface DropValuation {
  reserves: ReadonlyMap<string, Reserve>
  bstopRate: number
  prices: ReadonlyMap<string, PriceData>
  /** MIN_PROFIT of the keepers, 7 decimals. */
  minProfit: bigint
}

export interface KeeperRun {
  name: string
  /** Addresses that act for this keeper on chain (operator; executor contract on the atomic path). */
  addresses: string[]
  /** Every poll cycle's duration after the price drop (ms), from daemon.state.cycles. */
  cycleMs: number[]
  overruns: number
  overrunsAfterDrop: number
  executions: ExecutionView[]
}

export interface RunInput {
  keepers: KeeperRun[]
  borrowers: { address: string; asset: string }[]
  path: 'two-step' | 'atomic'
  ledgerIntervalS: number
  dropLedger: number
  dropPercent: number
  healthAfterDrop: { min: number; max: number; under: number }
  valuation: DropValuation
  events: LiquidationEvents
  vaultProfitDelta: bigint
  timedOut: boolean
  wall: { deployS: number; dropToLastFillS: number | null; runS: number }
}

const pct = (n: number, d: number) => (d === 0 ? 0 : Math.round((n / d) * 1000) / 10)
function quantile(xs: readonly number[], q: number): number | null {
  if (xs.length === 0) return null
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!
}
const stat = (xs: readonly number[]) => ({ p50: quantile(xs, 0.5), max: xs.length === 0 ? null : Math.max(...xs) })
const usdc = (v: bigint) => (Number(v) / 1e7).toFixed(2)

export function runFigures(r: RunInput) {
  const nameOf = new Map(r.keepers.flatMap((k) => k.addresses.map((a) => [a, k.name] as const)))
  const assetOf = new Map(r.borrowers.map((b) => [b.address, b.asset]))
  const { auctions, fills, draws, returns } = r.events

  // Each auction: when it was created, its first profitable ledger (at creation: oracle prices
  // after the drop, reserves accrued to the creation ledger's close time, the keepers' MIN_PROFIT),
  // its fill and how late that was; from the winning keeper's book, when the fill was due and drawn.
  const rows = r.borrowers.map((b) => {
    const created = auctions.find((a) => a.user === b.address)
    const fill = created === undefined ? undefined : fills.find((f) => f.user === b.address && f.ledger >= created.ledger)
    const plan =
      created === undefined
        ? null
        : planFill({
            auction: created.auction,
            reserves: valuationReserves(r.valuation.reserves, r.valuation.bstopRate, created.closeTime),
            prices: r.valuation.prices,
            minProfit: r.valuation.minProfit,
            fromBlock: created.auction.block,
          })
    const winner = fill === undefined ? undefined : r.keepers.find((k) => k.addresses.includes(fill.filler))
    const book = winner?.executions.find((e) => e.label === b.address && e.history.some((h) => h.stage === 'filled'))
    const at = (stage: string) => book?.history.find((h) => h.stage === stage)?.ledger ?? null
    return {
      user: b.address,
      asset: b.asset,
      created: created?.ledger ?? null,
      createdAfterDrop: created === undefined ? null : created.ledger - r.dropLedger,
      percent: created?.percent ?? null,
      firstProfitable: plan?.block ?? null,
      planned: book?.targetLedger ?? null,
      due: at('due'),
      drawn: at('drawn'),
      filled: fill?.ledger ?? null,
      delay: fill !== undefined && plan !== null ? fill.ledger - plan.block : null,
      filler: fill === undefined ? null : (nameOf.get(fill.filler) ?? fill.filler),
    }
  })

  const createdAfter = rows.flatMap((x) => (x.createdAfterDrop === null ? [] : [x.createdAfterDrop]))
  const delays = rows.flatMap((x) => (x.delay === null ? [] : [x.delay]))
  const onTime = delays.filter((d) => d === 0 || d === 1).length

  // Each draw against the same keeper's next return; won when that keeper filled in between.
  const used = new Set<number>()
  const drawRows = draws.map((d) => {
    const i = returns.findIndex((x, j) => !used.has(j) && x.keeper === d.keeper && x.ledger >= d.ledger)
    used.add(i)
    const ret = returns[i]
    const won = ret !== undefined && fills.some((f) => f.filler === d.keeper && f.ledger >= d.ledger && f.ledger <= ret.ledger)
    return { keeper: nameOf.get(d.keeper) ?? d.keeper, drawn: d.ledger, returned: ret?.ledger ?? null, span: ret === undefined ? null : ret.ledger - d.ledger, won, amount: d.amount }
  })
  const spans = drawRows.flatMap((d) => (d.span === null ? [] : [d.span]))
  const drawGoal = r.path === 'atomic' ? 0 : 1

  // Fires that ended without a fill (lost races, failed or abandoned fires), from the books. A
  // result with success false counts too: a two-step fire that lost the race after drawing keeps
  // the stage of its last step (returned).
  const misses = r.keepers.flatMap((k) =>
    k.executions
      .filter((e) => e.stage === 'lost' || e.stage === 'abandoned' || e.result?.success === false)
      .map((e) => ({
        keeper: k.name,
        user: e.label,
        stage: e.result?.lost === true ? 'lost' : e.stage,
        target: e.targetLedger,
        ledger: e.history[e.history.length - 1]?.ledger ?? null,
        note: e.result?.note ?? e.note,
      })),
  )

  const keepers = r.keepers.map((k) => ({
    name: k.name,
    misses: misses.filter((m) => m.keeper === k.name).length,
    fills: fills.filter((f) => k.addresses.includes(f.filler)).length,
    draws: drawRows.filter((d) => d.keeper === k.name).length,
    drawsLost: drawRows.filter((d) => d.keeper === k.name && !d.won).length,
    profit: usdc(returns.filter((x) => k.addresses.includes(x.keeper)).reduce((s, x) => s + x.profit, 0n)),
    overruns: k.overruns,
    overrunsAfterDrop: k.overrunsAfterDrop,
    cycles: k.cycleMs.length,
    cycleMs: stat(k.cycleMs),
  }))

  return {
    keepers: r.keepers.length,
    borrowers: r.borrowers.length,
    path: r.path,
    ledgerIntervalS: r.ledgerIntervalS,
    dropLedger: r.dropLedger,
    dropPercent: r.dropPercent,
    healthAfterDrop: r.healthAfterDrop,
    timedOut: r.timedOut,
    auctions: {
      created: createdAfter.length,
      ledgersAfterDrop: stat(createdAfter),
      goal: 'every auction <= 10 ledgers after the drop',
      met: createdAfter.length === r.borrowers.length && createdAfter.every((x) => x <= 10),
    },
    fills: {
      filled: delays.length,
      atPlus0: delays.filter((d) => d === 0).length,
      atPlus1: delays.filter((d) => d === 1).length,
      later: delays.filter((d) => d > 1).length,
      early: delays.filter((d) => d < 0).length,
      delay: stat(delays),
      onTimePercent: pct(onTime, r.borrowers.length),
      goal: '>= 99 % of fills at +0 or +1 ledgers after the first profitable ledger',
      met: delays.length === r.borrowers.length && onTime >= 0.99 * r.borrowers.length,
    },
    draws: {
      count: drawRows.length,
      won: drawRows.filter((d) => d.won).length,
      lost: drawRows.filter((d) => !d.won && d.returned !== null).length,
      unreturned: drawRows.filter((d) => d.returned === null).length,
      returnMinusDraw: stat(spans),
      wonSpan: stat(drawRows.flatMap((d) => (d.won && d.span !== null ? [d.span] : []))),
      lostSpan: stat(drawRows.flatMap((d) => (!d.won && d.span !== null ? [d.span] : []))),
      goal: `return - draw <= ${drawGoal} ledger(s) (${r.path})`,
      met: drawRows.length > 0 && drawRows.every((d) => d.span !== null && d.span <= drawGoal),
    },
    overruns: { afterDrop: keepers.reduce((s, k) => s + k.overrunsAfterDrop, 0), goal: 'no poll-cycle overrun', met: keepers.every((k) => k.overrunsAfterDrop === 0) },
    perKeeper: keepers,
    vaultProfitUsdc: usdc(returns.reduce((s, x) => s + x.profit, 0n)),
    vaultProfitDeltaUsdc: usdc(r.vaultProfitDelta),
    dropToLastFillLedgers: delays.length === r.borrowers.length ? Math.max(...rows.map((x) => x.filled!)) - r.dropLedger : null,
    wall: r.wall,
    auctionRows: rows,
    misses,
    drawRows: drawRows.map((d) => ({ ...d, amount: usdc(d.amount) })),
  }
}

export type RunFigures = ReturnType<typeof runFigures>

function table(header: string[], rows: string[][]): string {
  const w = header.map((h, i) => Math.max(h.length, ...rows.map((x) => x[i]!.length)))
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(w[i]!)).join(' | ')} |`
  return [line(header), `|${w.map((n) => '-'.repeat(n + 2)).join('|')}|`, ...rows.map(line)].join('\n')
}

const yes = (b: boolean) => (b ? 'met' : 'MISSED')
const n = (v: number | null) => (v === null ? '-' : String(v))
const signed = (v: number | null) => (v === null ? '-' : v >= 0 ? `+${v}` : String(v))

/** The run's compact tables: goals, keepers, auctions. */
export function formatRun(f: RunFigures): string {
  const goals = table(
    ['figure', 'value', 'goal', ''],
    [
      ['auctions created (ledgers after the drop)', `${f.auctions.created}/${f.borrowers}; p50 ${n(f.auctions.ledgersAfterDrop.p50)}, max ${n(f.auctions.ledgersAfterDrop.max)}`, '<= 10 each', yes(f.auctions.met)],
      [
        'fill - first profitable ledger',
        `${f.fills.filled}/${f.borrowers} filled; +0: ${f.fills.atPlus0}, +1: ${f.fills.atPlus1}, later: ${f.fills.later}${f.fills.early > 0 ? `, early: ${f.fills.early}` : ''}; p50 ${signed(f.fills.delay.p50)}, max ${signed(f.fills.delay.max)} (${f.fills.onTimePercent} % on time)`,
        '>= 99 % at +0/+1',
        yes(f.fills.met),
      ],
      [
        'draw -> return (ledgers)',
        `${f.draws.count} draws (${f.draws.won} filled, ${f.draws.lost} lost races${f.draws.unreturned > 0 ? `, ${f.draws.unreturned} NOT returned` : ''}); p50 ${n(f.draws.returnMinusDraw.p50)}, max ${n(f.draws.returnMinusDraw.max)}; filled p50 ${n(f.draws.wonSpan.p50)}, lost p50 ${n(f.draws.lostSpan.p50)}`,
        f.path === 'atomic' ? '0' : '<= 1',
        yes(f.draws.met),
      ],
      ['poll-cycle overruns after the drop', String(f.overruns.afterDrop), 'none', yes(f.overruns.met)],
      ['vault profit (return events)', `${f.vaultProfitUsdc} USDC (vault total_profit +${f.vaultProfitDeltaUsdc})`, '', ''],
      ['wall time', `deploy ${f.wall.deployS.toFixed(0)} s; drop -> last fill ${f.wall.dropToLastFillS === null ? '-' : `${f.wall.dropToLastFillS.toFixed(0)} s (${n(f.dropToLastFillLedgers)} ledgers)`}; run ${f.wall.runS.toFixed(0)} s${f.timedOut ? ' (TIMED OUT)' : ''}`, '', ''],
    ],
  )
  const keepers = table(
    ['keeper', 'fills', 'draws (lost)', 'fires lost/abandoned', 'profit USDC', 'cycles', 'cycle ms p50 / max', 'overruns (after drop)'],
    f.perKeeper.map((k) => [k.name, String(k.fills), `${k.draws} (${k.drawsLost})`, String(k.misses), k.profit, String(k.cycles), `${n(k.cycleMs.p50)} / ${n(k.cycleMs.max)}`, `${k.overruns} (${k.overrunsAfterDrop})`]),
  )
  const auctions = table(
    ['borrower', 'asset', 'pct', 'created', 'first profitable', 'due', 'drawn', 'filled', 'delay', 'filler'],
    f.auctionRows.map((x) => [
      `${x.user.slice(0, 6)}…${x.user.slice(-4)}`,
      x.asset,
      n(x.percent),
      x.createdAfterDrop === null ? '-' : `${x.created} (+${x.createdAfterDrop})`,
      `${n(x.firstProfitable)}${x.planned !== null && x.planned !== x.firstProfitable ? ` (keeper ${x.planned})` : ''}`,
      n(x.due),
      n(x.drawn),
      n(x.filled),
      signed(x.delay),
      x.filler ?? '-',
    ]),
  )
  // Why fires ended without a fill, once per distinct reason.
  const reasons = new Map<string, number>()
  for (const m of f.misses) {
    const note = (m.note ?? '').replace(/G[A-Z2-7]{55}/g, '<user>').replace(/\b[0-9a-f]{64}\b/g, '<tx>')
    const why = `${m.stage}: ${note.split('; ')[0]!.slice(0, 200)}`
    reasons.set(why, (reasons.get(why) ?? 0) + 1)
  }
  const notes = [...reasons].map(([why, count]) => `- ${count} x ${why}`)
  return [goals, '', keepers, '', auctions, ...(notes.length > 0 ? ['', 'fires without a fill:', ...notes] : [])].join('\n')
}
