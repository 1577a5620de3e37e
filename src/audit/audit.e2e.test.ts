/**
 * The auditor end to end on a sandbox world: deposits, a withdrawal, a draw returned with profit
 * (every invariant holds), a draw left past slash_timeout (invariant 7 warns), its slash (the
 * write-off is listed by invariant 5), then the vault's USDC balance overwritten with the
 * sandbox's setLedgerEntry cheat (invariant 1 breaks, with the amounts).
 */
import { Address, Keypair, StrKey, xdr } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../sandbox/ts/launch.js'
import { addr, i128, invoke } from '../chain/index.js'
import { VaultContract } from '../keeper/clients/vault.js'
import { deployWorld, type World } from '../world/index.js'
import { audit, ChainReadError, formatAmount, type AuditAddresses, type AuditReport } from './index.js'

const UNIT = 10_000_000n

const byId = (r: AuditReport, id: number) => r.invariants.find((i) => i.id === id)!
const failing = (r: AuditReport) => r.invariants.filter((i) => !i.holds || i.warning).map((i) => `${i.id} ${i.detail}`)

/** The SAC's balance entry of a contract holder: persistent `[Balance, holder]` -> `{amount, authorized, clawback}`. */
function balanceKey(token: string, holder: string): xdr.LedgerKey {
  return xdr.LedgerKey.contractData(
    new xdr.LedgerKeyContractData({
      contract: new Address(token).toScAddress(),
      key: xdr.ScVal.scvVec([xdr.ScVal.scvSymbol('Balance'), new Address(holder).toScVal()]),
      durability: xdr.ContractDataDurability.persistent(),
    }),
  )
}

/** Rewrites the `amount` of a SAC balance entry in place (sandbox cheat). */
async function setTokenBalance(sandbox: Sandbox, token: string, holder: string, amount: bigint): Promise<void> {
  const { entries } = await sandbox.server.getLedgerEntries(balanceKey(token, holder))
  const found = entries[0]
  if (!found) throw new Error('no balance entry')
  const data = found.val.contractData()
  const fields = data.val().map() ?? []
  const next = fields.map((f) =>
    f.key().sym().toString() === 'amount' ? new xdr.ScMapEntry({ key: f.key(), val: i128(amount) }) : f,
  )
  const entry = new xdr.LedgerEntry({
    lastModifiedLedgerSeq: found.lastModifiedLedgerSeq ?? 0,
    data: xdr.LedgerEntryData.contractData(
      new xdr.ContractDataEntry({
        ext: data.ext(),
        contract: data.contract(),
        key: data.key(),
        durability: data.durability(),
        val: xdr.ScVal.scvMap(next),
      }),
    ),
    ext: new xdr.LedgerEntryExt(0),
  })
  await sandbox.call('sandbox_setLedgerEntry', { entry: entry.toXDR('base64') })
}

describe('audit on a sandbox world', () => {
  let sandbox: Sandbox
  let world: World
  let addresses: AuditAddresses
  let vault: VaultContract

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, ledgerIntervalSeconds: 0.25 })
    world = await deployWorld(sandbox, { seed: 23, borrowers: 2, keepers: 2, depositors: 3 })
    addresses = { vault: world.service!.vault, registry: world.service!.registry, usdc: world.usdc.contract }
    vault = new VaultContract(world.chain, addresses.vault)
  }, 300_000)

  afterAll(async () => {
    await sandbox?.stop()
  })

  it('holds after deposits, a withdrawal and a draw returned with profit', async () => {
    const [d0, d1] = world.depositors
    const keeper = world.keepers[0]!
    await world.mint('USDC', d0!.publicKey(), 25_000n * UNIT)
    await vault.deposit(d0!, 25_000n * UNIT)
    const shares = (await vault.getDepositor(d1!.publicKey())).shares
    await invoke(world.chain, d1!, addresses.vault, 'withdraw', [addr(d1!.publicKey()), i128(shares / 3n)])
    await vault.draw(keeper, 5_000n * UNIT)
    expect(await vault.returnProceeds(keeper, 5_123n * UNIT, 40)).toBe(123n * UNIT)

    const started = performance.now()
    const report = await audit(world.chain, addresses)
    const ms = performance.now() - started
    console.log(`audit of the test world: ${ms.toFixed(0)} ms at ledger ${report.ledger}`)
    expect(failing(report)).toEqual([])
    expect(report.holds).toBe(true)
    expect(report.invariants.map((i) => i.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
    expect(byId(report, 1).figures.difference).toBe('0.0000000')
    expect(byId(report, 2).figures.depositors).toBe('3')
    expect(byId(report, 2).figures.deadShares).toBe('0.0001000')
    expect(byId(report, 4).figures.sumOfStakes).toBe('2000.0000000')
    expect(byId(report, 5).figures.totalProfit).toBe('123.0000000')
    expect(byId(report, 5).figures.profitInReturnEvents).toBe('123.0000000')
    expect(byId(report, 5).figures.historyComplete).toBe('true')
    expect(byId(report, 6).figures.mismatches).toBe('0')
  })

  it('warns about a draw older than slash_timeout, then lists its slash as a write-off', async () => {
    const keeper = world.keepers[1]!
    await vault.draw(keeper, 500n * UNIT)
    let report = await audit(sandbox.rpcUrl, addresses)
    expect(report.holds).toBe(true)
    expect(byId(report, 3).figures.keepersWithDraw).toBe('1')
    expect(byId(report, 7).warning).toBe(false)

    await sandbox.advanceTime(3_700)
    await sandbox.closeLedgers(1)
    report = await audit(world.chain, addresses)
    expect(report.holds).toBe(true)
    const slashable = byId(report, 7)
    expect(slashable.warning).toBe(true)
    expect(slashable.offenders).toHaveLength(1)
    expect(slashable.offenders[0]).toMatchObject({ account: keeper.publicKey(), amount: '500.0000000' })
    expect(slashable.offenders[0]!.note).toMatch(/slashable now: drawn \d+ s ago \(slash_timeout 3600 s\)/)

    await invoke(world.chain, world.admin, addresses.registry, 'slash', [addr(keeper.publicKey())])
    report = await audit(world.chain, addresses)
    expect(failing(report)).toEqual([])
    const profit = byId(report, 5)
    expect(profit.figures.writeOffs).toBe('1')
    const m = new RegExp(
      `^ledger \\d+: keeper ${keeper.publicKey()} written down 500\\.0000000, recovered 100\\.0000000, price (\\d+\\.\\d{7}) -> (\\d+\\.\\d{7})$`,
    ).exec(profit.figures.writeOff1 ?? '')
    expect(m, profit.figures.writeOff1).not.toBeNull()
    expect(Number(m![2])).toBeLessThan(Number(m![1]))
    // The slashed 10 % of the stake left the registry for the vault.
    expect(byId(report, 4).figures.sumOfStakes).toBe('1900.0000000')
  })

  it('audits 1,000 depositors (found or listed) in well under 10 s', async () => {
    const extra = Array.from({ length: 1_000 - 3 }, () => Keypair.random().publicKey())
    const started = performance.now()
    const report = await audit(world.chain, addresses, { depositors: extra })
    const ms = performance.now() - started
    console.log(`audit with 1,000 depositors: ${ms.toFixed(0)} ms`)
    expect(report.holds).toBe(true)
    expect(byId(report, 6).figures.depositors).toBe('1000')
    expect(ms).toBeLessThan(10_000)
  })

  it('breaks invariant 1 when the vault USDC balance is overwritten, naming the vault and the shortfall', async () => {
    const held = await world.balance('USDC', addresses.vault)
    await setTokenBalance(sandbox, world.usdc.contract, addresses.vault, held - 1_234n * UNIT)
    const report = await audit(sandbox.server, addresses)
    expect(report.holds).toBe(false)
    expect(report.invariants.filter((i) => !i.holds).map((i) => i.id)).toEqual([1])
    const inv = byId(report, 1)
    expect(inv.figures.vaultUsdcBalance).toBe(formatAmount(held - 1_234n * UNIT))
    expect(inv.figures.expected).toBe(formatAmount(held))
    expect(inv.figures.difference).toBe('-1234.0000000')
    expect(inv.offenders).toEqual([
      { account: addresses.vault, amount: '-1234.0000000', note: expect.stringMatching(/^shortfall/) as unknown as string },
    ])

    // A surplus is a donation: a warning, not a break.
    await setTokenBalance(sandbox, world.usdc.contract, addresses.vault, held + 7n * UNIT)
    const donated = await audit(world.chain, addresses)
    expect(donated.holds).toBe(true)
    expect(byId(donated, 1)).toMatchObject({ holds: true, warning: true, figures: { difference: '+7.0000000' } })
    await setTokenBalance(sandbox, world.usdc.contract, addresses.vault, held)
  })

  it('throws ChainReadError naming the call when the chain cannot be read', async () => {
    const missing = StrKey.encodeContract(Buffer.alloc(32, 7))
    const err = await audit(world.chain, { ...addresses, vault: missing }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ChainReadError)
    expect((err as ChainReadError).call).toBe('vault.get_usdc')
    expect((err as Error).message).toMatch(/^reading vault\.get_usdc failed: /)
    await expect(audit('http://127.0.0.1:9/rpc', addresses)).rejects.toThrow(/^reading getNetwork failed: /)
  })
})
