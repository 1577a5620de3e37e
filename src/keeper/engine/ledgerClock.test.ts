import { describe, expect, it } from 'vitest'
import { DEFAULT_LEDGER_MS } from '../../chain/ledgerTime.js'
import { ManualLedgerClock, OBSERVED_SPAN } from './ledgerClock.js'

describe('the engine clock’s ledger time', () => {
  it('is the network’s until the closes seen span enough ledgers, then their pace', () => {
    const clock = new ManualLedgerClock({ sequence: 100, closeTimeMs: 1_000_000 })
    expect(clock.ledgerMs()).toBe(DEFAULT_LEDGER_MS)
    clock.setNetworkMs(2500)
    expect(clock.ledgerMs()).toBe(2500)
    // 2.5 s ledgers with whole-second close times: +2 s, +3 s, ...
    let t = 1_000_000
    for (let i = 1; i < OBSERVED_SPAN; i++) {
      t += i % 2 === 1 ? 2000 : 3000
      clock.set({ sequence: 100 + i, closeTimeMs: t })
      expect(clock.ledgerMs(), 'a few closes are not a pace yet').toBe(2500)
    }
    clock.set({ sequence: 100 + OBSERVED_SPAN, closeTimeMs: 1_000_000 + OBSERVED_SPAN * 2500 })
    expect(clock.ledgerMs()).toBe(2500)
    // The network slows down: the closes seen win over the stated target.
    clock.set({ sequence: 100 + 2 * OBSERVED_SPAN, closeTimeMs: 1_000_000 + OBSERVED_SPAN * 2500 + OBSERVED_SPAN * 7500 })
    expect(clock.ledgerMs()).toBe(5000)
  })

  it('refuses a ledger time that is not positive', () => {
    const clock = new ManualLedgerClock({ sequence: 1, closeTimeMs: 0 })
    expect(() => clock.setNetworkMs(0)).toThrow(/positive/)
    expect(() => clock.setNetworkMs(Number.NaN)).toThrow(/positive/)
  })
})
