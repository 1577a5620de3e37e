import { describe, expect, it } from 'vitest'
import { ContractError, simulationFailure } from './errors.js'
import { REGISTRY_ERRORS, SAC_ERRORS, VAULT_ERRORS, contractErrorMessage } from './records/errorMessages.js'

describe('contract error messages', () => {
  it('reads the token’s (Stellar Asset Contract) codes in words with their name and number', () => {
    expect(contractErrorMessage(10)).toBe('Your USDC balance is too small for this. (BalanceError, #10)')
    expect(contractErrorMessage(9)).toBe('The token allowance is too small for this. (AllowanceError, #9)')
    expect(contractErrorMessage(13)).toMatch(/no USDC trustline.*\(TrustlineMissingError, #13\)$/)
    expect(contractErrorMessage(11)).toMatch(/\(BalanceDeauthorizedError, #11\)$/)
  })

  it('a token refusal from a simulation reads in words too', () => {
    const err = simulationFailure('HostError: Error(Contract, #10)\nEvent log (newest first): ...')
    expect(err).toBeInstanceOf(ContractError)
    expect(contractErrorMessage((err as ContractError).code)).toBe('Your USDC balance is too small for this. (BalanceError, #10)')
  })

  it('keeps the vault’s and the registry’s words and says the number of an unknown code', () => {
    expect(contractErrorMessage(107)).toBe('This deposit would take the vault over its deposit cap. (DepositCapExceeded, #107)')
    expect(contractErrorMessage(208)).toMatch(/\(SlashTooEarly, #208\)$/)
    expect(contractErrorMessage(1)).toBe('The contract refused the call (error #1).')
    expect(contractErrorMessage(50)).toBe('The contract refused the call (error #50).')
    expect(contractErrorMessage(1205)).toBe('The contract refused the call (error #1205).')
  })

  it('the three tables keep to their ranges, so a code names its contract', () => {
    const keys = (t: Readonly<Record<number, unknown>>) => Object.keys(t).map(Number)
    expect(keys(SAC_ERRORS).every((c) => c >= 1 && c < 100)).toBe(true)
    expect(keys(VAULT_ERRORS).every((c) => c >= 100 && c < 200)).toBe(true)
    expect(keys(REGISTRY_ERRORS).every((c) => c >= 200 && c < 300)).toBe(true)
  })
})
