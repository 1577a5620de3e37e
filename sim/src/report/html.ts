/**
 * report.html: one self-contained file a researcher can open offline, attach to an issue or
 * archive. Chart.js is inlined, the report is embedded as JSON (the charts are drawn from it in
 * the browser), tables are static markup, and nothing refers to another file or URL.
 *
 * Layout: header (scenario, seed, versions, ledgers), headline figures, the figures per lending
 * pool when the world had more than one, the source when the run
 * started from a snapshot or a fork (sourceSection.ts), charts (share price,
 * APY over the run, prices per asset with fills, fill delay, keepers, utilisation, profit booked
 * and locked, bad debt),
 * then the tables (events, auctions, competition, keepers, strategies when more than one ran,
 * attacks when there were any, replay, audit) and the resolved scenario.
 */
import { chartJsSource } from './chartjs.js'
import { formatCount, formatHours, formatLedger } from './format.js'
import { attacksSection, auctionsTable, auditTable, competitionTable, escapeHtml, eventsTable, headlineTable, keepersTable, poolsTable, replaySection, strategiesTable } from './htmlTables.js'
import { embedJson, htmlPage } from './page.js'
import { APY_MIN_SECONDS, CHART_IDS, PAGE_SCRIPT } from './pageScript.js'
import { sourceSection } from './sourceSection.js'
import type { Report } from './types.js'

const STYLE = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1b1f24; margin: 0 auto; max-width: 1200px; padding: 1rem 1.5rem 3rem; }
h1 { margin: 0.2rem 0; font-size: 1.6rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #d0d7de; padding-bottom: 0.2rem; } h3 { margin-top: 1.4rem; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 0.1rem 1rem; margin: 0.8rem 0; }
dl.meta dt { color: #57606a; } dl.meta dd { margin: 0; font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
table { border-collapse: collapse; margin: 0.6rem 0; font-size: 13px; }
th, td { border-bottom: 1px solid #e1e4e8; padding: 0.25rem 0.6rem; text-align: left; vertical-align: top; }
th { background: #f6f8fa; } td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.alert td { background: #ffebe9; } tr.warn td { background: #fff8c5; }
.ok { color: #1a7f37; font-weight: bold; } .bad { color: #cf222e; font-weight: bold; }
.note { color: #57606a; font-style: italic; }
.warning { background: #fff8c5; border-left: 4px solid #bf8700; padding: 0.5em 0.75em; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(520px, 1fr)); gap: 1.2rem; }
figure { margin: 0; } .canvas-box { position: relative; height: 300px; }
figcaption { color: #57606a; font-size: 12px; margin-top: 0.3rem; }
pre { background: #f6f8fa; padding: 0.8rem; overflow: auto; font-size: 12px; }
`

/**
 * The whole page as one string. The same report always gives the same bytes (no dates, no
 * random ids). The embedded JSON has every `<` written as `\u003c`, so no text in the report
 * can close the data element or open a comment inside it.
 */
export function reportHtml(report: Report): string {
  const title = `${report.scenario.name} — seed ${report.seed}`
  return htmlPage(
    title,
    STYLE,
    `${header(report)}
<section id="headline">
<h2>Headline figures</h2>
${warnings(report)}${headlineTable(report)}
</section>
${(report.summary.pools ?? []).length < 2 ? '' : `<section id="pools">
<h2>Pools</h2>
<p class="note">The same figures per lending pool: its borrowers and their debt at the start, its auctions and fills, the borrowers liquidatable at the end that never got an auction, its backstop's bad debt, the USDC its fills bid (at oracle prices, on the state the filler saw) and the profit they returned to the vault.</p>
${poolsTable(report)}
</section>
`}${report.source === undefined ? '' : `${sourceSection(report)}\n`}${charts(report)}
<section id="events">
<h2>Slashes and scenario events</h2>
${eventsTable(report)}
</section>
<section id="auctions">
<h2>Auctions</h2>
${auctionsTable(report)}
</section>
<section id="competition">
<h2>Competition</h2>
<p class="note">Per auction: the winning fill's ledger, its delay after the first ledger profitable at the population's lowest MIN_PROFIT, the winning transaction's seeded latency and fee, the profit it returned to the vault, and the keepers that sent a fill for it in the order they were applied (winner in bold).</p>
${competitionTable(report)}
</section>
<section id="keepers">
<h2>Keepers</h2>
<p class="note">Losses: filled by another keeper after this one tried while it was profitable for it. Unprofitable: not profitable at its MIN_PROFIT before the fill or expiry. Missed: ended while it ran, no fill sent, neither of the above. Fees: XLM charged on all its transactions.</p>
${keepersTable(report)}
</section>
${(report.strategies ?? []).length < 2 ? '' : `<section id="strategies">
<h2>Strategies</h2>
<p class="note">The keepers by what ran for them: our daemon, or an agent that keeps as another public keeper does (seed-rule: Blend's auctioneer bot's oracle rule, whole auctions, no depth; nectar: auctions opened at 50 %, fills as draw, fill, swap, return). Auctions won: first fills. Profit: what the keepers gained (USDC). To vault: the profit their fills booked for the depositors.</p>
${strategiesTable(report)}
</section>
`}${(report.attacks ?? []).length === 0 ? '' : `<section id="attacks">
<h2>Attacks</h2>
<p class="note">Per attempt of a hostile keeper or depositor: what it tried, the contract errors that refused its steps, what it gained (its USDC, bond and shares at the end of the attempt less at the start, and for a depositor less what doing nothing would have left it; XLM fees left out) and what the depositors who took no part lost against the vault's books without its dealings. Zero or less: the attack did not pay, and cost them nothing.</p>
${attacksSection(report)}
</section>
`}<section id="replay">
<h2>Core replay checks</h2>
${replaySection(report)}
</section>
<section id="audit">
<h2>Invariant audit</h2>
${auditTable(report)}
</section>
<section id="scenario">
<h2>Resolved scenario</h2>
<details><summary>As the run used it (defaults applied)</summary>
<pre>${escapeHtml(JSON.stringify(report.scenario.resolved, null, 2) ?? 'null')}</pre>
</details>
</section>
<script type="application/json" id="report-data">${embedJson(report)}</script>
<script>
${chartJsSource()}</script>
<script>${PAGE_SCRIPT}</script>`,
  )
}

/** The run's warnings (a run too short for its auctions), one paragraph each, above the figures. */
function warnings(report: Report): string {
  return (report.summary.warnings ?? []).map((w) => `<p class="warning" role="note"><strong>Warning:</strong> ${escapeHtml(w)}</p>\n`).join('')
}

function header(report: Report): string {
  const r = report.run
  const v = report.versions
  const rows: [string, string][] = [
    ['Seed', String(report.seed)],
    ['Scenario hash', report.scenario.hash],
    ['Ledgers', `${formatLedger(r.startLedger)}–${formatLedger(r.endLedger)}: ${formatCount(r.ledgers)} simulated, ${formatCount(r.fastForwardedLedgers)} fast-forwarded`],
    ['Simulated time', `${formatHours(r.ledgers * r.ledgerSeconds)} at ${formatCount(r.ledgerSeconds)} s per ledger`],
    ['Versions', `harness ${v.harness}, stellar-sdk ${v.stellarSdk}, soroban host ${v.sorobanHost}, blend ${v.blend}, protocol ${v.protocol}`],
    ['Report schema', String(report.schemaVersion)],
  ]
  return `<header>
<h1>${escapeHtml(report.scenario.name)}</h1>
<p>${escapeHtml(report.scenario.description)}</p>
<dl class="meta">
${rows.map(([k, val]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(val)}</dd>`).join('\n')}
</dl>
</header>`
}

function figure(id: string, caption: string): string {
  return `<figure>
<div class="canvas-box"><canvas id="${escapeHtml(id)}"></canvas></div>
<figcaption>${escapeHtml(caption)}</figcaption>
</figure>`
}

function charts(report: Report): string {
  const hours = APY_MIN_SECONDS / 3600
  const figures = [
    figure(CHART_IDS.sharePrice, 'Vault share price (USDC per share) at each recorded point.'),
    figure(
      CHART_IDS.apy,
      `Annualised return from the start to each point: (price / start price)^(365 days / elapsed) − 1. ` +
        `Points less than ${hours} hour${hours === 1 ? '' : 's'} after the start are left out: annualising minutes turns one fill into a meaningless figure. ` +
        `The headline APY follows the dashboard's rule instead (cumulative under 7 days).`,
    ),
    ...report.series.assets.map((code, i) =>
      figure(`chart-price-${i}`, `${code}: market, oracle and DEX prices; triangles mark liquidation fills at the oracle price of the fill's point (every asset's chart shows every fill).`),
    ),
    figure(CHART_IDS.fillDelay, 'Fill delay per filled auction: fill ledger − first profitable ledger (at the population’s lowest MIN_PROFIT).'),
    figure(CHART_IDS.keepers, 'Keeper profit over the run (USDC, stake changes included) and win rate (share of all fills).'),
    figure(CHART_IDS.utilisation, 'Capital utilisation: USDC out in active liquidations / total USDC of the vault.'),
    figure(
      CHART_IDS.lockedProfit,
      `Profit the vault booked since it started (fills' gross profit less the keepers' fees, slash penalties) and the part still locked: it enters the share price linearly over the unlock period.`,
    ),
    figure(CHART_IDS.badDebt, 'Bad debt: liabilities the backstop holds (USD at oracle prices).'),
  ]
  return `<section id="charts">
<h2>Charts</h2>
<p><label>x axis <select id="x-axis"><option value="ledger" selected>ledger</option><option value="hours">hours since the start</option></select></label></p>
<div class="charts">
${figures.join('\n')}
</div>
</section>`
}
