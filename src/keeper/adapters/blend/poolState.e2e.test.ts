/**
 * The incremental pool state (poolState.ts) against the truth, end to end on the sandbox with
 * the real Blend v2 WASMs: after every ledger, the positions a long-lived PoolScanner keeps from
 * events equal what a full read of the pool finds.
 *
 * A plan drawn by fast-check from a fixed seed drives LEDGERS ledgers of random activity over
 * BORROWERS borrowers and two collateral assets: supply and withdraw collateral, borrow, repay
 * (part or all), supply and withdraw outside collateral, oracle price moves up and down,
 * liquidation auctions opened on under-water borrowers, fills of open auctions (part or whole) by
 * two liquidators that repay the bid or keep it as debt and withdraw the lot or keep it, and now
 * and then a jump of a few hundred empty ledgers so that auctions mature (a late fill leaves bad
 * debt to the backstop). A ledger's transactions are sent together and applied by one manual
 * close; whatever the pool refuses is skipped and counted.
 *
 * After every close the long-lived scanner (no audit due) and a cold one (a full read) scan at
 * one clock and must agree on every borrower (positions, collateral and liability bases, health
 * factor, liquidatability, auction), on the positions of every tracked account, and on the
 * backstop's positions and auctions. The long-lived scanner must read no more positions than the
 * ledger's transactions name plus the users it watches (liquidatable, under AUCTION_WATCH_HF or
 * with an auction at its last scan: their entries ride along in its first wave), and never fall
 * back to a full read after its first scan.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../../../sandbox/ts/launch.js'
import { sleep } from '../../../../test/until.js'
import { addr, ContractError, invoke, TransactionFailedError, u32 } from '../../../chain/index.js'
import { mintAll } from '../../../world/assets.js'
import { REQUEST, blendRequest, deployWorld, poolSubmit, type World } from '../../../world/index.js'
import { vec } from '../../../world/scval.js'
import { chooseLiquidationPercent } from './liquidationPercent.js'
import { loadAuction } from './loadPool.js'
import { AUCTION_WATCH_HF, PoolScanner, type BorrowerView, type ScanResult } from './scan.js'
import { repayAmount } from './requests.js'
import { AuctionType, emptyPositions } from './storage.js'

const UNIT = 10_000_000n
const SCALAR_12 = 10n ** 12n
const LEDGERS = 60
const BORROWERS = 24
const PLAN_SEED = 20_251_128
/** "Everything" for a withdrawal: the pool pays out at most what the account holds. */
const ALL = 10n ** 15n

const KINDS = ['supplyCollateral', 'withdrawCollateral', 'borrow', 'repay', 'supply', 'withdraw', 'price', 'liquidate', 'fill', 'jump'] as const
type Kind = (typeof KINDS)[number]
const WEIGHTS: Record<Kind, number> = { supplyCollateral: 3, withdrawCollateral: 2, borrow: 3, repay: 3, supply: 2, withdraw: 2, price: 3, liquidate: 4, fill: 4, jump: 1 }
interface Op {
  kind: Kind
  who: number
  asset: number
  /** 1..100: the size of the operation, its direction for a price move. */
  size: number
}
const opArb: fc.Arbitrary<Op> = fc.record({
  kind: fc.oneof(...KINDS.map((k) => ({ arbitrary: fc.constant(k), weight: WEIGHTS[k] }))),
  who: fc.nat(1_000),
  asset: fc.nat(1_000),
  size: fc.integer({ min: 1, max: 100 }),
})
const plan = fc.sample(fc.array(fc.array(opArb, { minLength: 2, maxLength: 7 }), { minLength: LEDGERS, maxLength: LEDGERS }), { seed: PLAN_SEED, numRuns: 1 })[0]!

/** One transaction of a ledger: who sends it, the accounts its events name, and the call. */
interface Tx {
  kind: Kind
  actor: string
  named: string[]
  send: () => Promise<unknown>
}

let sandbox: Sandbox
let world: World
let tracked: string[]
const clock = Date.now()

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, manual: true, instant: true })
  world = await deployWorld(sandbox, { seed: 71, borrowers: BORROWERS, keepers: 3, service: false, keeperUsdc: 2_000_000n * UNIT })
  // Every borrower holds both collaterals and spare USDC (interest, full repayments).
  await mintAll(
    world.chain,
    world.issuer,
    world.borrowers.flatMap((b) => [
      { asset: world.usdc, to: b.address, amount: 20_000n * UNIT },
      ...world.collaterals.map((c) => ({ asset: c, to: b.address, amount: (10_000n * UNIT * UNIT) / world.price(c.contract) })),
    ]),
  )
  // The liquidators' own collateral: a fill may leave them the bid as debt.
  for (const k of world.keepers.slice(0, 2)) await poolSubmit(world.chain, k, world.blend.pool, [blendRequest(REQUEST.supplyCollateral, world.usdc.contract, 500_000n * UNIT)])
  tracked = [...world.borrowers.map((b) => b.address), ...world.keepers.map((k) => k.publicKey()), world.lender.publicKey()]
  // From here on every ledger is closed by the test; results are polled for often.
  world.chain.retry = { ...world.chain.retry, pollIntervalMs: 50 }
  await sandbox.call('sandbox_setInstant', { enabled: false })
}, 300_000)

afterAll(async () => {
  await sandbox?.stop()
})

const pct = (x: bigint, p: number) => (x * BigInt(p)) / 100n

/** The transaction `op` stands for in the state `ref` shows, or why there is none. */
function transaction(op: Op, ref: ScanResult): Tx | string {
  const pool = world.blend.pool
  const reserves = world.blend.reserves
  const rate = (asset: string, which: 'b_rate' | 'd_rate') => ref.valuation.reserves.get(asset)!.data[which]
  const borrower = world.borrowers[op.who % world.borrowers.length]!
  const user = borrower.address
  const pos = ref.snapshot.positions.get(user) ?? emptyPositions()
  const collateral = world.collaterals[op.asset % 2]!
  const submit = (type: number, asset: string, amount: bigint): Tx => ({
    kind: op.kind,
    actor: user,
    named: [user],
    send: () => poolSubmit(world.chain, borrower.keypair, pool, [blendRequest(type, asset, amount)]),
  })
  /** One of the user's reserves in `m` (index -> asset), or undefined. */
  const held = (m: Map<number, bigint>) => {
    const keys = [...m.keys()]
    return keys.length === 0 ? undefined : keys[op.asset % keys.length]!
  }
  switch (op.kind) {
    case 'supplyCollateral':
      return submit(REQUEST.supplyCollateral, collateral.contract, (BigInt(op.size) * 40n * UNIT * UNIT) / world.price(collateral.contract))
    case 'withdrawCollateral': {
      const i = held(pos.collateral)
      if (i === undefined) return 'no collateral'
      return submit(REQUEST.withdrawCollateral, reserves[i]!, (pos.collateral.get(i)! * rate(reserves[i]!, 'b_rate') * BigInt(op.size)) / (400n * SCALAR_12))
    }
    case 'borrow':
      return submit(REQUEST.borrow, world.usdc.contract, BigInt(op.size) * 20n * UNIT)
    case 'repay': {
      const d = pos.liabilities.get(0)
      if (d === undefined) return 'no debt'
      return submit(REQUEST.repay, world.usdc.contract, repayAmount(op.size > 60 ? d : pct(d, op.size), rate(world.usdc.contract, 'd_rate')))
    }
    case 'supply': {
      const asset = reserves[op.asset % reserves.length]!
      return submit(REQUEST.supply, asset, (BigInt(op.size) * 20n * UNIT * UNIT) / world.price(asset))
    }
    case 'withdraw': {
      // From a borrower that holds a supply (few do).
      const holders = world.borrowers.filter((b) => (ref.snapshot.positions.get(b.address)?.supply.size ?? 0) > 0)
      const h = holders[op.who % Math.max(1, holders.length)]
      if (h === undefined) return 'no supply'
      const supply = ref.snapshot.positions.get(h.address)!.supply
      const i = [...supply.keys()][op.asset % supply.size]!
      const amount = op.size > 60 ? ALL : (supply.get(i)! * rate(reserves[i]!, 'b_rate') * BigInt(op.size)) / (100n * SCALAR_12)
      return { kind: op.kind, actor: h.address, named: [h.address], send: () => poolSubmit(world.chain, h.keypair, pool, [blendRequest(REQUEST.withdraw, reserves[i]!, amount)]) }
    }
    case 'price': {
      // 80 % to 110 % of the current price, kept within 40 % to 130 % of the initial one.
      const initial = BigInt(world.addresses.assets.collateral[op.asset % 2]!.price)
      const next = pct(world.price(collateral.contract), 80 + (op.size % 31))
      const price = next < pct(initial, 40) ? pct(initial, 40) : next > pct(initial, 130) ? pct(initial, 130) : next
      return { kind: op.kind, actor: world.admin.publicKey(), named: [], send: () => world.setPrice(collateral.contract, price) }
    }
    case 'liquidate': {
      const open = ref.borrowers.filter((b) => b.liquidatable && b.auction === undefined)
      const b = open[op.who % Math.max(1, open.length)]
      if (b === undefined) return 'nobody liquidatable'
      const percent = chooseLiquidationPercent(ref.valuation, b.positions) ?? 100
      const list = (m: Map<number, bigint>) => vec([...m.keys()].map((i) => addr(reserves[i]!)))
      const args = [u32(AuctionType.UserLiquidation), addr(b.user), list(b.positions.liabilities), list(b.positions.collateral), u32(percent)]
      const auctioneer = world.keepers[2]!
      return { kind: op.kind, actor: auctioneer.publicKey(), named: [b.user], send: () => invoke(world.chain, auctioneer, pool, 'new_auction', args) }
    }
    case 'fill': {
      const open = ref.borrowers.filter((b) => b.auction !== undefined)
      const b = open[op.who % Math.max(1, open.length)]
      if (b === undefined) return 'no open auction'
      const filler = world.keepers[op.asset % 2]!
      const percent = op.size > 40 ? 100 : 50
      const requests = [blendRequest(REQUEST.fillUserLiquidationAuction, b.user, BigInt(percent))]
      // Half the fills repay the bid at once, half keep it as the liquidator's debt; half withdraw
      // the lot, half keep it as collateral.
      if (op.size % 4 < 2) for (const [asset, d] of b.auction!.bid) requests.push(blendRequest(REQUEST.repay, asset, repayAmount(pct(d, percent) + 1n, rate(asset, 'd_rate'))))
      if (op.size % 2 === 0) for (const asset of b.auction!.lot.keys()) requests.push(blendRequest(REQUEST.withdrawCollateral, asset, ALL))
      return { kind: op.kind, actor: filler.publicKey(), named: [b.user, filler.publicKey()], send: () => poolSubmit(world.chain, filler, pool, requests) }
    }
    case 'jump':
      return 'handled by the ledger'
  }
}

const counts = new Map<string, number>()
const count = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1)

function reason(err: unknown): string {
  if (err instanceof ContractError) return `#${err.code}`
  if (err instanceof TransactionFailedError) return 'failed on apply'
  return err instanceof Error ? err.name : String(err)
}

/** Sends a ledger's transactions together; returns once each is queued or refused, and closes. */
async function runLedger(txs: Tx[], jump: number): Promise<void> {
  let settled = 0
  const done = txs.map((tx) =>
    tx.send().then(
      () => count(`${tx.kind} ok`),
      (err: unknown) => count(`${tx.kind} refused ${reason(err)}`),
    ).finally(() => (settled += 1)),
  )
  for (const started = Date.now(); ; await sleep(20)) {
    const { pending } = await sandbox.call<{ pending: unknown[] }>('sandbox_pending')
    if (pending.length + settled >= txs.length) break
    if (Date.now() - started > 30_000) throw new Error('transactions neither queued nor refused after 30 s')
  }
  await sandbox.closeLedgers(1)
  if (jump > 0) await sandbox.closeLedgers(jump)
  const { pending } = await sandbox.call<{ pending: unknown[] }>('sandbox_pending')
  expect(pending, 'every transaction sent fits in one ledger').toEqual([])
  await Promise.all(done)
}

const byUser = (r: ScanResult) => new Map(r.borrowers.map((b) => [b.user, b]))
/** Whether every scan must read this borrower's auction (so both scans hold it). */
const auctionRead = (b: BorrowerView) => b.liquidatable || b.healthFactor < AUCTION_WATCH_HF

/** The incremental scan must be the full one, borrower by borrower. */
async function expectSame(at: string, inc: ScanResult, full: ScanResult): Promise<void> {
  const incs = byUser(inc)
  const fulls = byUser(full)
  expect([...incs.keys()].sort(), `${at}: borrowers with liabilities`).toEqual([...fulls.keys()].sort())
  for (const [user, f] of fulls) {
    const i = incs.get(user)!
    const what = `${at}, borrower ${user}`
    expect(i.positions, `${what}: positions`).toEqual(f.positions)
    expect(i.data, `${what}: collateral and liability bases`).toEqual(f.data)
    expect(i.healthFactor, `${what}: health factor`).toBe(f.healthFactor)
    expect(i.liquidatable, `${what}: liquidatable`).toBe(f.liquidatable)
    if (auctionRead(f)) expect(i.auction, `${what}: auction`).toEqual(f.auction)
    // Above the watch line the incremental scan may still know an auction: never a stale one.
    else if (i.auction !== undefined) expect(i.auction, `${what}: watched auction`).toEqual(await loadAuction(sandbox.server, world.blend.pool, AuctionType.UserLiquidation, user))
  }
  // Accounts without liabilities too (lenders, liquidators holding a lot).
  for (const user of tracked) {
    expect(inc.snapshot.positions.get(user) ?? emptyPositions(), `${at}, account ${user}: positions`).toEqual(full.snapshot.positions.get(user) ?? emptyPositions())
  }
  expect(inc.backstopPositions, `${at}: backstop positions`).toEqual(full.backstopPositions)
  expect(inc.backstopAuctions, `${at}: backstop auctions`).toEqual(full.backstopAuctions)
}

describe('incremental pool state equals a full read after every ledger (sandbox, real Blend v2)', () => {
  it(`${LEDGERS} ledgers of random pool activity over ${BORROWERS} borrowers`, { timeout: 300_000 }, async () => {
    const incremental = new PoolScanner(world.blend.pool, { now: () => clock, fullReadEveryMs: 3_600_000 })
    incremental.addBorrowers(tracked)
    const fullScan = async () => {
      const cold = new PoolScanner(world.blend.pool, { now: () => clock })
      cold.addBorrowers(tracked)
      return cold.scan(sandbox.server, world.chain)
    }
    const first = await incremental.scan(sandbox.server, world.chain)
    expect(first.fullRead?.reason).toBe('cold')
    let watched = first.borrowers.filter((b) => auctionRead(b) || b.auction !== undefined).map((b) => b.user)
    let ref = await fullScan()
    await expectSame('after deployment', first, ref)
    const started = performance.now()
    let read = 0
    /** What the reads are bounded by: users named by transactions or watched, summed over ledgers. */
    let bound = 0
    let sent = 0
    let opened = 0

    for (const [n, ops] of plan.entries()) {
      const busy = new Set<string>()
      const txs: Tx[] = []
      let jump = 0
      for (const op of ops) {
        if (op.kind === 'jump') {
          jump = 100 + op.size * 2
          count('jump')
          continue
        }
        const tx = transaction(op, ref)
        if (typeof tx === 'string') count(`${op.kind} skipped: ${tx}`)
        else if (busy.has(tx.actor)) count(`${op.kind} skipped: sender busy`)
        else {
          busy.add(tx.actor)
          txs.push(tx)
        }
      }
      sent += txs.length
      await runLedger(txs, jump)
      const [inc, full] = await Promise.all([incremental.scan(sandbox.server, world.chain), fullScan()])
      const at = `ledger ${n + 1} (${inc.snapshot.latestLedger}: ${txs.map((t) => t.kind).join(', ') || 'no transactions'})`
      await expectSame(at, inc, full)
      expect(inc.fullRead, `${at}: no full read after the first scan`).toBeUndefined()
      const named = new Set([...txs.flatMap((t) => t.named), ...watched])
      expect(inc.positionsRead, `${at}: positions read, named by the ledger's transactions or watched: ${named.size}`).toBeLessThanOrEqual(named.size)
      expect(full.fullRead?.reason).toBe('cold')
      read += inc.positionsRead
      bound += named.size
      watched = inc.borrowers.filter((b) => auctionRead(b) || b.auction !== undefined).map((b) => b.user)
      opened += full.borrowers.filter((b) => b.auction !== undefined).length
      ref = full
    }

    const ok = [...counts].filter(([k]) => k.endsWith(' ok')).reduce((s, [, v]) => s + v, 0)
    console.log(
      `poolState e2e: ${LEDGERS} ledgers, ${tracked.length} tracked accounts, ${ok} of ${sent} transactions sent applied, ` +
        `${read} positions read incrementally (named or watched: ${bound}; a full read per ledger: ${LEDGERS * tracked.length}), ` +
        `${opened} borrower-ledgers with an open auction, backstop liabilities ${[...ref.backstopPositions.liabilities.values()].join('/') || 'none'}, ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s\n  ${[...counts].sort().map(([k, v]) => `${k}: ${v}`).join('\n  ')}`,
    )
    // The plan must really exercise the pool, liquidations included.
    for (const kind of ['supplyCollateral', 'borrow', 'repay', 'supply', 'withdraw', 'price', 'liquidate', 'fill'] as const) {
      expect(counts.get(`${kind} ok`) ?? 0, `${kind} operations applied`).toBeGreaterThan(0)
    }
    expect(ok).toBeGreaterThan(LEDGERS * 1.5)
    expect(read).toBeLessThanOrEqual(bound)
    expect(bound).toBeLessThan(LEDGERS * tracked.length)
  })
})
