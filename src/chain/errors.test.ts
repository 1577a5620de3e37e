import { xdr } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { ContractError, SimulationError, contractErrorCode, contractErrorCodeInEvents, simulationFailure } from './errors.js'

describe('contract error codes', () => {
  it('parses the code from host error text', () => {
    expect(contractErrorCode('HostError: Error(Contract, #201)')).toBe(201)
    expect(contractErrorCode('Error(Contract, #1205) in pool')).toBe(1205)
    expect(contractErrorCode('HostError: Error(Auth, InvalidAction)')).toBeUndefined()
  })

  it('finds the code in diagnostic events', () => {
    const ev = new xdr.DiagnosticEvent({
      inSuccessfulContractCall: false,
      event: new xdr.ContractEvent({
        ext: xdr.ExtensionPoint.v0(),
        contractId: null,
        type: xdr.ContractEventType.diagnostic,
        body: xdr.ContractEventBody.v0(
          new xdr.ContractEventV0({
            topics: [xdr.ScVal.scvSymbol('error'), xdr.ScVal.scvError(xdr.ScError.sceContract(103))],
            data: xdr.ScVal.scvVoid(),
          }),
        ),
      }),
    })
    expect(contractErrorCodeInEvents([ev])).toBe(103)
    const err = simulationFailure('HostError: trapped', [ev])
    expect(err).toBeInstanceOf(ContractError)
    expect((err as ContractError).code).toBe(103)
    expect(simulationFailure('HostError: trapped')).toBeInstanceOf(SimulationError)
  })
})
