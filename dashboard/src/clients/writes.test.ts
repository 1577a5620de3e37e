import { describe, expect, it } from 'vitest'
import { Address, Keypair, scValToNative, xdr } from '@stellar/stellar-sdk'
import { registryDeregister, registryRegister, registrySlash, vaultDeposit, vaultWithdraw } from './writes.js'

const VAULT = 'CBYYP64QJSE3B6CB6IEL77DJZZWF435EVINT7R2QWFD7ISJQ5CLPTB5W'
const REGISTRY = 'CCK5TNPGAY6EUXSLB4V7ADIGKARCRWN6NL2WHMTJUYJQ2KNAJYFT5FGA'
const USER = Keypair.random().publicKey()

function call(op: ReturnType<typeof vaultDeposit>) {
  const inv = xdr.expectUnionVariant(xdr.expectUnionVariant(op.body, 'invokeHostFunction').invokeHostFunctionOp.hostFunction, 'hostFunctionTypeInvokeContract').invokeContract
  return {
    contract: Address.fromScAddress(inv.contractAddress).toString(),
    fn: inv.functionName.toString(),
    args: inv.args.map((a) => scValToNative(a) as unknown),
  }
}

describe('write operations', () => {
  it('call the contracts’ entry points with typed arguments', () => {
    expect(call(vaultDeposit(VAULT, USER, 1_000_000_000n))).toEqual({ contract: VAULT, fn: 'deposit', args: [USER, 1_000_000_000n] })
    expect(call(vaultWithdraw(VAULT, USER, 5n))).toEqual({ contract: VAULT, fn: 'withdraw', args: [USER, 5n] })
    expect(call(registryRegister(REGISTRY, USER, 'my keeper'))).toEqual({ contract: REGISTRY, fn: 'register', args: [USER, 'my keeper'] })
    expect(call(registryDeregister(REGISTRY, USER))).toEqual({ contract: REGISTRY, fn: 'deregister', args: [USER] })
    expect(call(registrySlash(REGISTRY, USER))).toEqual({ contract: REGISTRY, fn: 'slash', args: [USER] })
  })
})
