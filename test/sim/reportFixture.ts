/**
 * Hand-built run reports for the report renderers' tests: a small run with every kind of row
 * (filled, expired and open auctions, a missing DEX quote, a replay mismatch, a failed audit
 * invariant, a slash) and an empty one (no auctions, no fills, no series points). The small run's
 * text fields carry markup and a closing script tag so escaping is exercised.
 */
import { emptySeries } from '../../sim/src/report/series.js'
import { REPORT_SCHEMA_VERSION, type Report } from '../../sim/src/report/types.js'

const KEEPER_A = 'CAKEEPERAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'
const KEEPER_B = 'CBKEEPERBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB'

/** A six-point run with two collateral assets, three keepers and four auctions. */
export function reportFixture(): Report {
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    scenario: {
      name: 'cascade <small>',
      description: 'Two assets fall 30 % & recover; "quotes" </script><b>bold</b>',
      hash: 'ab'.repeat(32),
      resolved: { ledgers: 6, note: '</script><!-- not a comment -->' },
    },
    seed: 42,
    versions: { harness: '0.1.0', stellarSdk: '15.1.0', sorobanHost: '23.0.0', blend: '2.0.0', protocol: 23 },
    run: { ledgerSeconds: 5, ledgers: 720, startLedger: 1000, endLedger: 1720, fastForwardedLedgers: 300 },
    summary: {
      lpReturn: 0.0012345,
      lpApy: { kind: 'cumulative', value: 0.0012345, text: '0.12% cumulative' },
      sharePriceStart: 1,
      sharePriceEnd: 1.0012345,
      vaultProfit: 123.4567891,
      keeperRewards: 13,
      lockedProfitEnd: 40.5,
      vaultTerms: { keeperFeeBps: 1_000, profitUnlockSecs: 3_600 },
      attacks: { attempts: 2, refused: 2, maxGain: 0, maxDepositorLoss: 0 },
      auctions: { created: 4, filled: 2, expired: 1, open: 1 },
      fills: 4,
      failedTransactions: 2,
      lostRaceTransactions: 1,
      missed: 1,
      fillDelay: { median: 2.5, p95: 4, max: 4 },
      fillDelaySale: { median: 1.5, p95: 3, max: 3 },
      badDebt: 17.25,
      borrowedStart: 500000,
      insolventDebt: 20.5,
      liquidatedCollateral: 2100.75,
      slashes: 1,
      keeperProfit: 58.5,
      peakUtilisation: 0.6,
      replayMismatches: 1,
      auditHolds: false,
      fees: {
        ordering: 'core',
        keepersXlm: 0.0580245,
        perWinXlm: 0.0290123,
        xlmPriceUsd: 0.3,
        shareOfVaultProfit: 0.000141,
        inclusionDelay: { p50: 0, p95: 2 },
        droppedTransactions: 3,
        feeBumps: 2,
        winsByStrategy: [
          { strategy: 'fixed 100', keepers: 2, wins: 1, feesXlm: 0.0123456 },
          { strategy: 'profit:2000', keepers: 1, wins: 1, feesXlm: 0.0456789 },
        ],
        background: { sent: 120, applied: 100, dropped: 4 },
      },
    },
    keepers: [
      keeper(0, 'alpha', KEEPER_A, 'atomic', { wins: 1, losses: 1, missed: 1, profit: 40.25, vaultProfit: 80.5, rewards: 8.95, winRate: 0.5, feesPaid: 0.0123456, feesPerWin: 0.0123456, fills: 2, lanes: { count: 3, accounts: ['GOPERATORA', 'GCHANNELA1', 'GCHANNELA2'], sent: [2, 1, 0], applied: [2, 1, 0], tryAgainLater: 1 } }),
      keeper(1, 'beta', KEEPER_B, 'two-step', { wins: 1, unprofitable: 1, profit: 18.25, vaultProfit: 36.5, rewards: 4.05, winRate: 0.5, slashed: 1, feesPaid: 0.0456789, feesPerWin: 0.0456789, fills: 2, failedTransactions: 2, lostRaceTransactions: 1, failedTransactionFees: 0.0011 }),
      keeper(2, 'gamma', 'CCKEEPERC', 'atomic', { abandoned: 2, crashed: true, missed: 2 }),
    ],
    auctions: [
      auction('GUSER1:liquidation:1100', 1100, {
        firstProfitableLedger: 1102,
        filledLedger: 1104,
        filledBy: KEEPER_A,
        fillDelay: 2,
        fillLatencyMs: 200,
        fillFee: 0.0061728,
        fillProfit: 80.5,
        contenders: ['alpha', 'beta'],
        lotValue: 1100.5,
        bidValue: 1000,
        fills: [{ ledger: 1104, percent: 100, filledBy: 'alpha', profit: 80.5, lotValue: 1100.5, bidValue: 1000, txHash: 'aa'.repeat(32) }],
      }),
      auction('GUSER2:liquidation:1200', 1200, {
        firstProfitableLedger: 1201,
        filledLedger: 1205,
        filledBy: KEEPER_B,
        fillDelay: 4,
        fillLatencyMs: 912.5,
        fillFee: 0.0228395,
        fillProfit: 36.5,
        contenders: ['beta'],
        lotValue: 550,
        bidValue: 500.25,
        fills: [
          { ledger: 1205, percent: 60, filledBy: 'beta', profit: 20, lotValue: 330, bidValue: 300.15, txHash: 'bb'.repeat(32) },
          { ledger: 1206, percent: 100, filledBy: 'beta', profit: 16.5, lotValue: 220, bidValue: 200.1, txHash: 'cc'.repeat(32) },
        ],
      }),
      auction('GUSER3:bad-debt:1300', 1300, { kind: 'bad-debt', outcome: 'expired', remainingPercent: 100 }),
      auction('GUSER4:liquidation:1700', 1700, {
        firstProfitableLedger: 1710,
        outcome: 'open',
        remainingPercent: 75,
        fills: [{ ledger: 1712, percent: 25, filledBy: 'alpha', profit: 3.25, lotValue: 60, bidValue: 55, txHash: 'dd'.repeat(32) }],
      }),
    ],
    replay: {
      checks: [
        { kind: 'fill-ledger', checked: 2, mismatches: 1 },
        { kind: 'fill-amounts', checked: 2, mismatches: 0 },
        { kind: 'share-math', checked: 10, mismatches: 0 },
        { kind: 'health-factor', checked: 30, mismatches: 0 },
      ],
      mismatches: [{ kind: 'fill-ledger', ledger: 1205, detail: 'predicted 1203, chain 1205 <late>' }],
    },
    audit: {
      holds: false,
      invariants: [
        { id: 1, name: 'shares back the assets', holds: true, warning: false, detail: 'ok' },
        { id: 2, name: 'no stale draws', holds: false, warning: false, detail: '1 draw open past expiry' },
        { id: 3, name: 'stake covers slashes', holds: true, warning: true, detail: 'stake near minimum' },
      ],
    },
    series: {
      assets: ['XLM', 'wETH'],
      ledger: [1000, 1100, 1104, 1200, 1205, 1720],
      time: [0, 500, 520, 1000, 1025, 3600],
      sharePrice: [1, 1, 1.0005, 1.0005, 1.0012345, 1.0012345],
      totalUsdc: [100000, 100000, 100050, 100050, 100123.45, 0],
      activeLiq: [0, 60000, 0, 50000, 0, 0],
      totalProfit: [0, 0, 50, 50, 123.45, 123.45],
      lockedProfit: [0, 0, 45, 40, 100, 40.5],
      badDebt: [0, 0, 0, 0, 17.25, 17.25],
      openAuctions: [0, 1, 0, 1, 0, 1],
      market: { XLM: [0.1, 0.08, 0.075, 0.07, 0.0000001, 0.09], wETH: [3000, 2900, 2800, 2500, 2400, 2950] },
      oracle: { XLM: [0.1, 0.081, 0.076, 0.071, 0.07, 0.09], wETH: [3000, 2950, 2850, 2550, 2450, 2900] },
      dex: { XLM: [0.1, 0.079, 0.074, 0.069, 0.069, 0.0899], wETH: [3001, null, 2801, 2501, 2401, 2951] },
    },
    events: [
      { ledger: 1050, kind: 'oracle', text: 'XLM −20 %' },
      { ledger: 1150, kind: 'crash', text: 'gamma crashed after draw' },
      { ledger: 1300, kind: 'slash', text: 'beta slashed 1 (stale draw) <b>' },
      { ledger: 1400, kind: 'restart', text: 'gamma restarted' },
    ],
    attacks: [
      {
        attacker: 'keeper-4',
        kind: 'draw-and-run',
        attempt: 1,
        description: 'register with min_stake, draw, keep it',
        account: 'GATTACKERDRAWANDRUNAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
        fromLedger: 1010,
        toLedger: 1300,
        steps: [
          { ledger: 1010, action: 'register the operator', result: 'applied', amount: 1000 },
          { ledger: 1011, action: 'two-step draw of 1000000.00 USDC', result: 'refused', error: { code: 216, name: 'BondTooSmall' }, amount: 1_000_000 },
          { ledger: 1011, action: 'two-step draw of 900.00 USDC', result: 'applied', amount: 900 },
          { ledger: 1300, action: 'slashed by the watchdog', result: 'applied', amount: 1000 },
          { ledger: 1301, action: 'two-step draw of 900.00 USDC again', result: 'refused', error: { code: 116, name: 'KeeperSlashed' }, amount: 900 },
        ],
        refusedBy: ['216 BondTooSmall', '116 KeeperSlashed'],
        gain: -100,
        depositorLoss: -100,
        outcome: 'slashed at ledger 1300 <b>',
      },
      {
        attacker: 'jit-1',
        kind: 'jit-deposit',
        attempt: 1,
        description: 'deposit before a fill </script>',
        account: 'GJIT',
        fromLedger: 1103,
        toLedger: null,
        steps: [{ ledger: 1103, action: 'deposit 5000.00 USDC', result: 'failed', error: { code: 10, name: 'BalanceError' }, amount: 5000 }],
        refusedBy: ['10 BalanceError'],
        gain: 0,
        depositorLoss: 0,
        outcome: 'its deposit was refused',
      },
    ],
  }
}

/** A run where nothing happened: keepers that never filled, no auctions, no series points. */
export function emptyReportFixture(): Report {
  const r = reportFixture()
  return {
    ...r,
    scenario: { ...r.scenario, name: 'quiet', description: 'Nothing moves.' },
    summary: {
      ...r.summary,
      lpReturn: 0,
      lpApy: { kind: 'missing', value: null, text: '—' },
      sharePriceEnd: 1,
      vaultProfit: 0,
      auctions: { created: 0, filled: 0, expired: 0, open: 0 },
      missed: 0,
      fillDelay: { median: null, p95: null, max: null },
      badDebt: 0,
      slashes: 0,
      keeperProfit: 0,
      peakUtilisation: 0,
      replayMismatches: 0,
      auditHolds: true,
      keeperRewards: 0,
      lockedProfitEnd: 0,
      attacks: null,
    },
    keepers: r.keepers.map((k) => ({ ...k, wins: 0, losses: 0, missed: 0, unprofitable: 0, abandoned: 0, profit: 0, vaultProfit: 0, rewards: 0, winRate: 0, crashed: false, slashed: 0, feesPaid: 0 })),
    auctions: [],
    replay: { checks: r.replay.checks.map((c) => ({ ...c, checked: 0, mismatches: 0 })), mismatches: [] },
    audit: { holds: true, invariants: r.audit.invariants.map((i) => ({ ...i, holds: true, warning: false })) },
    series: emptySeries(['XLM']),
    events: [],
    attacks: [],
  }
}

function keeper(
  index: number,
  name: string,
  address: string,
  path: 'atomic' | 'two-step',
  fields: Partial<Report['keepers'][number]>,
): Report['keepers'][number] {
  return {
    index,
    name,
    address,
    operator: `GOPERATOR${index}`,
    path,
    minProfit: 1 + index,
    pollIntervalLedgers: 1,
    wins: 0,
    losses: 0,
    abandoned: 0,
    profit: 0,
    vaultProfit: 0,
    rewards: 0,
    winRate: 0,
    crashed: false,
    slashed: 0,
    missed: 0,
    unprofitable: 0,
    feesPaid: 0,
    feeStrategy: 'fixed 100',
    feesPerWin: null,
    inclusionDelay: { p50: 0, p95: 1 },
    droppedTransactions: 0,
    feeBumps: 0,
    fills: 0,
    failedTransactions: 0,
    lostRaceTransactions: 0,
    failedTransactionFees: 0,
    ...fields,
  }
}

function auction(id: string, createdLedger: number, fields: Partial<Report['auctions'][number]>): Report['auctions'][number] {
  return {
    id,
    user: id.split(':')[0]!,
    kind: 'liquidation',
    createdLedger,
    firstProfitableLedger: null,
    filledLedger: null,
    filledBy: null,
    fillDelay: null,
    fillLatencyMs: null,
    fillFee: null,
    fillProfit: null,
    contenders: [],
    lotValue: null,
    bidValue: null,
    outcome: 'filled',
    fills: [],
    remainingPercent: 0,
    ...fields,
  }
}
