import { describe, expect, it } from 'vitest'
import { xdr } from '@stellar/stellar-sdk'
import { ContractError, SimulationError } from '../../../src/chain/errors.js'
import { i128 } from '../../../src/chain/scval.js'
import { InvalidAmountError } from '../../../src/core/index.js'
import { AmountInputError } from './amounts.js'
import { confirmStep, errorInWords, feeCeiling, feeInXlm, prepareStep, returnedI128, statusText, type PreparedWrite, type WriteDeps } from './writeFlow.js'

const prepared = (ret?: xdr.ScVal): PreparedWrite => ({ tx: {} as PreparedWrite['tx'], fee: 1_234_567n, resourceFee: 1_234_467n, returnValue: ret, simulatedAt: 7 })
const op = {} as xdr.Operation

const deps = (over: Partial<WriteDeps> = {}): WriteDeps => ({
  source: 'GABC',
  prepare: async () => prepared(i128(999_999_000n)),
  send: async () => ({ hash: 'ab', ledger: 42, returnValue: undefined, fee: 1n, resourceFee: 0n, attempts: 1 }),
  ...over,
})

describe('errorInWords', () => {
  it('gives a contract error in the contract’s words', () => {
    expect(errorInWords(new ContractError(107))).toBe('This deposit would take the vault over its deposit cap. (DepositCapExceeded, #107)')
    expect(errorInWords(new ContractError(208))).toMatch(/slash timeout.*\(SlashTooEarly, #208\)$/)
    expect(errorInWords(new ContractError(999))).toBe('The contract refused the call (error #999).')
  })

  it('gives other errors by their message', () => {
    expect(errorInWords(new SimulationError('simulation failed', { details: 'trap' }))).toBe('simulation failed: trap')
    expect(errorInWords(new AmountInputError('Enter an amount.'))).toBe('Enter an amount.')
    expect(errorInWords(new InvalidAmountError('amount', 0n))).not.toMatch(/Details/)
    expect(errorInWords({ code: -4, message: 'User declined access' })).toBe('User declined access')
    expect(errorInWords('nope')).toBe('nope')
  })
})

describe('write steps', () => {
  it('prepare: the fee in XLM and the caller’s words for the simulated return value', async () => {
    const phase = await prepareStep(deps(), () => op, (ret) => `mints ${returnedI128(ret)} units`)
    expect(phase.kind).toBe('ready')
    if (phase.kind !== 'ready') return
    // a ceiling, said as one: the network charges what the transaction uses
    expect(phase.fee).toBe('up to 0.1234567 XLM')
    expect(phase.effect).toBe('mints 999999000 units')
  })

  it('prepare: a refused simulation or a bad input ends in words', async () => {
    const refused = await prepareStep(deps({ prepare: () => Promise.reject(new ContractError(107)) }), () => op, () => '')
    expect(refused).toEqual({ kind: 'error', message: 'This deposit would take the vault over its deposit cap. (DepositCapExceeded, #107)' })
    const bad = await prepareStep(deps(), () => { throw new AmountInputError('Enter an amount.') }, () => '')
    expect(bad).toEqual({ kind: 'error', message: 'Enter an amount.' })
  })

  it('confirm: included in a ledger, or the failure in words', async () => {
    const ok = await confirmStep(deps(), prepared())
    expect(ok.phase).toEqual({ kind: 'done', ledger: 42, hash: 'ab' })
    expect(statusText(ok.phase)).toBe('Included in ledger 42')
    const charged = await confirmStep(deps({ send: async () => ({ hash: 'ab', ledger: 42, returnValue: undefined, fee: 1_234_567n, resourceFee: 0n, feeCharged: 787_030n, attempts: 1 }) }), prepared())
    expect(charged.phase).toEqual({ kind: 'done', ledger: 42, hash: 'ab', feeCharged: '0.0787030 XLM' })
    const failed = await confirmStep(deps({ send: () => Promise.reject(new ContractError(108)) }), prepared())
    expect(failed.phase).toEqual({ kind: 'error', message: 'The withdrawal cooldown after your last deposit has not passed yet. (CooldownActive, #108)' })
  })

  it('formats fees and return values', () => {
    expect(feeInXlm(100n)).toBe('0.0000100 XLM')
    expect(feeCeiling(117_815n)).toBe('up to 0.0117815 XLM')
    expect(returnedI128(undefined)).toBe(0n)
    expect(returnedI128(xdr.ScVal.scvVoid())).toBe(0n)
  })
})
