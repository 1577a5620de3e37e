/**
 * The records' decoders on values as `scValToNative` returns them from the contracts' structs,
 * and the paged keeper read.
 */
import { Keypair, StrKey, scValToNative, xdr } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { lockedProfit } from '../core/index.js'
import { ContractError } from './errors.js'
import { KEEPER_PAGE_LIMIT, contractErrorMessage, readKeeperPages, toDepositorInfo, toKeeperInfo, toRegistryConfig, toVaultConfig, toVaultState } from './records/index.js'
import { addr, bool, i128, str, struct, u32, u64 } from './scval.js'

const native = (v: xdr.ScVal): unknown => scValToNative(v)
const USDC = StrKey.encodeContract(Buffer.alloc(32, 3))

describe('records', () => {
  it('VaultState with the profit lock and the pending withdrawals', () => {
    const v = struct({
      total_usdc: i128(1_000n),
      total_shares: i128(900n),
      total_profit: i128(50n),
      active_liq: i128(10n),
      locked_profit: i128(40n),
      lock_start: u64(1_700_000_000n),
      lock_end: u64(1_700_003_600n),
      pending_shares: i128(7n),
    })
    expect(toVaultState(native(v))).toEqual({
      totalUsdc: 1_000n,
      totalShares: 900n,
      totalProfit: 50n,
      activeLiq: 10n,
      lockedProfit: 40n,
      lockStart: 1_700_000_000n,
      lockEnd: 1_700_003_600n,
      pendingShares: 7n,
    })
    // It is src/core's ProfitLock as it is.
    expect(lockedProfit(toVaultState(native(v)), 1_700_001_800n)).toBe(20n)
    // A record without the new fields (an older vault) reads them as 0.
    expect(toVaultState({ total_usdc: 5n })).toMatchObject({ totalUsdc: 5n, lockedProfit: 0n, lockStart: 0n, lockEnd: 0n, pendingShares: 0n })
  })

  it('VaultConfig with the keeper fee and the unlock period', () => {
    const v = struct({
      deposit_cap: i128(100n),
      withdraw_cooldown: u64(3_600n),
      max_draw_per_keeper: i128(10n),
      keeper_fee_bps: u32(1_000),
      profit_unlock_secs: u64(3_600n),
    })
    expect(toVaultConfig(native(v))).toEqual({ depositCap: 100n, withdrawCooldown: 3_600, maxDrawPerKeeper: 10n, keeperFeeBps: 1_000, profitUnlockSecs: 3_600 })
  })

  it('DepositorInfo with the withdraw request', () => {
    const v = struct({
      shares: i128(100n),
      cost_basis: i128(90n),
      total_deposited: i128(90n),
      total_withdrawn: i128(0n),
      last_deposit_time: u64(12n),
      withdraw_request: i128(60n),
    })
    expect(toDepositorInfo(native(v))).toMatchObject({ shares: 100n, costBasis: 90n, totalDeposited: 90n, totalWithdrawn: 0n, lastDepositTime: 12, withdrawRequest: 60n })
  })

  it('KeeperInfo with approved and draw_limit, RegistryConfig with the executor code', () => {
    const operator = Keypair.random().publicKey()
    const k = struct({
      operator: addr(operator),
      name: str('k'),
      stake: i128(1_000n),
      total_executions: u64(2n),
      successful_fills: u64(1n),
      total_profit: i128(5n),
      avg_response_time_ms: u64(300n),
      has_active_draw: bool(true),
      draw_amount: i128(800n),
      draw_timestamp: u64(99n),
      registered_at: u64(1n),
      slashed: bool(false),
      slash_count: u32(0),
      total_slashed: i128(0n),
      approved: bool(true),
      draw_limit: i128(900n),
    })
    expect(toKeeperInfo(native(k))).toEqual({
      operator,
      name: 'k',
      stake: 1_000n,
      totalExecutions: 2,
      successfulFills: 1,
      totalProfit: 5n,
      avgResponseTimeMs: 300,
      hasActiveDraw: true,
      drawAmount: 800n,
      drawTimestamp: 99,
      registeredAt: 1,
      slashed: false,
      slashCount: 0,
      totalSlashed: 0n,
      approved: true,
      drawLimit: 900n,
    })
    const hash = Buffer.alloc(32, 0xab)
    const c = struct({ min_stake: i128(1_000n), slash_timeout: u64(3_600n), slash_rate_bps: u32(1_000), usdc_token: addr(USDC), executor_wasm: xdr.ScVal.scvBytes(hash) })
    expect(toRegistryConfig(native(c))).toEqual({ minStake: 1_000n, slashTimeout: 3_600, slashRateBps: 1_000, usdcToken: USDC, executorWasm: 'ab'.repeat(32) })
  })

  it('the new error codes in words', () => {
    expect(contractErrorMessage(120)).toMatch(/\(InvalidKeeperFee, #120\)$/)
    expect(contractErrorMessage(124)).toMatch(/\(WithdrawalPending, #124\)$/)
    expect(contractErrorMessage(216)).toMatch(/add bond first\. \(BondTooSmall, #216\)$/)
    expect(contractErrorMessage(218)).toMatch(/\(InvalidPageSize, #218\)$/)
  })
})

describe('readKeeperPages', () => {
  /** A registry of `n` keepers answering get_keepers(start, limit) as the contract does. */
  function registry(n: number) {
    const keepers = Array.from({ length: n }, (_, i) => ({ operator: `K${i}` }))
    const calls: string[] = []
    return {
      keepers,
      calls,
      count: async () => {
        calls.push('count')
        return keepers.length
      },
      page: async (start: number, limit: number) => {
        calls.push(`page ${start}`)
        if (limit === 0 || limit > KEEPER_PAGE_LIMIT) throw new ContractError(218)
        if (start > keepers.length) throw new ContractError(217)
        return keepers.slice(start, start + limit)
      },
    }
  }

  it('reads the pages keeper_count covers, and one more only when the last is full', async () => {
    const r = registry(450)
    expect(await readKeeperPages(r.page, { count: r.count })).toEqual(r.keepers)
    expect(r.calls).toEqual(['count', 'page 0', 'page 200', 'page 400'])

    const full = registry(400)
    expect(await readKeeperPages(full.page, { count: full.count })).toHaveLength(400)
    expect(full.calls.slice(-1)).toEqual(['page 400'])

    const none = registry(0)
    expect(await readKeeperPages(none.page, { count: none.count })).toEqual([])
    expect(none.calls).toEqual(['count'])
  })

  it('without a count, reads page after page until a short one', async () => {
    const r = registry(200)
    expect(await readKeeperPages(r.page)).toHaveLength(200)
    expect(r.calls).toEqual(['page 0', 'page 200'])
    const empty = registry(0)
    expect(await readKeeperPages(empty.page)).toEqual([])
    expect(empty.calls).toEqual(['page 0'])
  })

  it('keepers registered after the count are read on; a list that shrank ends at PageOutOfRange', async () => {
    const grew = registry(200)
    const count = async () => {
      const n = await grew.count()
      for (let i = 0; i < 5; i++) grew.keepers.push({ operator: `new${i}` })
      return n
    }
    expect(await readKeeperPages(grew.page, { count })).toHaveLength(205)

    const shrank = registry(401)
    const count2 = async () => {
      const n = await shrank.count()
      shrank.keepers.splice(350)
      return n
    }
    expect(await readKeeperPages(shrank.page, { count: count2 })).toHaveLength(350)
  })

  it('keeps a keeper read twice (moved into a freed slot between pages) once, and passes other errors on', async () => {
    // Page 200 was read first; then K3 deregistered and the last keeper (K200) moved into slot 3.
    const first = Array.from({ length: KEEPER_PAGE_LIMIT }, (_, i) => ({ operator: i === 3 ? 'K200' : `K${i}` }))
    const page = async (start: number) => (start === 0 ? first : [{ operator: 'K200' }])
    const list = await readKeeperPages(page, { count: async () => 201 })
    expect(list).toHaveLength(200)
    expect(list.filter((k) => k.operator === 'K200')).toHaveLength(1)

    const failing = async () => {
      throw new ContractError(218)
    }
    await expect(readKeeperPages(failing)).rejects.toMatchObject({ code: 218 })
    // PageOutOfRange wrapped as a cause (the auditor's ChainReadError) is recognized too.
    const wrapped = async (start: number) => {
      if (start === 0) return Array.from({ length: KEEPER_PAGE_LIMIT }, (_, i) => ({ operator: `W${i}` }))
      throw new Error('reading registry.get_keepers failed', { cause: new ContractError(217) })
    }
    expect(await readKeeperPages(wrapped)).toHaveLength(KEEPER_PAGE_LIMIT)
  })
})
