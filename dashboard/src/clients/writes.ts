/**
 * The operations of every write the dashboard offers (contracts/vault/src/contract.rs,
 * contracts/registry/src/contract.rs). Each one is signed by its first address argument's own
 * account (source-account authorization), except `slash`, which anyone may call.
 */
import { Operation, type xdr } from '@stellar/stellar-sdk'
import { addr, i128, str } from '../../../src/chain/scval.js'

const invoke = (contract: string, fn: string, args: xdr.ScVal[]): xdr.Operation =>
  Operation.invokeContractFunction({ contract, function: fn, args })

/** `vault.deposit(depositor, amount) -> shares minted`. */
export const vaultDeposit = (vault: string, depositor: string, amount: bigint): xdr.Operation =>
  invoke(vault, 'deposit', [addr(depositor), i128(amount)])

/** `vault.withdraw(depositor, shares) -> USDC paid out`. */
export const vaultWithdraw = (vault: string, depositor: string, shares: bigint): xdr.Operation =>
  invoke(vault, 'withdraw', [addr(depositor), i128(shares)])

/** `registry.register(operator, name)`: pulls exactly min_stake USDC from the operator. */
export const registryRegister = (registry: string, operator: string, name: string): xdr.Operation =>
  invoke(registry, 'register', [addr(operator), str(name)])

/** `registry.deregister(operator)`: refunds the stake; refused while a draw is outstanding. */
export const registryDeregister = (registry: string, operator: string): xdr.Operation =>
  invoke(registry, 'deregister', [addr(operator)])

/** `registry.slash(keeper) -> stake slashed`: permissionless once the draw is older than slash_timeout. */
export const registrySlash = (registry: string, keeper: string): xdr.Operation =>
  invoke(registry, 'slash', [addr(keeper)])
