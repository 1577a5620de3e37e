/**
 * The headline figures of a run: what a researcher reads first, in one order for both the
 * terminal summary and the top of report.html, so the two never disagree.
 */
import { formatXlm } from './competitionFormat.js'
import { formatAmount, formatCount, formatDuration, formatPct, formatPrice, formatSales, mark, MISSING } from './format.js'
import type { Report } from './types.js'

export interface HeadlineFigure {
  label: string
  value: string
  /** Set when the figure signals a problem (missed liquidations, bad debt, mismatches, a failed audit). */
  alert?: boolean
}

/**
 * LP return (cumulative, annualised, and as the dashboard shows it), share price, vault profit, the vault's terms (keeper fee, unlock period), the
 * keepers' rewards and the profit still locked at the end; auctions created / filled, fills (an auction
 * filled in parts counts each) / missed / expired / open; fill delay median, p95 and max (ledgers
 * after the first profitable one); bad debt; slashes; failed keeper transactions (flagged past
 * ten: a revert storm) and fills that lost a race to another keeper's; the landed fills' swaps by
 * route kind and the fills that split a lot asset (when recorded); fees (who ordered the
 * ledgers, XLM paid in all and per win, their share of the vault's profit, inclusion delay, wins
 * by fee strategy, other users' load); keeper profit in total, by keeper strategy when more than
 * one ran (wins and profit; flagged when the daemon's is a loss) and per keeper (with wins and fees);
 * the attacks in brief (when any; flagged when one gained or cost the depositors); peak
 * utilisation; replay mismatches; whether the audit holds.
 */
export function headlineFigures(report: Report): HeadlineFigure[] {
  const s = report.summary
  const failed = report.audit.invariants.filter((i) => !i.holds).length
  const figures: HeadlineFigure[] = [
    ...lpFigures(report),
    { label: 'Share price', value: `${formatPrice(s.sharePriceStart)} → ${formatPrice(s.sharePriceEnd)}` },
    { label: 'Vault profit', value: `${formatAmount(s.vaultProfit)} USDC` },
    ...vaultFigures(s),
    { label: 'Auctions created', value: formatCount(s.auctions.created) },
    { label: 'Liquidations filled', value: formatCount(s.auctions.filled) },
    { label: 'Fills (parts included)', value: formatCount(s.fills) },
    { label: 'Liquidations missed', value: formatCount(s.missed), ...alertIf(s.missed > 0) },
    { label: 'Auctions expired', value: formatCount(s.auctions.expired), ...alertIf(s.auctions.expired > 0) },
    { label: 'Auctions open at the end', value: formatCount(s.auctions.open) },
    { label: 'Fill delay median (ledgers)', value: formatCount(s.fillDelay.median) },
    { label: 'Fill delay p95 (ledgers)', value: formatCount(s.fillDelay.p95) },
    { label: 'Fill delay max (ledgers)', value: formatCount(s.fillDelay.max) },
    { label: 'Fill delay after sellable, median / p95 (ledgers)', value: `${formatCount(s.fillDelaySale?.median ?? null)} / ${formatCount(s.fillDelaySale?.p95 ?? null)}` },
    { label: 'Bad debt', value: `${formatAmount(s.badDebt)} USD`, ...alertIf(s.badDebt > 0) },
    { label: 'Slashes', value: formatCount(s.slashes), ...alertIf(s.slashes > 0) },
    { label: 'Failed keeper transactions', value: formatCount(s.failedTransactions), ...alertIf((s.failedTransactions ?? 0) > 10) },
    { label: 'Fills that lost a race', value: formatCount(s.lostRaceTransactions) },
    ...(s.sales === undefined ? [] : [{ label: 'Sales by route (swaps)', value: formatSales(s.sales) }]),
    ...feeFigures(s.fees),
    { label: 'Keeper profit (all keepers)', value: `${formatAmount(s.keeperProfit)} USDC` },
  ]
  const strategies = report.strategies ?? []
  if (strategies.length > 1)
    figures.push({
      label: 'Wins by keeper strategy',
      value: strategies.map((w) => `${w.strategy} ${formatCount(w.wins)} (${formatAmount(w.profit)} USDC)`).join(', '),
      ...alertIf(strategies.some((w) => w.strategy === 'daemon' && w.profit < 0)),
    })
  for (const k of report.keepers)
    figures.push({
      label: `Keeper ${k.name}`,
      value: `${formatAmount(k.profit)} USDC, ${formatCount(k.wins)} ${k.wins === 1 ? 'win' : 'wins'}, ${formatAmount(k.vaultProfit)} USDC to the vault${k.rewards === undefined ? '' : `, ${formatAmount(k.rewards)} USDC in fees`}`,
    })
  const a = s.attacks
  if (a !== undefined && a !== null)
    figures.push({
      label: 'Attacks',
      value: `${formatCount(a.attempts)} ${a.attempts === 1 ? 'attempt' : 'attempts'}, ${formatCount(a.refused)} refused by a contract; best gain ${formatAmount(a.maxGain)} USDC, worst depositors' loss ${formatAmount(a.maxDepositorLoss)} USDC`,
      ...alertIf(a.maxGain > 0 || a.maxDepositorLoss > 0),
    })
  figures.push(
    { label: 'Peak utilisation', value: formatPct(s.peakUtilisation) },
    { label: 'Replay mismatches', value: formatCount(s.replayMismatches), ...alertIf(s.replayMismatches > 0) },
    {
      label: 'Audit',
      value: s.auditHolds
        ? `${mark(true)} holds`
        : `${mark(false)} ${failed > 0 ? `${failed} of ${report.audit.invariants.length} invariants fail` : 'does not hold'}`,
      ...alertIf(!s.auditHolds),
    },
  )
  return figures
}

/** The shortest run whose return is annualised in the headline (simulated seconds): one day. */
export const ANNUALISE_MIN_SECONDS = 86_400

/**
 * The LP's return three ways, each named for what it is: cumulative over the run (end / start
 * share price − 1), annualised over the run's simulated time (that return compounded to a year;
 * shown for runs of a day or more only: compounding a 2 h return 4,380 times turns the profit of
 * a few fills into thousands of percent), and the dashboard's APY rule (annualised from 7
 * days on, the cumulative return before). report.json keeps `summary.lpApyAnnualised` for every
 * run.
 */
function lpFigures(report: Report): HeadlineFigure[] {
  const s = report.summary
  const seconds = report.run.ledgers * report.run.ledgerSeconds
  const runTime = formatDuration(seconds)
  const out: HeadlineFigure[] = [{ label: 'LP return, cumulative over the run', value: formatPct(s.lpReturn, 4) }]
  if (s.lpApyAnnualised !== undefined)
    out.push({
      label: 'LP APY, annualised from the run',
      value:
        seconds < ANNUALISE_MIN_SECONDS
          ? `not shown: the run is shorter than a day; annualising ${runTime} compounds noise`
          : s.lpApyAnnualised === null
            ? MISSING
            : `${formatPct(s.lpApyAnnualised, 2)} (the ${runTime} return compounded to a year)`,
    })
  out.push({ label: 'LP APY as the dashboard shows it', value: s.lpApy.kind === 'cumulative' ? `${s.lpApy.text} (under 7 days the dashboard shows the cumulative return)` : s.lpApy.text })
  return out
}

/** The vault's terms and what they did: the keepers' fees out of the fills' gross profit, the profit still locked at the end. */
function vaultFigures(s: Report['summary']): HeadlineFigure[] {
  const out: HeadlineFigure[] = []
  if (s.vaultTerms !== undefined)
    out.push({ label: 'Vault terms', value: `keeper fee ${formatPct(s.vaultTerms.keeperFeeBps / 10_000, 2)} of gross profit, profit unlocks over ${formatDuration(s.vaultTerms.profitUnlockSecs)}` })
  if (s.keeperRewards !== undefined) out.push({ label: 'Keeper rewards (fees paid)', value: `${formatAmount(s.keeperRewards)} USDC` })
  if (s.lockedProfitEnd !== undefined) out.push({ label: 'Profit still locked at the end', value: `${formatAmount(s.lockedProfitEnd)} USDC` })
  return out
}

/** The fee and inclusion lines. */
function feeFigures(f: Report['summary']['fees']): HeadlineFigure[] {
  const out: HeadlineFigure[] = [
    { label: 'Ledger ordering', value: f.ordering === 'core' ? "node (stellar-core's selection and apply order)" : 'seeded latency' },
    { label: 'Keeper fees', value: `${formatXlm(f.keepersXlm)} XLM, ${formatXlm(f.perWinXlm)} per win` },
    { label: 'Fees / vault profit', value: `${f.shareOfVaultProfit === null ? '—' : formatPct(f.shareOfVaultProfit, 2)} (XLM at ${formatAmount(f.xlmPriceUsd)} USD)` },
    { label: 'Inclusion delay p50 / p95 (ledgers)', value: `${formatCount(f.inclusionDelay.p50)} / ${formatCount(f.inclusionDelay.p95)}` },
    { label: 'Keeper transactions dropped unapplied', value: formatCount(f.droppedTransactions) },
    { label: 'Keeper fee bumps taken', value: formatCount(f.feeBumps) },
  ]
  if (f.winsByStrategy.length > 0) out.push({ label: 'Wins by fee strategy', value: f.winsByStrategy.map((w) => `${w.strategy}: ${w.wins}`).join(', ') })
  if (f.background !== null)
    out.push({ label: 'Background load', value: `${formatCount(f.background.sent)} sent, ${formatCount(f.background.applied)} applied, ${formatCount(f.background.dropped)} dropped` })
  return out
}

function alertIf(condition: boolean): { alert?: true } {
  return condition ? { alert: true } : {}
}
