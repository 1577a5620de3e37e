import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Keypair, type rpc } from '@stellar/stellar-sdk'
import { afterEach, describe, expect, it } from 'vitest'
import { createChain } from '../../../chain/index.js'
import type { AdapterContext } from '../../sdk/index.js'
import { openBorrowerSources } from './borrowerSources.js'
import {
  contractEntry,
  encodeAuctionData,
  encodePositions,
  randomAccount,
  randomContract,
} from './fakeLedger.test-util.js'
import { createLendingPoolAdapter, lendingPoolAdapter, type LendingPoolAdapter } from './index.js'
import { ONE, world } from './fakePool.test-util.js'
import { PoolScanner } from './scan.js'
import { auctionKey, AuctionType, positionsKey } from './storage.js'

describe('pool scan', () => {
  it('finds borrowers from events, values them and flags HF < 1', async () => {
    const w = world()
    const scanner = new PoolScanner(w.pool)
    const r = await scanner.scan(w.reader, w.chain)
    const byUser = new Map(r.borrowers.map((b) => [b.user, b]))
    expect(byUser.get(w.healthy)!.liquidatable).toBe(false)
    expect(byUser.get(w.sick)!.liquidatable).toBe(true)
    expect(byUser.get(w.sick)!.healthFactor).toBeCloseTo(0.9375, 3)
  })

  it('a warm cycle is one wave: events, ledger entries (with watched auctions) and prices in parallel', async () => {
    const w = world()
    const scanner = new PoolScanner(w.pool)
    await scanner.scan(w.reader, w.chain)
    const calls = w.ledger.calls
    const r = await scanner.scan(w.reader, w.chain)
    expect(r.stats.waves).toBe(1)
    expect(w.ledger.calls - calls).toBe(1)
    expect(r.stats.simulateTransaction).toBe(2) // lastprice per reserve; decimals cached
  })

  it('reads an open auction and backstop auctions', async () => {
    const w = world()
    const key = auctionKey(w.pool, AuctionType.UserLiquidation, w.sick)
    w.ledger.set(key, contractEntry(key, encodeAuctionData({ bid: new Map([[w.usdc, 40n * ONE]]), lot: new Map([[w.xlm, 470n * ONE]]), block: 90 })))
    const bd = auctionKey(w.pool, AuctionType.BadDebt, w.backstop)
    w.ledger.set(bd, contractEntry(bd, encodeAuctionData({ bid: new Map([[w.usdc, 1n]]), lot: new Map([[randomContract(), 1n]]), block: 80 })))
    const scanner = new PoolScanner(w.pool)
    const first = await scanner.scan(w.reader, w.chain)
    expect(first.borrowers.find((b) => b.user === w.sick)!.auction?.block).toBe(90)
    expect(first.backstopAuctions.map((a) => a.type)).toEqual([AuctionType.BadDebt])
    const second = await scanner.scan(w.reader, w.chain)
    expect(second.borrowers.find((b) => b.user === w.sick)!.auction?.block).toBe(90)
    expect(second.backstopAuctions.map((a) => a.type)).toEqual([AuctionType.BadDebt])
  })

  it('keeps reading the auction of a user a partial fill lifted over HF 1, and the adapter keeps its task', async () => {
    const w = world()
    const key = auctionKey(w.pool, AuctionType.UserLiquidation, w.sick)
    w.ledger.set(key, contractEntry(key, encodeAuctionData({ bid: new Map([[w.usdc, 20n * ONE]]), lot: new Map([[w.xlm, 235n * ONE]]), block: 90 })))
    const a = lendingPoolAdapter({ pool: w.pool, usdc: w.usdc, minProfit: 1.02, slippageBps: 100, reader: w.reader })
    expect((await a.getTasks(w.chain)).map((t) => t.data.user)).toEqual([w.sick])
    // half of the debt repaid by the fill: 75 / 40 = HF 1.875, the other half of the auction still open
    w.setDebt(w.sick, 40n * ONE)
    const tasks = await a.getTasks(w.chain)
    expect(a.lastScan()!.borrowers.find((b) => b.user === w.sick)).toMatchObject({ liquidatable: false, auction: { block: 90 } })
    expect(tasks.map((t) => [t.data.user, t.data.hasAuction])).toEqual([[w.sick, true]])
    // a keeper starting now sees it too while the user is under AUCTION_WATCH_HF (75 / 65: 1.15)
    w.setDebt(w.sick, 65n * ONE)
    const fresh = lendingPoolAdapter({ pool: w.pool, usdc: w.usdc, minProfit: 1.02, slippageBps: 100, reader: w.reader })
    expect((await fresh.getTasks(w.chain)).map((t) => [t.data.user, t.data.hasAuction])).toEqual([[w.sick, true]])
    // once the auction is gone, the user is off the watch list
    w.ledger.delete(key)
    expect(await a.getTasks(w.chain)).toEqual([])
    expect(await a.getTasks(w.chain)).toEqual([])
  })

  it('the adapter emits one task per HF < 1 borrower with the priority map and a valid percent', async () => {
    const w = world()
    const a = lendingPoolAdapter({ pool: w.pool, usdc: w.usdc, minProfit: 1.02, slippageBps: 100, reader: w.reader })
    const tasks = await a.getTasks(w.chain)
    expect(tasks).toHaveLength(1)
    const t = tasks[0]!
    expect(t.data.user).toBe(w.sick)
    expect(t.priority).toBe(4) // HF 0.9375: in [0.8, 0.95)
    expect(t.data.percent).toBe(50)
    // half the debt, plus whatever interest accrued since the reserve's last update (seconds)
    expect(a.estimateCapital(t)).toBeGreaterThanOrEqual(40n * ONE)
    expect(a.estimateCapital(t)).toBeLessThan(40n * ONE + ONE / 1000n)
    const positions = await a.getPositions!(w.chain)
    expect(positions).toHaveLength(2)
  })
})

describe('borrowers besides events (WATCH_ADDRESSES, BORROWER_HINTS_FILE)', () => {
  const dirs: string[] = []
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
  })
  function hintsPath(): string {
    const d = mkdtempSync(join(tmpdir(), 'scan-hints-'))
    dirs.push(d)
    return join(d, 'hints.txt')
  }
  function logs() {
    const warns: string[] = []
    const infos: string[] = []
    return {
      warns,
      infos,
      log: {
        info: (_: object, msg?: string) => void infos.push(msg ?? ''),
        warn: (_: object, msg?: string) => void warns.push(msg ?? ''),
        error: () => {},
        debug: () => {},
      },
    }
  }

  /** The fake pool plus users whose borrow events are gone: `watched` and `hinted` owe, `lender` does not. */
  function quietWorld() {
    const w = world()
    const watched = randomAccount()
    const hinted = randomAccount()
    const lender = randomAccount()
    w.setDebt(watched, 90n * ONE) // 75 / 90: liquidatable
    w.setDebt(hinted, 10n * ONE)
    w.ledger.set(
      positionsKey(w.pool, lender),
      contractEntry(positionsKey(w.pool, lender), encodePositions({ collateral: new Map(), liabilities: new Map(), supply: new Map([[0, 500n * ONE]]) })),
    )
    return { ...w, watched, hinted, lender }
  }

  it('merges the watch list and the hints file with the event-discovered set; discovered borrowers are appended to the file', async () => {
    const w = quietWorld()
    const users = async (a: ReturnType<typeof lendingPoolAdapter>) => {
      await a.getTasks(w.chain)
      return new Set(a.lastScan()!.borrowers.map((b) => b.user))
    }
    // events alone: only the two borrowers whose events the node still holds
    expect(await users(lendingPoolAdapter({ pool: w.pool, usdc: w.usdc, minProfit: 1.02, slippageBps: 100, reader: w.reader }))).toEqual(new Set([w.healthy, w.sick]))

    const path = hintsPath()
    writeFileSync(path, `# seeded by hand\n${w.hinted}\nnot-an-address\n`)
    const l = logs()
    const borrowerSources = await openBorrowerSources({ pool: w.pool, watchAddresses: [w.watched, w.lender], hintsFile: path, log: l.log })
    expect(l.warns).toEqual([`${path}:3: "not-an-address" is not a Stellar account (G...) or contract (C...) address; line ignored`])
    expect(borrowerSources.initial).toEqual([w.watched, w.lender, w.hinted])
    const a = lendingPoolAdapter({ pool: w.pool, usdc: w.usdc, minProfit: 1.02, slippageBps: 100, reader: w.reader, borrowerSources })
    // the lender has no liabilities: skipped by the scan as before
    expect(await users(a)).toEqual(new Set([w.healthy, w.sick, w.watched, w.hinted]))
    const tasks = await a.getTasks(w.chain)
    expect(new Set(tasks.map((t) => t.data.user))).toEqual(new Set([w.sick, w.watched]))
    // the borrowers found in events are appended, once; hand-seeded lines stay as they were
    expect(readFileSync(path, 'utf8')).toBe(`# seeded by hand\n${w.hinted}\nnot-an-address\n${w.healthy}\n${w.sick}\n`)
    expect(l.infos).toContain('borrower hints appended')

    // a restart reads them back: nothing comes from events, every borrower is still scanned
    const silent = { ...w.reader, getEvents: async () => ({ events: [], cursor: '', latestLedger: 100, oldestLedger: 90 }) as unknown as rpc.Api.GetEventsResponse }
    const restarted = await openBorrowerSources({ pool: w.pool, hintsFile: path, log: logs().log })
    const b = lendingPoolAdapter({ pool: w.pool, usdc: w.usdc, minProfit: 1.02, slippageBps: 100, reader: silent, borrowerSources: restarted })
    expect(await users(b)).toEqual(new Set([w.healthy, w.sick, w.hinted]))
  })

  it('a borrower that has repaid is pruned from the hints file; one without any position stays', async () => {
    const w = quietWorld()
    const path = hintsPath()
    const unknown = randomAccount() // no positions entry at all: seeded ahead of a borrow, or archived
    writeFileSync(path, `# seeded\n${w.hinted}\n${w.lender}  # repaid\n${unknown}\n`)
    const l = logs()
    const borrowerSources = await openBorrowerSources({ pool: w.pool, hintsFile: path, log: l.log })
    const a = lendingPoolAdapter({ pool: w.pool, usdc: w.usdc, minProfit: 1.02, slippageBps: 100, reader: w.reader, borrowerSources })
    await a.getTasks(w.chain)
    expect(a.lastScan()!.repaid).toEqual([w.lender])
    expect(readFileSync(path, 'utf8')).toBe(`# seeded\n${w.hinted}\n${unknown}\n${w.healthy}\n${w.sick}\n`)

    // the hinted borrower repays in full: gone from the file at the next scan
    w.ledger.set(
      positionsKey(w.pool, w.hinted),
      contractEntry(positionsKey(w.pool, w.hinted), encodePositions({ collateral: new Map([[1, 10n * ONE]]), liabilities: new Map(), supply: new Map() })),
    )
    w.touch(w.hinted)
    await a.getTasks(w.chain)
    expect(readFileSync(path, 'utf8')).toBe(`# seeded\n${unknown}\n${w.healthy}\n${w.sick}\n`)
    expect(l.infos).toContain('borrower hints pruned')
  })

  it('the keeper factory takes them from the adapter context', async () => {
    const w = quietWorld()
    const path = hintsPath()
    writeFileSync(path, `${w.hinted}\n`)
    const l = logs()
    const chain = createChain({ rpcUrl: 'http://localhost:1', networkPassphrase: 'test', server: { ...w.reader, ...w.server } as never })
    const ctx: AdapterContext = {
      chain,
      keypair: Keypair.random(),
      logger: l.log,
      vaultContract: randomContract(),
      registryContract: randomContract(),
      usdcContract: w.usdc,
      lendingPool: w.pool,
      minProfit: 1.02,
      slippageBps: 100,
      primaryDexRouter: undefined,
      fallbackDexRouter: undefined,
      rebalanceVault: undefined,
      rebalanceDriftBps: 500,
      watchAddresses: [w.watched],
      borrowerHintsFile: path,
      historyApiUrl: undefined,
      emit: () => {},
    }
    const a = (await createLendingPoolAdapter(ctx)) as LendingPoolAdapter
    await a.getTasks(chain)
    expect(new Set(a.lastScan()!.borrowers.map((b) => b.user))).toEqual(new Set([w.healthy, w.sick, w.watched, w.hinted]))
    expect(readFileSync(path, 'utf8').trimEnd().split('\n')).toEqual([w.hinted, w.healthy, w.sick])
    expect(l.infos).toContain('borrower sources')

    await expect(createLendingPoolAdapter({ ...ctx, borrowerHintsFile: dirs[0]! })).rejects.toThrow(`BORROWER_HINTS_FILE ${dirs[0]} cannot be read`)
    await expect(createLendingPoolAdapter({ ...ctx, watchAddresses: ['GNOPE'] })).rejects.toThrow('WATCH_ADDRESSES: not a Stellar account or contract address: GNOPE')
  })
})
