/** "My position" against a deployment read from memory: earnings, return, history, refusals, a write. */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, fireEvent, render, screen, waitFor } from '@solidjs/testing-library'
import { Keypair, StrKey } from '@stellar/stellar-sdk'
import { nativeToScVal } from '@stellar/stellar-sdk'
import { addr, i128, struct, sym } from '../../../src/chain/scval.js'
import { scanEndCursor } from '../../../src/chain/events.js'
import type { Reads } from '../clients/chain.js'
import type { DashboardConfig } from '../config/schema.js'
import type { PreparedWrite, WriteDeps } from '../logic/writeFlow.js'
import { ConfigContext, type ConfigStore } from '../stores/config.js'
import { disconnect, setConnectedWallet } from '../stores/wallet.js'
import { PositionView } from './PositionView.js'

const U = 10_000_000n
const u32 = (v: number) => nativeToScVal(v, { type: 'u32' })
const u64 = (v: bigint) => nativeToScVal(v, { type: 'u64' })
const ME = Keypair.random().publicKey()
const VAULT = StrKey.encodeContract(Buffer.alloc(32, 1))
const HASH = 'ab'.repeat(32)
const SENT = 'cd'.repeat(32)

const send = vi.fn(async () => ({ hash: SENT, ledger: 555, returnValue: undefined, fee: 100n, resourceFee: 0n, feeCharged: 61n, attempts: 1 }))
const prepare = vi.fn(async (): Promise<PreparedWrite> => ({ tx: {} as PreparedWrite['tx'], fee: 100n, resourceFee: 0n, returnValue: i128(909_090_909n), simulatedAt: 9 }))
vi.mock('../logic/writeFlow.js', async (original) => ({
  ...(await original<typeof import('../logic/writeFlow.js')>()),
  walletWriteDeps: (): WriteDeps => ({ source: ME, prepare, send }),
}))

const config = {
  network: { rpcUrl: 'http://127.0.0.1:8000/rpc', networkPassphrase: 'Standalone Network ; February 2017' },
  contracts: { vault: VAULT, registry: VAULT, usdc: VAULT },
  keeperApis: [],
} as DashboardConfig

// 1,100 USDC for 1,000 shares; the account deposited 100 USDC for 90.9090909 shares at ledger 5.
const state = {
  totalUsdc: 1100n * U,
  totalShares: 1000n * U,
  totalProfit: 100n * U,
  activeLiq: 0n,
  lockedProfit: 0n,
  lockStart: 0n,
  lockEnd: 0n,
  pendingShares: 0n,
}
const vaultConfig = { depositCap: 5000n * U, withdrawCooldown: 60, maxDrawPerKeeper: 100n * U, keeperFeeBps: 1000, profitUnlockSecs: 3600 }
const depositor = { shares: 909_090_909n, costBasis: 100n * U, totalDeposited: 100n * U, totalWithdrawn: 0n, lastDepositTime: 1_005, withdrawRequest: 0n, raw: {} }
const rawEvents = [
  { id: '0002', ledger: 2, topic: [sym('registry')], value: struct({ registry: addr(VAULT) }), txHash: 'ee'.repeat(32) },
  { id: '0005', ledger: 5, topic: [sym('deposit'), addr(ME)], value: struct({ amount: i128(100n * U), dead_shares: i128(0n), shares: i128(909_090_909n) }), txHash: HASH },
].map((e) => ({ ...e, ledgerClosedAt: new Date((1_000 + e.ledger) * 1000).toISOString(), inSuccessfulContractCall: true }))

const server = {
  getHealth: async () => ({ status: 'healthy', latestLedger: 10, oldestLedger: 1, ledgerRetentionWindow: 100 }),
  getLatestLedger: async () => ({ id: '0', sequence: 10, protocolVersion: '23', closeTime: '1030' }),
  simulateTransaction: async () => ({
    id: '1',
    latestLedger: 10,
    events: [],
    _parsed: true,
    minResourceFee: '0',
    result: {
      auth: [],
      // get_state and get_config alike: the reader picks the fields it knows.
      retval: struct({
        active_liq: i128(0n),
        keeper_fee_bps: u32(1000),
        lock_end: u64(0n),
        lock_start: u64(0n),
        locked_profit: i128(0n),
        pending_shares: i128(0n),
        profit_unlock_secs: u64(3600n),
        total_profit: i128(state.totalProfit),
        total_shares: i128(state.totalShares),
        total_usdc: i128(state.totalUsdc),
      }),
    },
  }),
  getEvents: async (req: { cursor?: string }) => ({ events: req.cursor === undefined ? rawEvents : [], cursor: scanEndCursor(10), latestLedger: 10, oldestLedger: 1 }),
}

const reads = {
  chain: { server, networkPassphrase: config.network.networkPassphrase },
  contracts: config.contracts,
  vaultState: async () => state,
  vaultConfig: async () => vaultConfig,
  depositor: async () => depositor,
  vaultBalance: async () => 999_999_999n,
  usdcBalance: async () => 9_900n * U,
  latestLedger: async () => ({ sequence: 10, closeTime: 1_030 }),
} as unknown as Reads

const storeOf = (r: Reads): ConfigStore => ({ loaded: (() => undefined) as unknown as ConfigStore['loaded'], reload: () => {}, config: () => config, reads: () => r })
const store = storeOf(reads)

/**
 * The same vault with 24 USDC of profit booked 10 minutes before the latest ledger (close time
 * 1,030) and locking for an hour (20 USDC still locked: 1,080 free over 1,000 shares), and the
 * account asking to withdraw 50 shares.
 */
const unlocking = storeOf({
  ...reads,
  vaultState: async () => ({ ...state, lockedProfit: 24n * U, lockStart: 430n, lockEnd: 4_030n, pendingShares: 50n * U }),
  depositor: async () => ({ ...depositor, withdrawRequest: 50n * U }),
} as unknown as Reads)

function show(s: ConfigStore = store) {
  setConnectedWallet({ address: ME, kind: 'sandbox', label: 'Sandbox wallet (local test key)', sign: async (x) => x })
  render(() => (
    <ConfigContext.Provider value={s}>
      <PositionView />
    </ConfigContext.Provider>
  ))
}

afterEach(() => {
  cleanup()
  disconnect()
  send.mockClear()
  prepare.mockClear()
})

describe('PositionView', () => {
  it('shows earnings first, a one-stroop shortfall as rounding, the return and its period in words', async () => {
    show()
    await waitFor(() => expect(screen.getByTestId('position-earnings').textContent).toBe('0 USDC (rounding)'))
    const earnings = screen.getByTestId('position-earnings').closest('div')!
    expect(earnings.textContent).toContain('What your shares would pay now (99.9999999 USDC) minus what you put in net (100.0000000 deposited − 0.0000000 withdrawn')
    expect(earnings.textContent).toContain('-0.0000001 USDC, is the share math rounding')
    await waitFor(() => expect(screen.getByTestId('position-apy').textContent).toBe('0.00% cumulative'))
    expect(screen.getByTestId('position-apy').closest('div')!.textContent).toContain('Over 25 s since your deposit of 1970-01-01 00:16:45 UTC · ledger 5')
  })

  it('lists the account’s deposits with the transaction linked to the dashboard’s own page on the sandbox', async () => {
    show()
    const rows = await screen.findAllByTestId('history-row')
    expect(rows).toHaveLength(1)
    expect(rows[0]!.textContent).toContain('1970-01-01 00:16:45 UTC · ledger 5')
    expect(rows[0]!.textContent).toContain('Deposit')
    expect(rows[0]!.textContent).toContain('100.0000000')
    expect(rows[0]!.textContent).toContain('90.9090909')
    // every cell carries its label, which a phone shows above it (rows stack into cards there)
    expect([...rows[0]!.querySelectorAll('td')].map((td) => td.getAttribute('data-label'))).toEqual([
      'Ledger close time (UTC)',
      'Kind',
      'USDC paid in',
      'Shares minted',
      'Transaction',
    ])
    const link = screen.getByTestId('history-hash')
    expect(link.getAttribute('href')).toBe(`#/tx/${HASH}`)
    expect(link.getAttribute('title')).toBe(HASH)
    expect(link.textContent).toBe('ababab…ababab')
  })

  it('refuses a deposit over the wallet’s USDC or the cap in the preview, without asking to sign', async () => {
    show()
    await waitFor(() => expect(screen.getByTestId('cap-left').textContent).toBe('3,900.0000000'))
    await waitFor(() => expect(screen.getByTestId('position-wallet-usdc').textContent).toBe('9,900.0000000'))
    fireEvent.input(screen.getByTestId('deposit-amount'), { target: { value: '10000' } })
    expect(screen.getByTestId('deposit-refused').textContent).toBe(
      'You hold 9,900.00 USDC; this deposit needs 10,000.00. This deposit would take the vault over its deposit cap: it can take 3,900.00 USDC more.',
    )
    fireEvent.input(screen.getByTestId('deposit-amount'), { target: { value: '4000' } })
    expect(screen.getByTestId('deposit-preview').textContent).toBe('This deposit would take the vault over its deposit cap: it can take 3,900.00 USDC more.')
    const submit = screen.getByTestId('deposit-submit') as HTMLButtonElement
    expect(submit.disabled).toBe(true)
    submit.click()
    fireEvent.submit(submit.form!)
    await Promise.resolve()
    expect(prepare).not.toHaveBeenCalled()
    fireEvent.input(screen.getByTestId('withdraw-shares'), { target: { value: '100' } })
    expect(screen.getByTestId('withdraw-refused').textContent).toBe('You hold 90.9090909 shares; this withdrawal needs 100.00.')
    expect((screen.getByTestId('withdraw-submit') as HTMLButtonElement).disabled).toBe(true)
  })

  it('says under the field what an amount may hold, and refuses “1,000” in those words', async () => {
    show()
    await waitFor(() => expect(screen.getByTestId('cap-left').textContent).toBe('3,900.0000000'))
    expect(screen.getByTestId('deposit-hint').textContent).toBe('Digits and at most one “.” for the decimals (up to 7), no “,” or spaces: 1000 or 0.5.')
    fireEvent.input(screen.getByTestId('deposit-amount'), { target: { value: '1,000' } })
    expect(screen.getByTestId('deposit-preview').textContent).toBe('Type the amount without “,”: 1000 for a thousand, 1.5 for one and a half (not “1,000”).')
    screen.getByTestId('deposit-submit').click()
    expect((await screen.findByTestId('write-error')).textContent).toBe('Type the amount without “,”: 1000 for a thousand, 1.5 for one and a half (not “1,000”).')
    expect(prepare).not.toHaveBeenCalled()
  })

  it('prices the previews and the earnings on free assets while profit unlocks, and shows a pending withdrawal request', async () => {
    show(unlocking)
    await waitFor(() => expect(screen.getByTestId('position-withdraw-request').textContent).toBe('50.0000000 shares (worth 54.0000000 USDC now)'))
    expect(screen.getByTestId('position-withdraw-request').closest('div')!.textContent).toContain('Withdrawal requested')
    fireEvent.input(screen.getByTestId('deposit-amount'), { target: { value: '108' } })
    expect(screen.getByTestId('deposit-preview').textContent).toBe('You receive 100.0000000 shares')
    fireEvent.input(screen.getByTestId('withdraw-shares'), { target: { value: '10' } })
    expect(screen.getByTestId('withdraw-preview').textContent).toBe('You receive 10.8000000 USDC')
    // 90.9090909 shares at 1.08: 98.1818181 USDC, 1.8181819 less than the 100 put in.
    await waitFor(() => expect(screen.getByTestId('position-earnings').textContent).toBe('−1.8181819 USDC'))
  })

  it('shows no withdrawal request when there is none', async () => {
    show()
    await waitFor(() => expect(screen.getByTestId('cap-left').textContent).toBe('3,900.0000000'))
    expect(screen.queryByTestId('position-withdraw-request')).toBeNull()
  })

  it('after a deposit: the hash is linked, the field is cleared and focus rests on the status', async () => {
    show()
    await waitFor(() => expect(screen.getByTestId('cap-left').textContent).toBe('3,900.0000000'))
    const input = screen.getByTestId('deposit-amount') as HTMLInputElement
    fireEvent.input(input, { target: { value: '100' } })
    expect(screen.getByTestId('deposit-preview').textContent).toBe('You receive 90.9090909 shares')
    screen.getByTestId('deposit-submit').click()
    expect((await screen.findByTestId('write-fee')).textContent).toBe('up to 0.0000100 XLM')
    ;(await screen.findByTestId('write-confirm')).click()
    await waitFor(() => expect(screen.getByTestId('write-status').textContent).toBe(`Included in ledger 555 · transaction cdcdcd…cdcdcd`))
    expect(screen.getByTestId('write-fee-charged').textContent).toBe('Fee charged: 0.0000061 XLM')
    expect(screen.getByTestId('write-hash').getAttribute('href')).toBe(`#/tx/${SENT}`)
    expect(input.value).toBe('')
    expect(screen.getByTestId('deposit-preview').textContent).toBe('Enter an amount to see the shares it mints.')
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('write-status')))
    expect(send).toHaveBeenCalledTimes(1)
  })
})
