import { describe, expect, it } from 'vitest'
import { emptyReportFixture, reportFixture } from '../../../test/sim/reportFixture.js'
import { summaryTable, textTable } from './summary.js'

describe('summaryTable', () => {
  const text = summaryTable(reportFixture())
  const lines = text.split('\n')
  const row = (label: string) => lines.find((l) => l.startsWith(label)) ?? ''

  it('opens with the scenario, seed and ledgers', () => {
    expect(lines[0]).toBe('cascade <small>  seed 42  ledgers 1000–1720 (720 simulated, 300 fast-forwarded)')
  })

  it('holds the figures a researcher reads first', () => {
    expect(row('LP return, cumulative over the run')).toMatch(/ 0\.1234%$/)
    expect(row('LP APY as the dashboard shows it')).toMatch(/ 0\.12% cumulative \(under 7 days the dashboard shows the cumulative return\)$/)
    expect(row('Liquidations filled')).toMatch(/ 2$/)
    expect(row('Liquidations missed (!)')).toMatch(/ 1$/)
    expect(row('Auctions expired (!)')).toMatch(/ 1$/)
    expect(row('Auctions open at the end')).toMatch(/ 1$/)
    expect(row('Fill delay median (ledgers)')).toMatch(/ 2\.5$/)
    expect(row('Fill delay p95 (ledgers)')).toMatch(/ 4$/)
    expect(row('Bad debt (!)')).toMatch(/ 17\.25 USD$/)
    expect(row('Slashes (!)')).toMatch(/ 1$/)
    expect(row('Keeper alpha')).toMatch(/ 40\.25 USDC, 1 win, 80\.50 USDC to the vault, 8\.95 USDC in fees$/)
    expect(row('Keeper gamma')).toMatch(/ 0\.00 USDC, 0 wins, 0\.00 USDC to the vault, 0\.00 USDC in fees$/)
    expect(row('Vault terms')).toMatch(/ keeper fee 10\.00% of gross profit, profit unlocks over 1 h$/)
    expect(row('Keeper rewards (fees paid)')).toMatch(/ 13\.00 USDC$/)
    expect(row('Profit still locked at the end')).toMatch(/ 40\.50 USDC$/)
    expect(row('Attacks')).toMatch(/ 2 attempts, 2 refused by a contract; best gain 0\.00 USDC, worst depositors' loss 0\.00 USDC$/)
    expect(row('Sales by route (swaps)')).toMatch(/ primary 1, fallback 1, via 1, comet 1; 1 split$/)
    expect(row('Replay mismatches (!)')).toMatch(/ 1$/)
    expect(row('Audit (!)')).toMatch(/ ✗ 1 of 3 invariants fail$/)
  })

  it('lists the keepers and the audit invariants that fail or warn', () => {
    expect(lines.find((l) => l.startsWith('Keeper  '))).toMatch(/Fee strategy +Wins +Fills +Losses +Missed +Unprofitable +Abandoned +Failed txs +Lost races +Win rate +Fees \(XLM\) +Fees\/win +Delay p50\/p95 +Dropped +Bumps +Lanes: txs each +Try later/)
    expect(row('alpha')).toMatch(/^alpha +atomic +1\.00 +fixed 100 +1 +2 +1 +1 +0 +0 +0 +0 +50\.0% +0\.0123456 +0\.0123456 +0\/1 +0 +0 +3: 2\/1\/0 +1 +40\.25 +80\.50 +8\.95 +0 +no$/)
    expect(row('beta')).toMatch(/^beta +two-step +2\.00 +fixed 100 +1 +2 +0 +0 +1 +0 +2 +1 +50\.0% +0\.0456789 +0\.0456789 +0\/1 +0 +0 +— +— +18\.25 +36\.50 +4\.05 +1 +no$/)
    expect(row('gamma')).toMatch(/ yes$/)
    expect(row('✗')).toMatch(/^✗ +2 no stale draws +1 draw open past expiry$/)
    expect(row('✓ warn')).toMatch(/3 stake covers slashes/)
    expect(text).not.toContain('shares back the assets')
  })

  it('lists the attacks: who, what, the ledgers, the contract errors that refused them, gain and depositors’ loss', () => {
    expect(lines.find((l) => l.startsWith('Attacker  '))).toMatch(/^Attacker +Kind +Try +Ledgers +Refused by +Gain \(USDC\) +Depositors' loss \(USDC\) +Outcome$/)
    expect(row('keeper-4')).toMatch(/^keeper-4 +draw-and-run +1 +1010–1300 +216 BondTooSmall, 116 KeeperSlashed +-100\.00 +-100\.00 +slashed at ledger 1300 <b>$/)
    expect(row('jit-1')).toMatch(/^jit-1 +jit-deposit +1 +1103–end +10 BalanceError +0\.00 +0\.00 +its deposit was refused$/)
    const flagged = reportFixture()
    flagged.summary.attacks = { attempts: 1, refused: 0, maxGain: 0.5, maxDepositorLoss: 0 }
    expect(summaryTable(flagged)).toMatch(/\nAttacks \(!\) +1 attempt, 0 refused/)
    expect(summaryTable(emptyReportFixture())).not.toMatch(/Attack/)
  })

  it('gives one line per pool in a multi-pool run, none with one pool', () => {
    expect(text).not.toMatch(/^Pool  /m)
    const multi = reportFixture()
    const pool = (id: string, created: number, filled: number, badDebt: number) => ({
      pool: id,
      borrowers: 4,
      auctions: { created, filled, expired: created - filled, open: 0 },
      fills: filled,
      missed: 1,
      badDebt,
      borrowedStart: 40_000,
      bidPaid: 12_345.5,
      liquidatedCollateral: 13_000,
      vaultProfit: 321.25,
    })
    multi.summary.pools = [pool(`CAAA${'A'.repeat(48)}ZZZ1`, 3, 2, 0), pool(`CBBB${'B'.repeat(48)}ZZZ2`, 2, 2, 17.25)]
    const out = summaryTable(multi).split('\n')
    expect(out.find((l) => l.startsWith('Pool  '))).toMatch(/^Pool +Borrowers +Borrowed at start +Auctions +Filled +Expired +Open +Fills +Missed +Bad debt +Bid paid \(USDC\) +To vault \(USDC\)$/)
    expect(out.find((l) => l.startsWith('1 CAAA'))).toMatch(/^1 CAAA…ZZZ1 +4 +40,000\.00 +3 +2 +1 +0 +2 +1 +0\.00 +12,345\.50 +321\.25$/)
    expect(out.find((l) => l.startsWith('2 CBBB'))).toMatch(/ 2 +2 +0 +0 +2 +1 +17\.25 +12,345\.50 +321\.25$/)
  })

  it('leaves the sales line out of a report written before fills recorded their sales', () => {
    const old = reportFixture()
    delete old.summary.sales
    expect(summaryTable(old)).not.toContain('Sales by route')
  })

  it('aligns the value column of the figures', () => {
    const start = lines.indexOf(lines.find((l) => l.startsWith('Figure'))!)
    const column = lines[start]!.indexOf('Value')
    const rule = lines[start + 1]!
    expect(rule[column - 1]).toBe(' ')
    for (const l of lines.slice(start + 2, lines.indexOf('', start))) {
      expect(l[column - 1], l).toBe(' ')
      expect(l[column], l).not.toBe(' ')
    }
  })

  it('shows a quiet run with dashes and a holding audit, and no audit table', () => {
    const quiet = summaryTable(emptyReportFixture())
    expect(quiet).toMatch(/LP APY as the dashboard shows it +—\n/)
    expect(quiet).toMatch(/Fill delay median \(ledgers\) +—\n/)
    expect(quiet).toMatch(/Audit +✓ holds\n/)
    expect(quiet).not.toContain('(!)')
    expect(quiet).not.toContain('Invariant')
  })

  it('names the snapshot or fork the run started from on the second line, and nothing when there is none', () => {
    expect(lines[1]).toBe('')
    expect(text).not.toContain('Source')
    const start = { reserves: [], borrowers: [{ address: 'GA', healthFactor: 0.9, collateral: 1, liabilities: 1 }, { address: 'GB', healthFactor: 2, collateral: 2, liabilities: 1 }], liquidatable: 1 }
    const common = { ledger: 72, networkPassphrase: 'Test', pool: 'CPOOL', oracle: 'CORACLE', oracleCode: null, backstop: 'CBACKSTOP', borrowerSources: { snapshot: 2 }, start }
    const snapshot = summaryTable({ ...reportFixture(), source: { kind: 'snapshot', file: 'upstream.json', sha256: 'ab12cd34ef56'.padEnd(64, '0'), ...common } }).split('\n')
    expect(snapshot[0]).toBe(lines[0])
    expect(snapshot[1]).toBe('Source: Snapshot upstream.json (sha256 ab12cd34ef56…, ledger 72); 1 of 2 borrowers liquidatable at the start (health factor under 1)')
    expect(snapshot[2]).toBe('')
    const fork = summaryTable({ ...reportFixture(), source: { kind: 'fork', url: 'https://rpc.example.org', ...common, ledger: 55261759 } }).split('\n')
    expect(fork[1]).toMatch(/^Source: Fork of https:\/\/rpc\.example\.org at ledger 55,261,759; 1 of 2 borrowers/)
  })

  it('gives the same text for the same report', () => {
    expect(summaryTable(reportFixture())).toBe(text)
    expect(text.endsWith('\n')).toBe(true)
  })
})

describe('textTable', () => {
  it('pads to the widest cell, right-aligns where asked and trims line ends', () => {
    expect(textTable(['a', 'n'], [['xyz', '1'], ['✓', '100']], ['left', 'right'])).toBe(
      ['a      n', '---  ---', 'xyz    1', '✓    100'].join('\n'),
    )
    expect(textTable(['a', 'b'], [['x', '']], ['left', 'left'])).toBe(['a  b', '-  -', 'x'].join('\n'))
  })
})
