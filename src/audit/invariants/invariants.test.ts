import { describe, expect, it } from 'vitest'
import { auditSnapshot } from '../audit.js'
import { A, B, K, REGISTRY, U, VAULT, WITHDRAWN, fixtureSnapshot } from '../../../test/audit/snapshotFixture.js'
import { checkDepositorBalances } from './depositorBalances.js'
import { checkDraws } from './draws.js'
import { checkProfit } from './profit.js'
import { checkRegistryStake } from './registryStake.js'
import { checkShares } from './shares.js'
import { checkSlashable } from './slashable.js'
import { checkVaultUsdc } from './vaultUsdc.js'
import { checkWiring } from './wiring.js'

describe('the fixture', () => {
  it('satisfies every invariant without a warning', () => {
    const report = auditSnapshot(fixtureSnapshot())
    expect(report.invariants.filter((r) => !r.holds || r.warning)).toEqual([])
    expect(report).toMatchObject({ holds: true, ledger: 20 })
    expect(report.invariants.map((r) => r.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
  })
})

describe('1: vault USDC', () => {
  it('a shortfall breaks, naming the vault and the difference', () => {
    const s = fixtureSnapshot()
    s.vaultUsdcBalance -= 5n
    const r = checkVaultUsdc(s)
    expect(r).toMatchObject({ holds: false, warning: false, figures: { difference: '-0.0000005' } })
    expect(r.offenders).toEqual([expect.objectContaining({ account: VAULT, amount: '-0.0000005' })])
  })
  it('a surplus (donation) is a warning', () => {
    const s = fixtureSnapshot()
    s.vaultUsdcBalance += 3n * U
    expect(checkVaultUsdc(s)).toMatchObject({ holds: true, warning: true, figures: { difference: '+3.0000000' } })
  })
  it('counts active_liq out of the expected balance', () => {
    const s = fixtureSnapshot()
    s.books.activeLiq = 50n * U
    s.vaultUsdcBalance -= 50n * U
    expect(checkVaultUsdc(s).holds).toBe(true)
  })
})

describe('2: shares', () => {
  it('a depositor record off its events names the depositor', () => {
    const s = fixtureSnapshot()
    s.depositors[1]!.shares += 7n
    s.books.totalShares += 7n
    const r = checkShares(s)
    expect(r.holds).toBe(false)
    expect(r.offenders).toEqual([expect.objectContaining({ account: B, amount: '0.0000007' })])
  })
  it('shares nobody holds break with a complete history', () => {
    const s = fixtureSnapshot()
    s.books.totalShares += 10n
    const r = checkShares(s)
    expect(r).toMatchObject({ holds: false, figures: { difference: '-0.0000010' } })
    expect(r.offenders).toEqual([expect.objectContaining({ account: VAULT, amount: '-0.0000010' })])
  })
  it('...and only warn when older events are out of reach', () => {
    const s = fixtureSnapshot()
    s.history = { ...s.history, events: s.history.events.slice(2), complete: false }
    s.depositors = s.depositors.slice(1)
    expect(checkShares(s)).toMatchObject({ holds: true, warning: true })
  })
  it('more shares held than exist always break', () => {
    const s = fixtureSnapshot()
    s.history = { ...s.history, complete: false }
    s.depositors[0]!.shares += 1n
    expect(checkShares(s).holds).toBe(false)
  })
  it('dead shares other than 1000 break', () => {
    const s = fixtureSnapshot()
    s.deadShares = 999n
    s.depositors[0]!.shares += 1n
    const r = checkShares(s)
    expect(r.holds).toBe(false)
    expect(r.offenders[0]).toMatchObject({ account: VAULT, amount: '-0.0000001' })
  })
})

describe('3: draws', () => {
  it('holds with an open draw the registry mirrors', () => {
    const s = fixtureSnapshot()
    s.books.activeLiq = 40n * U
    s.draws[0] = { account: K, draw: 40n * U, keeper: { ...s.keepers[0]!, hasActiveDraw: true, drawAmount: 40n * U } }
    expect(checkDraws(s)).toMatchObject({ holds: true, figures: { keepersWithDraw: '1', sumOfDraws: '40.0000000' } })
  })
  it('a draw the registry does not know about breaks, and so does a sum off active_liq', () => {
    const s = fixtureSnapshot()
    s.books.activeLiq = 40n * U
    s.draws[0] = { ...s.draws[0]!, draw: 30n * U }
    const r = checkDraws(s)
    expect(r.holds).toBe(false)
    expect(r.offenders.map((o) => [o.account, o.amount])).toEqual([
      [K, '30.0000000'],
      [VAULT, '-10.0000000'],
    ])
  })
  it('a different draw_amount and an unregistered keeper with a draw break', () => {
    const s = fixtureSnapshot()
    s.books.activeLiq = 60n * U
    s.draws = [
      { account: K, draw: 40n * U, keeper: { ...s.keepers[0]!, hasActiveDraw: true, drawAmount: 45n * U } },
      { account: 'GGONE', draw: 20n * U, keeper: undefined },
    ]
    const r = checkDraws(s)
    expect(r.offenders.map((o) => [o.account, o.amount])).toEqual([
      [K, '-5.0000000'],
      ['GGONE', '20.0000000'],
    ])
  })
})

describe('4: registry stake', () => {
  it('shortfall breaks, surplus warns', () => {
    const s = fixtureSnapshot()
    s.registryUsdcBalance -= 1n
    expect(checkRegistryStake(s)).toMatchObject({ holds: false, offenders: [{ account: REGISTRY, amount: '-0.0000001' }] })
    s.registryUsdcBalance += 2n
    expect(checkRegistryStake(s)).toMatchObject({ holds: true, warning: true })
  })
})

describe('5: profit and share price', () => {
  it('total_profit above the returns booked breaks with a complete history', () => {
    const s = fixtureSnapshot()
    s.books.totalProfit += 1n * U
    const r = checkProfit(s)
    expect(r).toMatchObject({ holds: false, figures: { difference: '+1.0000000', profitInReturnEvents: '10.0000000' } })
    expect(r.offenders[0]).toMatchObject({ account: VAULT, amount: '1.0000000' })
  })
  it('a partial history warns when the books hold more than its events explain', () => {
    const s = fixtureSnapshot()
    s.history = { ...s.history, events: s.history.events.slice(3), complete: false }
    expect(checkProfit(s)).toMatchObject({ holds: true, warning: true })
  })
  it('a price fall at a withdrawal breaks and names the depositor', () => {
    const s = fixtureSnapshot()
    const events = s.history.events
    // B was paid 1 USDC more than its shares were worth: the books are lower by as much.
    events[5] = { ...events[5]!, kind: 'withdraw', account: B, shares: 100n * U, amount: WITHDRAWN + U } as (typeof events)[5]
    s.books.totalUsdc -= U
    s.vaultUsdcBalance -= U
    const r = checkProfit(s)
    expect(r.holds).toBe(false)
    expect(r.offenders).toHaveLength(1)
    expect(r.offenders[0]!.account).toBe(B)
    expect(r.offenders[0]!.note).toMatch(/share price fell 1\.0066666 -> 1\.\d{7} at a withdraw \(ledger 15\)/)
  })
  it('a write-off may lower the price; it is listed with its ledger', () => {
    const s = fixtureSnapshot()
    s.history.events.push(
      { id: '7', ledger: 16, kind: 'draw', account: K, amount: 50n * U },
      { id: '8', ledger: 17, kind: 'write_off', account: K, writtenDown: 50n * U, recovered: 100n * U - 90n * U },
    )
    s.books.totalUsdc -= 40n * U
    const r = checkProfit(s)
    expect(r).toMatchObject({ holds: true, warning: false, figures: { writeOffs: '1' } })
    expect(r.figures.writeOff1).toMatch(/^ledger 17: keeper GKEEPER written down 50\.0000000, recovered 10\.0000000, price 1\.0066666 -> 0\.\d{7}$/)
  })
})

describe('6: depositor balances', () => {
  it('a balance off the core value by one unit breaks and shows both', () => {
    const s = fixtureSnapshot()
    s.depositors[0]!.balance! += 1n
    const r = checkDepositorBalances(s)
    expect(r.holds).toBe(false)
    expect(r.offenders).toEqual([expect.objectContaining({ account: A, amount: '0.0000001' })])
    expect(r.offenders[0]!.note).toMatch(/^vault says \d+\.\d{7}, the core says \d+\.\d{7}$/)
  })
  it('a failed balance call is reported', () => {
    const s = fixtureSnapshot()
    const d = s.depositors[1]!
    delete d.balance
    d.balanceError = 'contract error #103'
    expect(checkDepositorBalances(s).offenders[0]!.note).toMatch(/vault\.balance failed \(contract error #103\)/)
  })
})

describe('7: slashable draws', () => {
  const withDraw = (drawnAt: bigint) => {
    const s = fixtureSnapshot()
    s.draws[0] = { account: K, draw: 40n * U, keeper: { ...s.keepers[0]!, hasActiveDraw: true, drawAmount: 40n * U, drawTimestamp: drawnAt } }
    return s
  }
  it('warns (strictly) past slash_timeout with keeper, amount and age', () => {
    expect(checkSlashable(withDraw(100_000n - 3600n)).warning).toBe(false)
    const r = checkSlashable(withDraw(100_000n - 3601n))
    expect(r).toMatchObject({ holds: true, warning: true, figures: { slashableDraws: '1', slashableAmount: '40.0000000' } })
    expect(r.offenders[0]).toMatchObject({ account: K, amount: '40.0000000' })
    expect(r.offenders[0]!.note).toMatch(/drawn 3601 s ago \(slash_timeout 3600 s\)/)
  })
})

describe('8: wiring', () => {
  it('names each mismatch', () => {
    const s = fixtureSnapshot()
    s.wiring = { vaultRegistry: { error: 'contract error #101' }, registryVault: { address: 'COTHER' }, vaultUsdc: 'CUSDC', registryUsdc: 'CFAKE' }
    const r = checkWiring(s)
    expect(r.holds).toBe(false)
    expect(r.offenders.map((o) => o.account)).toEqual([VAULT, REGISTRY, REGISTRY])
    expect(r.figures.vaultRegistry).toBe('unset (contract error #101)')
    expect(checkWiring({ ...s, addresses: { ...s.addresses, usdc: 'CELSE' } }).offenders).toHaveLength(4)
  })
})
