import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, fireEvent, render, screen, waitFor } from '@solidjs/testing-library'
import { Operation, xdr } from '@stellar/stellar-sdk'
import { ContractError } from '../../../src/chain/errors.js'
import { i128 } from '../../../src/chain/scval.js'
import { formatAmount } from '../logic/amounts.js'
import { returnedI128, type PreparedWrite, type WriteDeps } from '../logic/writeFlow.js'
import { writes } from '../stores/wallet.js'
import { WriteAction } from './WriteAction.js'

const op = () => Operation.invokeContractFunction({ contract: 'CBYYP64QJSE3B6CB6IEL77DJZZWF435EVINT7R2QWFD7ISJQ5CLPTB5W', function: 'deposit', args: [] })
const prepared = (ret: xdr.ScVal): PreparedWrite => ({ tx: {} as PreparedWrite['tx'], fee: 123_456n, resourceFee: 123_356n, returnValue: ret, simulatedAt: 9 })

// happy-dom submits a form on a button's click(), not on a dispatched click event.
const click = (el: HTMLElement) => el.click()

function setup(deps: WriteDeps, onDone = vi.fn()) {
  render(() => (
    <WriteAction name="deposit" label="Deposit" submitTestId="deposit-submit" build={op} effect={(r) => `mints ${formatAmount(returnedI128(r))} shares`} onDone={onDone} deps={deps}>
      <label>
        Deposit amount (USDC)
        <input data-testid="deposit-amount" />
      </label>
    </WriteAction>
  ))
  return onDone
}

afterEach(cleanup)

describe('WriteAction', () => {
  it('shows a contract error in words, in an alert', async () => {
    const send = vi.fn()
    setup({ source: 'G', prepare: () => Promise.reject(new ContractError(107)), send })
    click(screen.getByTestId('deposit-submit'))
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toBe('This deposit would take the vault over its deposit cap. (DepositCapExceeded, #107)')
    expect(alert.getAttribute('data-testid')).toBe('write-error')
    expect(screen.queryByTestId('write-confirm')).toBeNull()
    expect(send).not.toHaveBeenCalled()
  })

  it('simulates, shows fee and effect, sends only after Confirm, reports the ledger', async () => {
    const hash = 'ab'.repeat(32)
    const send = vi.fn(async () => ({ hash, ledger: 321, returnValue: undefined, fee: 123_456n, resourceFee: 0n, feeCharged: 78_703n, attempts: 1 }))
    const before = writes()
    const onDone = setup({ source: 'G', prepare: async () => prepared(i128(999_999_000n)), send })
    click(screen.getByTestId('deposit-submit'))
    const confirm = await screen.findByTestId('write-confirm')
    // the quote is the fee's ceiling, and says so
    expect(screen.getByTestId('write-fee').textContent).toBe('up to 0.0123456 XLM')
    expect(screen.getByText('Network fee (maximum)')).toBeTruthy()
    expect(screen.getByTestId('write-fee-note').textContent).toMatch(/^The most this transaction can cost/)
    expect(screen.getByTestId('write-effect').textContent).toBe('mints 99.9999000 shares')
    expect(send).not.toHaveBeenCalled()
    click(confirm)
    await waitFor(() => expect(screen.getByTestId('write-status').textContent).toBe(`Included in ledger 321 · transaction ${hash.slice(0, 6)}…${hash.slice(-6)}`))
    expect(screen.getByTestId('write-fee-charged').textContent).toBe('Fee charged: 0.0078703 XLM')
    const link = screen.getByTestId('write-hash')
    // No configuration here: the dashboard's own transaction page.
    expect(link.getAttribute('href')).toBe(`#/tx/${hash}`)
    expect(link.getAttribute('title')).toBe(hash)
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('write-status')))
    expect(send).toHaveBeenCalledTimes(1)
    expect(onDone).toHaveBeenCalledTimes(1)
    expect(writes()).toBe(before + 1)
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('a failed send is an alert too, and editing a field drops a stale quote', async () => {
    setup({ source: 'G', prepare: async () => prepared(i128(1n)), send: () => Promise.reject(new ContractError(108)) })
    click(screen.getByTestId('deposit-submit'))
    fireEvent.input(screen.getByTestId('deposit-amount'), { target: { value: '5' } })
    await waitFor(() => expect(screen.queryByTestId('write-confirm')).toBeNull())
    click(screen.getByTestId('deposit-submit'))
    click(await screen.findByTestId('write-confirm'))
    expect((await screen.findByRole('alert')).textContent).toMatch(/\(CooldownActive, #108\)$/)
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('write-error')))
  })

  it('starts nothing while disabled (a refused preview)', async () => {
    const prepare = vi.fn(async () => prepared(i128(1n)))
    render(() => (
      <WriteAction name="deposit" label="Deposit" submitTestId="deposit-submit" build={op} effect={() => ''} disabled deps={{ source: 'G', prepare, send: vi.fn() }}>
        <input data-testid="deposit-amount" />
      </WriteAction>
    ))
    const button = screen.getByTestId('deposit-submit') as HTMLButtonElement
    expect(button.disabled).toBe(true)
    fireEvent.submit(button.form!)
    await Promise.resolve()
    expect(prepare).not.toHaveBeenCalled()
    expect(screen.queryByTestId('write-status')).toBeNull()
  })
})
