/**
 * The auditor end to end on a sandbox world: deposits, a withdrawal, a withdrawal request, a draw
 * returned with profit (the keeper's fee paid, the rest locked) and a deposit while that profit
 * unlocks (every invariant holds); a draw left past slash_timeout (invariant 7 warns), then
 * slashed (invariant 5 lists the write-off, 10 and 11 count what the bond paid beyond the draw).
 * Then each invariant is broken on purpose by
 * rewriting a ledger entry with the sandbox's `sandbox_setLedgerEntry` cheat (the contract's
 * storage, a token balance, or the code the vault runs), and `npm run audit -- --json` must name
 * exactly that invariant, exit 1 and show the amounts; every entry is put back after its test.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { Address, hash, Keypair, StrKey } from '@stellar/stellar-sdk'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT, startSandbox, type Sandbox } from '../../sandbox/ts/launch.js'
import {
  accountKey,
  addToI128,
  contractDataKey,
  editContractData,
  editInstance,
  keeperRecordKey,
  restore,
  setTokenBalance,
  withField,
  type SavedEntry,
} from '../../test/audit/ledgerEdits.js'
import { addr, i128, invoke, uploadWasm } from '../chain/index.js'
import { formatAmount } from './format.js'
import { keeperFee } from '../core/index.js'
import { VaultContract } from '../keeper/clients/vault.js'
import { deployWorld, type World } from '../world/index.js'
import { bondForDraw } from '../world/service.js'
import { runCli } from './cli/run.js'
import { audit, ChainReadError, type AuditAddresses, type AuditReport, type InvariantResult } from './index.js'

const UNIT = 10_000_000n

const byId = (r: { invariants: InvariantResult[] }, id: number) => r.invariants.find((i) => i.id === id)!
const failing = (r: AuditReport) => r.invariants.filter((i) => !i.holds || i.warning).map((i) => `${i.id} ${i.detail}`)

/** `npm run audit -- --addresses <file> --json`, in-process: exit status and the document. */
async function auditJson(file: string): Promise<{ code: number; doc: AuditReport & { exitCode: number } }> {
  let out = ''
  const code = await runCli(['--addresses', file, '--json'], { out: (t) => (out += t), err: () => {} })
  return { code, doc: JSON.parse(out) as AuditReport & { exitCode: number } }
}

const brokenIds = (doc: AuditReport) => doc.invariants.filter((i) => !i.holds).map((i) => i.id)

/** The misquoting vault (test/contracts/vault-misquote), built when missing. */
function misquoteWasm(): Buffer {
  const path = join(REPO_ROOT, 'target', 'wasm', 'vault_misquote.wasm')
  try {
    return readFileSync(path)
  } catch {
    const r = spawnSync('bash', ['scripts/build-wasm.sh', 'vault-misquote'], { cwd: REPO_ROOT, stdio: 'inherit' })
    if (r.status !== 0) throw new Error('building test/contracts/vault-misquote failed')
    return readFileSync(path)
  }
}

describe('audit on a sandbox world', () => {
  let sandbox: Sandbox
  let world: World
  let addresses: AuditAddresses
  let vault: VaultContract
  let dir: string
  let file: string
  /** Each keeper's stake: min_stake plus the bond that makes its draw_limit cover the max draw. */
  let stake: bigint
  /** What the slash of test 7 recovers: the 500 USDC draw and the penalty, 10 % of the stake. */
  let recovered: bigint
  const fee = keeperFee(123n * UNIT, 1000)
  const booked = 123n * UNIT - fee

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'audit-e2e-'))
    file = join(dir, 'addresses.json')
    sandbox = await startSandbox({ port: 0, ledgerIntervalSeconds: 0.25 })
    world = await deployWorld(sandbox, { seed: 23, borrowers: 2, keepers: 2, depositors: 3, addressesFile: file })
    addresses = { vault: world.service!.vault, registry: world.service!.registry, usdc: world.usdc.contract }
    vault = new VaultContract(world.chain, addresses.vault)
    const config = await vault.getConfig()
    expect(config).toMatchObject({ keeperFeeBps: 1000, profitUnlockSecs: 3600 })
    const registryConfig = { minStake: 1_000n * UNIT, slashTimeout: 3_600n, slashRateBps: 1_000, usdcToken: world.usdc.contract, executorWasm: '' }
    stake = registryConfig.minStake + bondForDraw(config.maxDrawPerKeeper, registryConfig)
    recovered = 500n * UNIT + (stake * 1_000n) / 10_000n
  }, 300_000)

  afterAll(async () => {
    await sandbox?.stop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('holds after deposits, a withdrawal, a request, a draw returned with profit and a deposit while it unlocks', async () => {
    const [d0, d1, d2] = world.depositors
    const keeper = world.keepers[0]!
    await world.mint('USDC', d0!.publicKey(), 26_000n * UNIT)
    await vault.deposit(d0!, 25_000n * UNIT)
    const shares = (await vault.getDepositor(d1!.publicKey())).shares
    await invoke(world.chain, d1!, addresses.vault, 'withdraw', [addr(d1!.publicKey()), i128(shares / 3n)])
    await invoke(world.chain, d2!, addresses.vault, 'request_withdraw', [addr(d2!.publicKey()), i128(10n * UNIT)])
    await vault.draw(keeper, 5_000n * UNIT)
    // 123 USDC gross: the keeper's 10 % fee paid, the rest booked and locked for an hour.
    expect(await vault.returnProceeds(keeper, 5_123n * UNIT, 40)).toBe(booked)
    await vault.deposit(d0!, 1_000n * UNIT)

    const report = await audit(world.chain, addresses)
    expect(failing(report)).toEqual([])
    expect(report.holds).toBe(true)
    expect(report.invariants.map((i) => i.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
    expect(byId(report, 1).figures.difference).toBe('0.0000000')
    expect(byId(report, 2).figures.depositors).toBe('3')
    expect(byId(report, 2).figures.deadShares).toBe('0.0001000')
    expect(byId(report, 4).figures.sumOfStakes).toBe(formatAmount(2n * stake))
    expect(byId(report, 5).figures).toMatchObject({ historyComplete: 'true', pricesUnchecked: '0' })
    expect(byId(report, 6).figures.mismatches).toBe('0')
    const profit = byId(report, 11)
    expect(profit.figures).toMatchObject({
      totalProfit: formatAmount(booked),
      bookedByReturns: formatAmount(booked),
      keeperFeesPaid: formatAmount(fee),
      keeperFeeBps: '1000',
      profitUnlockSecs: '3600',
      historyComplete: 'true',
    })
    // Still unlocking: part of the profit locked, the lock the one the booking made.
    expect(Number(profit.figures.lockedAtCloseTime)).toBeGreaterThan(0)
    expect(profit.figures.lockFromEvents).toMatch(/^\d+\.\d{7} from \d+ to \d+$/)
    expect(byId(report, 12).figures).toMatchObject({ depositorsRequesting: '1', sumOfRequests: '10.0000000', pendingShares: '10.0000000' })
  })

  it('7: warns about a draw older than slash_timeout (exit 0), then lists its slash as a write-off', async () => {
    const keeper = world.keepers[1]!
    await vault.draw(keeper, 500n * UNIT)
    let report = await audit(sandbox.rpcUrl, addresses)
    expect(report.holds).toBe(true)
    expect(byId(report, 3).figures.keepersWithDraw).toBe('1')
    expect(byId(report, 7).warning).toBe(false)

    await sandbox.advanceTime(3_700)
    await sandbox.closeLedgers(1)
    const { code, doc } = await auditJson(file)
    expect(code).toBe(0)
    expect(doc.holds).toBe(true)
    const slashable = byId(doc, 7)
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
      `^ledger \\d+: keeper ${keeper.publicKey()} written down 500\\.0000000, recovered ${formatAmount(recovered).replace('.', '\\.')}, price (\\d+\\.\\d{7}) -> (\\d+\\.\\d{7})$`,
    ).exec(profit.figures.writeOff1 ?? '')
    expect(m, profit.figures.writeOff1).not.toBeNull()
    // The bond covered the draw and the penalty is locked profit: the price on free assets did not move.
    expect(m![2]).toBe(m![1])
    // The draw and the 10 % penalty left the registry for the vault.
    expect(byId(report, 4).figures.sumOfStakes).toBe(formatAmount(2n * stake - recovered))
    expect(byId(report, 10).figures).toMatchObject({ keepersWrittenOff: '1', recovered: formatAmount(recovered), depositorsLoss: '0.0000000' })
    expect(byId(report, 11).figures.writeOffGains).toBe(formatAmount(recovered - 500n * UNIT))
    // Let the penalty unlock, so that the balances below are compared to the unit.
    await sandbox.advanceTime(3_700)
    await sandbox.closeLedgers(1)
    expect(byId(await audit(world.chain, addresses), 11).figures.lockedAtCloseTime).toBe('0.0000000')
  })

  it('checks every depositor it is given besides those the events name (1,000 in all)', async () => {
    const extra = Array.from({ length: 1_000 - 3 }, () => Keypair.random().publicKey())
    const report = await audit(world.chain, addresses, { depositors: extra })
    expect(report.holds).toBe(true)
    expect(byId(report, 6).figures.depositors).toBe('1000')
  })

  describe('each invariant broken on purpose is named, with its amounts, and exits 1', () => {
    let saved: SavedEntry[] = []
    const breaks = async (...entries: Promise<SavedEntry>[]) => saved.push(...(await Promise.all(entries)))

    afterEach(async () => {
      for (const s of saved.reverse()) await restore(sandbox, s)
      saved = []
      expect((await auditJson(file)).code, 'the world holds again once the entries are back').toBe(0)
    })

    it('1: the vault holds less USDC than total_usdc − active_liq (a surplus only warns)', async () => {
      const held = await world.balance('USDC', addresses.vault)
      await breaks(setTokenBalance(sandbox, world.usdc.contract, addresses.vault, held - 1_234n * UNIT))
      const { code, doc } = await auditJson(file)
      expect(code).toBe(1)
      expect(doc.exitCode).toBe(1)
      expect(brokenIds(doc)).toEqual([1])
      expect(byId(doc, 1).figures).toMatchObject({ difference: '-1234.0000000' })
      expect(byId(doc, 1).offenders).toEqual([{ account: addresses.vault, amount: '-1234.0000000', note: expect.stringMatching(/^shortfall/) as unknown as string }])

      await restore(sandbox, saved.pop()!)
      await breaks(setTokenBalance(sandbox, world.usdc.contract, addresses.vault, held + 7n * UNIT))
      const donated = await auditJson(file)
      expect(donated.code).toBe(0)
      expect(byId(donated.doc, 1)).toMatchObject({ holds: true, warning: true, figures: { difference: '+7.0000000' } })
    })

    it('2: a depositor holds shares that total_shares does not count', async () => {
      const d = world.depositors[2]!.publicKey()
      await breaks(editContractData(sandbox, contractDataKey(addresses.vault, accountKey('dep', d), 'persistent'), (v) => withField(v, 'shares', addToI128(5n * UNIT))))
      const { code, doc } = await auditJson(file)
      expect(code).toBe(1)
      expect(brokenIds(doc)).toEqual([2])
      expect(byId(doc, 2).figures.difference).toBe('+5.0000000')
      expect(byId(doc, 2).offenders).toContainEqual(expect.objectContaining({ account: d, amount: '5.0000000' }))
    })

    it('3: the vault records a draw the registry and active_liq do not know', async () => {
      const k = world.keepers[0]!.publicKey()
      await breaks(editContractData(sandbox, contractDataKey(addresses.vault, accountKey('draw', k), 'persistent'), () => i128(777n * UNIT)))
      const { code, doc } = await auditJson(file)
      expect(code).toBe(1)
      expect(brokenIds(doc)).toEqual([3])
      expect(byId(doc, 3).figures).toMatchObject({ sumOfDraws: '777.0000000', activeLiq: '0.0000000', difference: '+777.0000000' })
      expect(byId(doc, 3).offenders).toContainEqual(expect.objectContaining({ account: k, amount: '777.0000000' }))
    })

    it('4: the registry holds less USDC than its keepers staked', async () => {
      const held = await world.balance('USDC', addresses.registry)
      await breaks(setTokenBalance(sandbox, world.usdc.contract, addresses.registry, held - 10n * UNIT))
      const { code, doc } = await auditJson(file)
      expect(code).toBe(1)
      expect(brokenIds(doc)).toEqual([4])
      expect(byId(doc, 4).figures).toMatchObject({
        registryUsdcBalance: formatAmount(2n * stake - recovered - 10n * UNIT),
        sumOfStakes: formatAmount(2n * stake - recovered),
        difference: '-10.0000000',
      })
      expect(byId(doc, 4).offenders).toEqual([expect.objectContaining({ account: addresses.registry, amount: '-10.0000000' })])
    })

    it('11: total_profit is more than the events booked', async () => {
      await breaks(editInstance(sandbox, addresses.vault, { storage: { key: 'state', edit: (v) => withField(v, 'total_profit', addToI128(77n * UNIT)) } }))
      const { code, doc } = await auditJson(file)
      expect(code).toBe(1)
      expect(brokenIds(doc)).toEqual([11])
      const inEvents = booked + recovered - 500n * UNIT
      expect(byId(doc, 11).figures).toMatchObject({ totalProfit: formatAmount(inEvents + 77n * UNIT), bookedInEvents: formatAmount(inEvents), difference: '+77.0000000' })
      expect(byId(doc, 11).offenders).toEqual([expect.objectContaining({ account: addresses.vault, amount: '77.0000000' })])
    })

    it('11: the lock fields are not what the bookings locked', async () => {
      await breaks(editInstance(sandbox, addresses.vault, { storage: { key: 'state', edit: (v) => withField(v, 'locked_profit', addToI128(5n * UNIT)) } }))
      const { code, doc } = await auditJson(file)
      expect(code).toBe(1)
      expect(brokenIds(doc)).toEqual([11])
      expect(byId(doc, 11).offenders).toEqual([expect.objectContaining({ account: addresses.vault, amount: '5.0000000', note: expect.stringMatching(/the bookings, from the empty lock with profit_unlock_secs 3600, make/) as unknown as string })])
    })

    it('9: an outstanding draw above its keeper\'s draw_limit', async () => {
      const k = world.keepers[0]!
      await vault.draw(k, 100n * UNIT)
      try {
        await breaks(editContractData(sandbox, await keeperRecordKey(sandbox, addresses.registry, k.publicKey()), (v) => withField(v, 'draw_limit', () => i128(60n * UNIT))))
        const { code, doc } = await auditJson(file)
        expect(code).toBe(1)
        expect(brokenIds(doc)).toEqual([9])
        expect(byId(doc, 9).offenders).toEqual([expect.objectContaining({ account: k.publicKey(), amount: '40.0000000' })])
        await restore(sandbox, saved.pop()!)
      } finally {
        await vault.returnProceeds(k, 100n * UNIT, 40)
      }
    })

    it('10: the registry slashed more from a keeper than the vault recovered', async () => {
      const k = world.keepers[1]!
      await breaks(editContractData(sandbox, await keeperRecordKey(sandbox, addresses.registry, k.publicKey()), (v) => withField(v, 'total_slashed', addToI128(3n * UNIT))))
      const { code, doc } = await auditJson(file)
      expect(code).toBe(1)
      expect(brokenIds(doc)).toEqual([10])
      expect(byId(doc, 10).offenders).toEqual([expect.objectContaining({ account: k.publicKey(), amount: '-3.0000000' })])
    })

    it('12: pending_shares that no depositor requested', async () => {
      await breaks(editInstance(sandbox, addresses.vault, { storage: { key: 'state', edit: (v) => withField(v, 'pending_shares', addToI128(5n * UNIT)) } }))
      const { code, doc } = await auditJson(file)
      expect(code).toBe(1)
      expect(brokenIds(doc)).toEqual([12])
      expect(byId(doc, 12).figures).toMatchObject({ sumOfRequests: '10.0000000', pendingShares: '15.0000000', difference: '-5.0000000' })
      expect(byId(doc, 12).offenders).toEqual([expect.objectContaining({ account: addresses.vault, amount: '-5.0000000' })])
    })

    it('6: the vault code prices shares differently from src/core (rounds up)', async () => {
      const wasm = misquoteWasm()
      await uploadWasm(world.chain, world.admin, wasm)
      await breaks(editInstance(sandbox, addresses.vault, { wasmHash: hash(wasm) }))
      const { code, doc } = await auditJson(file)
      expect(code).toBe(1)
      expect(brokenIds(doc)).toEqual([6])
      const inv = byId(doc, 6)
      expect(inv.offenders.length).toBeGreaterThan(0)
      for (const o of inv.offenders) {
        expect(world.depositors.map((d) => d.publicKey())).toContain(o.account)
        expect(o).toMatchObject({ amount: '0.0000001', note: expect.stringMatching(/^vault says \d+\.\d{7}, the core says \d+\.\d{7}$/) as unknown as string })
      }
    })

    it('8: the vault points at another registry', async () => {
      const other = StrKey.encodeContract(Buffer.alloc(32, 9))
      await breaks(editInstance(sandbox, addresses.vault, { storage: { key: 'registry', edit: () => new Address(other).toScVal() } }))
      const { code, doc } = await auditJson(file)
      expect(code).toBe(1)
      expect(brokenIds(doc)).toEqual([8])
      expect(byId(doc, 8).offenders).toEqual([expect.objectContaining({ account: addresses.vault, note: `vault.get_registry is ${other}, expected ${addresses.registry}` })])
    })
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
