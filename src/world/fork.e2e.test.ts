/**
 * A lazy fork end to end: node A (manual) holds a world; node B starts with `--fork-url A` and
 * reads from A only the entries it needs. On B the oracle drops a collateral and the keeper's
 * lending-pool adapter liquidates the borrower through the vault; B's state moves, A's does not.
 * Then A goes away: B still serves what it holds and names A and the key for what it lacks.
 */
import { Keypair, xdr } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type ForkStatus, type Sandbox } from '../../sandbox/ts/launch.js'
import { balanceKey } from '../../test/audit/ledgerEdits.js'
import { createChain, invoke, type Chain } from '../chain/index.js'
import { sharePrice } from '../core/index.js'
import { lendingPoolAdapter } from '../keeper/adapters/blend/index.js'
import { openBorrowerSources } from '../keeper/adapters/blend/borrowerSources.js'
import { instanceKey, positionsKey, resDataKey } from '../keeper/adapters/blend/storage.js'
import { VaultContract } from '../keeper/clients/vault.js'
import { deployWorld, readPositions, type BlendPositions, type World } from './index.js'
import { DEFAULT_KEEPER_FEE_BPS } from './service.js'
import { i128s } from './scval.js'

interface RawEntries {
  entries?: { key: string; xdr: string; lastModifiedLedgerSeq: number; liveUntilLedgerSeq?: number }[]
  latestLedger: number
}

const accountKey = (account: string) => xdr.LedgerKey.account(new xdr.LedgerKeyAccount({ accountId: Keypair.fromPublicKey(account).xdrAccountId() }))
const b64 = (keys: xdr.LedgerKey[]) => keys.map((k) => k.toXdr('base64'))
const rawEntries = (node: Sandbox, keys: xdr.LedgerKey[]) => node.call<RawEntries>('getLedgerEntries', { keys: b64(keys) })
/**
 * Runs `f` while a ledger closes every `ms` on `node`: the adapter fast-forwards to the ledger
 * before the profitable one and waits for the last one in real time, as on a running network.
 */
async function whileClosing<T>(node: Sandbox, ms: number, f: () => Promise<T>): Promise<T> {
  let on = true
  const closing = (async () => {
    while (on) {
      await node.closeLedgers(1)
      await new Promise((r) => setTimeout(r, ms))
    }
  })()
  try {
    return await f()
  } finally {
    on = false
    await closing
  }
}
const xdrOf = (r: RawEntries, key: xdr.LedgerKey) => r.entries?.find((e) => e.key === key.toXdr('base64'))?.xdr

describe('a lazy fork (--fork-url) of a sandbox holding a world', () => {
  let a: Sandbox
  let b: Sandbox
  let world: World
  let chainB: Chain
  let keys: { positions: xdr.LedgerKey; vault: xdr.LedgerKey; vaultUsdc: xdr.LedgerKey; all: xdr.LedgerKey[] }
  let untouched: xdr.LedgerKey
  let aLatest: Awaited<ReturnType<Sandbox['server']['getLatestLedger']>>
  let aEntries: RawEntries
  let aUntouched: RawEntries
  let aPositions: BlendPositions

  beforeAll(async () => {
    // A closes a ledger per transaction and never on its own: its latest ledger is fixed after the deployment.
    a = await startSandbox({ manual: true, instant: true })
    world = await deployWorld(a, { seed: 41, borrowers: 1, keepers: 1, depositors: 1 })
    const pool = world.blend.pool
    const borrower = world.borrowers[0]!
    const vault = world.service!.vault
    const collateral = borrower.collateralAsset.contract
    keys = {
      positions: positionsKey(pool, borrower.address),
      vault: instanceKey(vault),
      vaultUsdc: balanceKey(world.usdc.contract, vault),
      all: [],
    }
    keys.all = [
      keys.positions,
      keys.vault,
      keys.vaultUsdc,
      resDataKey(pool, world.usdc.contract),
      resDataKey(pool, collateral),
      balanceKey(world.usdc.contract, pool),
      balanceKey(collateral, pool),
    ]
    untouched = accountKey(world.depositors[0]!.publicKey())
    aLatest = await a.server.getLatestLedger()
    aEntries = await rawEntries(a, keys.all)
    aUntouched = await rawEntries(a, [untouched])
    aPositions = await world.positions(borrower.address)
    expect(aEntries.entries).toHaveLength(keys.all.length)
    expect(aUntouched.entries).toHaveLength(1)

    // B closes a ledger per transaction as well, so the keeper's transactions apply at once.
    b = await startSandbox({ manual: true, instant: true, networkPassphrase: a.networkPassphrase, extraArgs: ['--fork-url', a.rpcUrl] })
    chainB = createChain({ rpcUrl: b.rpcUrl, networkPassphrase: b.networkPassphrase, friendbotUrl: b.friendbotUrl })
  })

  afterAll(async () => {
    await b?.stop()
    await a?.stop()
  })

  it("starts at A's latest ledger (same sequence, hash and protocol) with A as its upstream", async () => {
    const first = await b.server.getLatestLedger()
    expect({ sequence: first.sequence, id: first.id, protocolVersion: first.protocolVersion }).toEqual({
      sequence: aLatest.sequence,
      id: aLatest.id,
      protocolVersion: aLatest.protocolVersion,
    })
    const status = await b.call<ForkStatus>('sandbox_forkStatus')
    expect(status).toMatchObject({ url: a.rpcUrl, forkLedger: aLatest.sequence, errors: 0 })
  })

  it("liquidates the borrower on B with the keeper's adapter; A's entries and latest ledger stay as they were", async () => {
    const borrower = world.borrowers[0]!
    const asset = borrower.collateralAsset.contract
    const keeper = world.keepers[0]!
    const vault = new VaultContract(chainB, world.service!.vault)

    // The oracle's admin publishes every price again on B, the collateral 15 % lower (as world.setPrice does on A).
    const prices = world.blend.reserves.map((r) => (r === asset ? (world.price(r) * 85n) / 100n : world.price(r)))
    await invoke(chainB, world.admin, world.oracle, 'set_price_stable', [i128s(prices)])

    const silent = { info() {}, warn() {}, error() {}, debug() {} }
    // B has none of A's events: the keeper finds the borrower from its watch list (WATCH_ADDRESSES).
    const borrowerSources = await openBorrowerSources({ pool: world.blend.pool, watchAddresses: [borrower.address], log: silent })
    const adapter = lendingPoolAdapter({
      pool: world.blend.pool,
      usdc: world.usdc.contract,
      vaultContract: world.service!.vault,
      minProfit: 1.02,
      slippageBps: 300,
      primaryDexRouter: world.dex.primaryRouter,
      fallbackDexRouter: world.dex.fallbackRouter,
      reader: b.server,
      borrowerSources,
      fastForward: async (to) => {
        const latest = (await b.server.getLatestLedger()).sequence
        if (latest < to) await b.closeLedgers(to - latest)
      },
    })
    const task = (await adapter.getTasks(chainB)).find((t) => t.data.user === borrower.address)
    expect(task, 'the borrower is liquidatable on B').toBeDefined()
    expect(task!.health).toBeLessThan(1)

    const before = await vault.getState()
    const result = await whileClosing(b, 200, () => adapter.execute(chainB, keeper, task!, vault.bind(keeper)))
    expect(result.success, result.note).toBe(true)
    expect(result.profit).toBeGreaterThan(0n)

    // B: the position is liquidated and the vault booked the profit less the keeper's fee (the
    // world's 1,000 bps of the gross profit; share price up).
    const after = await vault.getState()
    const fee = (result.profit * BigInt(DEFAULT_KEEPER_FEE_BPS)) / 10_000n
    expect(result.reward ?? fee).toBe(fee)
    expect(after.totalUsdc - before.totalUsdc).toBe(result.profit - fee)
    expect(after.totalShares).toBe(before.totalShares)
    expect(sharePrice(after)).toBeGreaterThan(sharePrice(before))
    expect(after.activeLiq).toBe(0n)
    const onB = await readPositions(chainB, world.blend.pool, borrower.address)
    expect(onB.liabilities.get(0) ?? 0n).toBeLessThan(borrower.borrowed)
    const bEntries = await rawEntries(b, keys.all)
    for (const k of [keys.positions, keys.vault, keys.vaultUsdc]) {
      expect(xdrOf(bEntries, k)).toBeDefined()
      expect(xdrOf(bEntries, k)).not.toBe(xdrOf(aEntries, k))
    }

    // A: the same answers, byte for byte, at the same latest ledger.
    expect(await rawEntries(a, keys.all)).toEqual(aEntries)
    const aNow = await a.server.getLatestLedger()
    expect([aNow.sequence, aNow.id]).toEqual([aLatest.sequence, aLatest.id])
    const onA = await world.positions(borrower.address)
    expect(onA).toEqual(aPositions)
    expect(onA.liabilities.get(0)).toBeGreaterThan(onB.liabilities.get(0) ?? 0n)

    const status = await b.call<ForkStatus>('sandbox_forkStatus')
    expect(status.requests).toBeGreaterThan(0)
    expect(status.keysFetched).toBeGreaterThan(0)
    expect(status.errors).toBe(0)
  })

  it('fetches a key from A once: reading it again, or any key B holds, sends A nothing', async () => {
    const s0 = await b.call<ForkStatus>('sandbox_forkStatus')
    expect(await rawEntries(b, [untouched])).toMatchObject({ entries: aUntouched.entries })
    const s1 = await b.call<ForkStatus>('sandbox_forkStatus')
    expect(s1.requests).toBeGreaterThan(s0.requests)
    expect(s1.keysFetched).toBeGreaterThan(s0.keysFetched)

    expect(await rawEntries(b, [untouched])).toMatchObject({ entries: aUntouched.entries })
    await rawEntries(b, keys.all)
    const s2 = await b.call<ForkStatus>('sandbox_forkStatus')
    expect(s2.requests).toBe(s1.requests)
    expect(s2.keysFetched).toBe(s1.keysFetched)
    expect(s2.cacheHits).toBeGreaterThan(s1.cacheHits)
  })

  it('with A stopped: a key B never read is an error naming the key and A; what B holds is still served', async () => {
    const held = await rawEntries(b, [...keys.all, untouched])
    await a.stop()

    const stranger = Keypair.random().publicKey()
    const key = accountKey(stranger)
    const err = await rawEntries(b, [key]).then(
      () => undefined,
      (e: unknown) => e as Error,
    )
    expect(err, 'reading an unknown key with the upstream down fails').toBeInstanceOf(Error)
    expect(err!.message).toContain(a.rpcUrl)
    expect([key.toXdr('base64'), stranger].some((name) => err!.message.includes(name)), err!.message).toBe(true)

    // The node keeps serving: the entries it holds, a contract read over them, its ledger.
    expect((await rawEntries(b, [...keys.all, untouched])).entries).toEqual(held.entries)
    const positions = await readPositions(chainB, world.blend.pool, world.borrowers[0]!.address)
    expect(positions.liabilities.get(0) ?? 0n).toBeLessThan(world.borrowers[0]!.borrowed)
    expect((await b.server.getLatestLedger()).sequence).toBeGreaterThan(aLatest.sequence)
    expect((await b.call<ForkStatus>('sandbox_forkStatus')).errors).toBeGreaterThan(0)
  })
})
