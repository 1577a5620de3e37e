import { describe, expect, it } from 'vitest'
import { BondLimit, ErrBondLimit, drawLimitOf } from './bondLimit.js'

const silent = { info() {}, warn() {}, error() {}, debug() {} }

function source(records: { drawLimit: bigint; stake: bigint }[] | (() => never)) {
  const reads: string[] = []
  let i = 0
  const getKeeper = async (operator: string) => {
    reads.push(operator)
    if (typeof records === 'function') return records()
    return records[Math.min(i++, records.length - 1)]!
  }
  return { reads, getKeeper }
}

describe('the registry bond limit on two-step draws', () => {
  it("is the keeper record's draw_limit; a record without the field (0 beside a stake) says nothing", () => {
    expect(drawLimitOf({ drawLimit: 900_0000000n, stake: 1_000_0000000n })).toBe(900_0000000n)
    // a registry that predates draw_limit decodes it as 0: unknown, not "no draw at all"
    expect(drawLimitOf({ drawLimit: 0n, stake: 100_0000000n })).toBeUndefined()
    // no stake (slashed to nothing): nothing is backed
    expect(drawLimitOf({ drawLimit: 0n, stake: 0n })).toBe(0n)
  })

  it('reads the record at most once per ledger, again on the next ledger or after invalidate', async () => {
    let ledger = 10
    const s = source([
      { drawLimit: 90n, stake: 100n },
      { drawLimit: 180n, stake: 200n },
      { drawLimit: 270n, stake: 300n },
    ])
    const bond = new BondLimit({ getKeeper: s.getKeeper, keeperAddress: 'CEXEC', latestLedger: () => ledger })
    expect(await Promise.all([bond.limit(), bond.limit()])).toEqual([90n, 90n])
    expect(await bond.limit()).toBe(90n)
    expect(s.reads).toEqual(['CEXEC'])
    ledger = 11
    expect(await bond.limit()).toBe(180n)
    bond.invalidate()
    expect(await bond.limit()).toBe(270n)
    expect(s.reads).toHaveLength(3)
  })

  it('an unreadable record (not registered yet) is no limit: the registry decides', async () => {
    const s = source(() => {
      throw new Error('HostError: Error(Contract, #202)')
    })
    const bond = new BondLimit({ getKeeper: s.getKeeper, keeperAddress: 'G', latestLedger: () => 5, logger: silent })
    expect(await bond.limit()).toBeUndefined()
  })

  it('the guarded vault client refuses a draw above the limit before anything is sent, and passes the rest through', async () => {
    const sent: string[] = []
    const warnings: { obj: object; msg: string | undefined }[] = []
    const bond = new BondLimit({
      getKeeper: async () => ({ drawLimit: 900n, stake: 1_000n }),
      keeperAddress: 'G',
      latestLedger: () => 7,
      logger: { ...silent, warn: (obj, msg) => warnings.push({ obj, msg }) },
    })
    const vault = bond.guard({
      draw: async (a) => {
        sent.push(`draw ${a}`)
      },
      returnProceeds: async (a) => {
        sent.push(`return ${a}`)
        return 0n
      },
      returnProceedsWithFee: async (a) => {
        sent.push(`return+fee ${a}`)
        return { profit: 9n, fee: 1n }
      },
    })
    const err = await vault.draw(901n).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ErrBondLimit)
    expect(err).toMatchObject({ code: 'BOND_LIMIT', amount: 901n, limit: 900n })
    expect((err as Error).message).toBe("two-step draw of 901 USDC stroops is above the registry's bond limit for this keeper (draw_limit 900): add bond to raise it")
    expect(warnings).toEqual([{ obj: { amount: '901', drawLimit: '900' }, msg: 'two-step draw above the bond limit refused before sending' }])
    expect(sent).toEqual([])
    await vault.draw(900n)
    await vault.returnProceeds(900n, 0)
    expect(await vault.returnProceedsWithFee!(10n, 0)).toEqual({ profit: 9n, fee: 1n })
    expect(sent).toEqual(['draw 900', 'return 900', 'return+fee 10'])
  })
})
