import { describe, expect, it } from 'vitest'
import type { KeeperDecision } from '../agents/probe.js'
import type { VaultFlow } from '../../../src/world/runEvents.js'
import { competition, fillProfitOf, type CompetitionInput } from './competition.js'
import type { KeeperTx } from './transactions.js'

const BACKSTOP = 'CBACKSTOP'

function tx(agent: string, hash: string, ledger: number, position: number, fills: [number, string][], fields: Partial<KeeperTx> = {}): KeeperTx {
  return {
    hash,
    agent,
    source: `G${agent.toUpperCase()}`,
    latencyMs: 200,
    submittedLedger: ledger,
    ledger,
    position,
    arrivalMs: 200,
    status: 'SUCCESS',
    feeCharged: 100n,
    fills: fills.map(([type, user]) => ({ type, user })),
    ...fields,
  }
}

const decision = (ledger: number, type: number, user: string, kind: KeeperDecision['kind'], target: number | null = null): KeeperDecision => ({ ledger, type, user, kind, target })
const flow = (kind: VaultFlow['kind'], address: string, ledger: number, txHash: string, profit = 0n): VaultFlow => ({
  kind,
  address,
  ledger,
  closeTime: BigInt(ledger * 5),
  txHash,
  data: kind === 'return' || kind === 'flash' ? { amount: 1n, profit, fee: profit / 9n } : { amount: 1n },
})

/**
 * Four auctions, three keepers:
 * 1. U1, created 100, filled at 110 by alpha (atomic) ahead of beta in the same ledger;
 * 2. U2, created 200, filled at 205 by beta (two-step: draw at 204, return at 207); alpha's first
 *    profitable ledger was 208, after the fill;
 * 3. the backstop's bad debt, created 300, expired at 700: alpha's fills all failed, beta never found
 *    it profitable, gamma (restarted at 650) never tried;
 * 4. U1 again, created 400, still open: alpha has sent a fill.
 * gamma is down from 151 to 649.
 */
function input(): CompetitionInput {
  return {
    auctions: [
      { type: 0, user: 'U1', createdLedger: 100, endLedger: 110, fill: { ledger: 110, txHash: 'a-fill', address: 'CALPHA', keeper: 'alpha' } },
      { type: 0, user: 'U2', createdLedger: 200, endLedger: 205, fill: { ledger: 205, txHash: 'b-fill', address: 'GBETA', keeper: 'beta' } },
      { type: 1, user: BACKSTOP, createdLedger: 300, endLedger: 700, fill: null },
      { type: 0, user: 'U1', createdLedger: 400, endLedger: null, fill: null },
    ],
    keepers: [
      {
        name: 'alpha',
        address: 'CALPHA',
        alive: [{ from: 50, to: null }],
        decisions: [
          decision(101, 0, 'U1', 'planned', 110),
          decision(111, 0, 'U1', 'filled'),
          decision(201, 0, 'U2', 'planned', 208),
          decision(208, 0, 'U2', 'lost'),
          decision(301, 1, BACKSTOP, 'planned', 310),
          decision(311, 1, BACKSTOP, 'failed'),
        ],
      },
      {
        name: 'beta',
        address: 'GBETA',
        alive: [{ from: 50, to: null }],
        decisions: [decision(101, 0, 'U1', 'planned', 110), decision(111, 0, 'U1', 'failed'), decision(201, 0, 'U2', 'planned', 205), decision(301, 1, BACKSTOP, 'unprofitable')],
      },
      { name: 'gamma', address: 'CGAMMA', alive: [{ from: 50, to: 151 }, { from: 650, to: null }], decisions: [] },
    ],
    transactions: [
      tx('alpha', 'a-open', 99, 1, [], { feeCharged: 50_000n }),
      tx('beta', 'b-lost', 110, 3, [[0, 'U1']], { latencyMs: 900, arrivalMs: 900, status: 'FAILED', feeCharged: 300_000n }),
      tx('alpha', 'a-fill', 110, 2, [[0, 'U1']], { latencyMs: 212.5, arrivalMs: 212.5, feeCharged: 1_234_567n }),
      tx('beta', 'b-draw', 204, 1, [], { feeCharged: 200_000n }),
      tx('beta', 'b-fill', 205, 1, [[0, 'U2']], { latencyMs: 900, arrivalMs: 900, submittedLedger: 204, feeCharged: 400_000n }),
      tx('beta', 'b-return', 207, 1, [], { feeCharged: 100_000n }),
      tx('alpha', 'a-bad-1', 310, 1, [[1, BACKSTOP]], { status: 'FAILED', feeCharged: 10_000n }),
      tx('alpha', 'a-bad-2', 311, 1, [[1, BACKSTOP]], { status: 'FAILED', feeCharged: 10_000n }),
      tx('alpha', 'a-again', 401, 1, [[0, 'U1']], { feeCharged: 5_000n }),
    ],
    vault: [
      flow('flash', 'CALPHA', 110, 'a-fill', 50_000_000n),
      flow('draw', 'GBETA', 204, 'b-draw'),
      flow('deposit', 'GDEPOSITOR', 206, 'dep'),
      flow('return', 'GBETA', 207, 'b-return', 25_000_000n),
      flow('draw', 'CALPHA', 401, 'a-again'),
      flow('return', 'CALPHA', 401, 'a-again', 9_000_000n),
    ],
  }
}

describe('competition per auction', () => {
  const { auctions } = competition(input())

  it('takes the winning transaction’s seeded latency and fee, and the vault profit of the same transaction (atomic)', () => {
    expect(auctions[0]).toEqual({ fillLatencyMs: 212.5, fillFee: 0.1234567, fillProfit: 5, contenders: ['alpha', 'beta'] })
  })

  it('takes the two-step filler’s return that closes its draw as the fill’s profit', () => {
    expect(auctions[1]).toEqual({ fillLatencyMs: 900, fillFee: 0.04, fillProfit: 2.5, contenders: ['beta'] })
  })

  it('gives an unfilled auction no winner figures, but its contenders', () => {
    expect(auctions[2]).toEqual({ fillLatencyMs: null, fillFee: null, fillProfit: null, contenders: ['alpha'] })
  })

  it('keeps a later auction on the same user apart from the earlier one', () => {
    expect(auctions[3]!.contenders).toEqual(['alpha'])
    expect(auctions[0]!.contenders).toEqual(['alpha', 'beta'])
  })

  it('orders contenders by the ledger and position their first transaction was applied in', () => {
    const i = input()
    i.transactions = i.transactions.map((t) => (t.hash === 'b-lost' ? { ...t, ledger: 109 } : t))
    expect(competition(i).auctions[0]!.contenders).toEqual(['beta', 'alpha'])
  })

})

describe('competition per keeper', () => {
  const { keepers } = competition(input())

  it('counts a loss when another keeper filled an auction this one sent a fill for in time', () => {
    expect(keepers.get('beta')).toMatchObject({ losses: 1, unprofitable: 1, missed: 0 })
  })

  it('does not count a fill of its own that failed before the winner’s landed as a loss (nor as missed)', () => {
    for (const moved of [{ ledger: 109 }, { position: 1 }]) {
      const i = input()
      i.transactions = i.transactions.map((t) => (t.hash === 'b-lost' ? { ...t, ...moved } : t))
      expect(competition(i).keepers.get('beta')).toMatchObject({ losses: 0, missed: 0 })
    }
  })

  it('counts an auction filled before the keeper’s own first profitable ledger as unprofitable, not as a loss', () => {
    expect(keepers.get('alpha')).toMatchObject({ losses: 0, unprofitable: 1, missed: 0 })
  })

  it('counts an auction the keeper ran during and sent nothing for as missed, and none while it was down', () => {
    // U1 (alive 100–110) and the expired bad debt (alive again from 650); not U2 (down 151–649)
    expect(keepers.get('gamma')).toMatchObject({ losses: 0, unprofitable: 0, missed: 2 })
  })

  it('counts a loss found by the fire’s re-check without a transaction sent', () => {
    const i = input()
    i.transactions = i.transactions.filter((t) => t.hash !== 'b-lost')
    i.keepers = i.keepers.map((k) => (k.name === 'beta' ? { ...k, decisions: [...k.decisions, decision(110, 0, 'U1', 'lost')] } : k))
    expect(competition(i).keepers.get('beta')!.losses).toBe(1)
    const none = input()
    none.transactions = none.transactions.filter((t) => t.hash !== 'b-lost')
    expect(competition(none).keepers.get('beta')).toMatchObject({ losses: 0, missed: 1 })
  })

  it('sums the fees of all the keeper’s transactions, failed ones included (XLM)', () => {
    expect(keepers.get('alpha')!.feesPaid).toBe(0.1309567)
    expect(keepers.get('beta')!.feesPaid).toBe(0.1)
    expect(keepers.get('gamma')!.feesPaid).toBe(0)
  })
})

describe('fillProfitOf', () => {
  it('is 0 when the filler’s next vault event after the fill is a draw (a fill that needed no capital)', () => {
    const fill = { ledger: 500, txHash: 'interest', address: 'GBETA', keeper: 'beta' }
    expect(fillProfitOf(fill, [flow('draw', 'GBETA', 503, 'x'), flow('return', 'GBETA', 505, 'y', 7n)])).toBe(0)
    expect(fillProfitOf(fill, [])).toBe(0)
  })

  it('takes the flash draw of the fill’s own transaction (the atomic path), and skips the filler’s withdrawal requests on the two-step path', () => {
    const atomic = { ledger: 500, txHash: 'f', address: 'CALPHA', keeper: 'alpha' }
    expect(fillProfitOf(atomic, [flow('flash', 'CALPHA', 500, 'f', 30_000_000n)])).toBe(3)
    const twoStep = { ledger: 500, txHash: 'fill', address: 'GBETA', keeper: 'beta' }
    expect(fillProfitOf(twoStep, [flow('wreq', 'GBETA', 500, 'w'), flow('return', 'GBETA', 501, 'r', 10_000_000n)])).toBe(1)
  })
})
