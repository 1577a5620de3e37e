/**
 * The executor client's encoding of the flash path: `vault.flash_draw(keeper, amount, FlashCall,
 * response_time_ms)` with FlashCall { pool, requests, swaps, min_proceeds } as a map with sorted
 * symbol keys, sent with non-root authorization recorded (the owner's auth is for the executor's
 * `on_flash`), and the keeper fee read from the vault's `flash` event.
 */
import { Account, Address, Keypair, Networks, SorobanDataBuilder, StrKey, nativeToScVal, rpc, scValToNative, xdr } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { createChain, type RpcLike } from '../../chain/index.js'
import { RequestType } from '../adapters/blend/requests.js'
import { ExecutorContract, encodeFlashCall, flashDrawArgs, type ExecutorLiquidation } from './executor.js'
import { keeperFeeOf } from './vaultEvents.js'

const contract = (n: number) => StrKey.encodeContract(Buffer.alloc(32, n))
const VAULT = contract(1)
const EXECUTOR = contract(2)
const POOL = contract(3)
const ROUTER = contract(4)
const USDC = contract(5)
const WETH = contract(6)
const COMET = contract(7)
const WBTC = contract(8)

const liquidation: ExecutorLiquidation = {
  pool: POOL,
  draw: 1_000_0000000n,
  requests: [
    { request_type: RequestType.FillUserLiquidationAuction, address: Keypair.random().publicKey(), amount: 100n },
    { request_type: RequestType.Repay, address: USDC, amount: 1_000_0000000n },
  ],
  swaps: [
    { venue: { kind: 'router', router: ROUTER }, path: [WETH, WBTC, USDC], amountIn: 3_0000000n, minOut: 1_010_0000000n },
    { venue: { kind: 'comet', pool: COMET }, path: [WETH, USDC], amountIn: 0n, minOut: 0n },
  ],
  minProceeds: 1_000_0000000n,
  responseTimeMs: 1_234.4,
}

const keys = (v: xdr.ScVal) => xdr.expectUnionVariant(v, 'scvMap').map!.map((e) => scValToNative(e.key) as string)
const field = (v: xdr.ScVal, k: string) => xdr.expectUnionVariant(v, 'scvMap').map!.find((e) => scValToNative(e.key) === k)!.val

/** A contract event of `from` with `topics` and a data map. */
function event(from: string, topics: xdr.ScVal[], data: Record<string, bigint>): xdr.ContractEvent {
  return new xdr.ContractEvent({
    ext: xdr.ExtensionPoint.v0(),
    contractId: new xdr.ContractId(StrKey.decodeContract(from)),
    type: xdr.ContractEventType.contract,
    body: xdr.ContractEventBody.v0(
      new xdr.ContractEventV0({
        topics,
        data: nativeToScVal(data, { type: Object.fromEntries(Object.keys(data).map((k) => [k, ['symbol', 'i128']])) }),
      }),
    ),
  })
}
const flashEvent = (from: string, keeper: string, fee: bigint) =>
  event(from, [xdr.ScVal.scvSymbol('flash'), new Address(keeper).toScVal()], { amount: 1_000_0000000n, fee, profit: 9n * fee })

describe('the flash path encoding', () => {
  it('FlashCall is a map with sorted symbol keys: min_proceeds, pool, requests, swaps', () => {
    const call = encodeFlashCall(liquidation)
    expect(keys(call)).toEqual(['min_proceeds', 'pool', 'requests', 'swaps'])
    expect(field(call, 'min_proceeds').type).toBe('scvI128')
    expect(scValToNative(field(call, 'min_proceeds'))).toBe(1_000_0000000n)
    expect(field(call, 'pool').type).toBe('scvAddress')
    expect(Address.fromScVal(field(call, 'pool')).toString()).toBe(POOL)
    // requests: Vec<Request>, each { address, amount, request_type } with sorted keys
    const requests = xdr.expectUnionVariant(field(call, 'requests'), 'scvVec').vec!
    expect(requests.map(keys)).toEqual([
      ['address', 'amount', 'request_type'],
      ['address', 'amount', 'request_type'],
    ])
    expect(field(requests[1]!, 'request_type').type).toBe('scvU32')
    expect(scValToNative(field(requests[1]!, 'request_type'))).toBe(RequestType.Repay)
    expect(field(requests[1]!, 'amount').type).toBe('scvI128')
    // swaps: Vec<Swap>, each { amount_in, min_out, path, venue } with sorted keys
    const swaps = xdr.expectUnionVariant(field(call, 'swaps'), 'scvVec').vec!
    expect(swaps.map(keys)).toEqual([
      ['amount_in', 'min_out', 'path', 'venue'],
      ['amount_in', 'min_out', 'path', 'venue'],
    ])
    expect(field(swaps[0]!, 'amount_in').type).toBe('scvI128')
    expect(scValToNative(field(swaps[0]!, 'amount_in'))).toBe(3_0000000n)
    expect(scValToNative(field(swaps[1]!, 'amount_in'))).toBe(0n)
    expect(scValToNative(field(swaps[0]!, 'path'))).toEqual([WETH, WBTC, USDC])
    expect(scValToNative(field(swaps[0]!, 'min_out'))).toBe(1_010_0000000n)
    // venue: the enum SwapVenue as a vector [Symbol(variant), address]
    const venue = (i: number) => xdr.expectUnionVariant(field(swaps[i]!, 'venue'), 'scvVec').vec!
    expect(venue(0).map((v) => v.type)).toEqual(['scvSymbol', 'scvAddress'])
    expect(scValToNative(venue(0)[0]!)).toBe('Router')
    expect(scValToNative(venue(0)[1]!)).toBe(ROUTER)
    expect(scValToNative(venue(1)[0]!)).toBe('Comet')
    expect(scValToNative(venue(1)[1]!)).toBe(COMET)
  })

  it('flash_draw(keeper = the executor, amount: i128, call, response_time_ms: u64)', () => {
    const args = flashDrawArgs(EXECUTOR, liquidation)
    expect(args.map((a) => a.type)).toEqual(['scvAddress', 'scvI128', 'scvMap', 'scvU64'])
    expect(scValToNative(args[0]!)).toBe(EXECUTOR)
    expect(scValToNative(args[1]!)).toBe(1_000_0000000n)
    expect(args[2]!.toXdr('base64')).toBe(encodeFlashCall(liquidation).toXdr('base64'))
    // milliseconds rounded, never negative
    expect(scValToNative(args[3]!)).toBe(1_234n)
    expect(scValToNative(flashDrawArgs(EXECUTOR, { ...liquidation, responseTimeMs: -5 })[3]!)).toBe(0n)
  })

  it('liquidateOperation invokes the vault, not the executor; it needs the vault first', () => {
    const chain = createChain({ rpcUrl: 'http://127.0.0.1:1', networkPassphrase: Networks.TESTNET })
    const op = new ExecutorContract(chain, EXECUTOR, VAULT).liquidateOperation(liquidation)
    const body = xdr.expectUnionVariant(op.body, 'invokeHostFunction').invokeHostFunctionOp
    const call = xdr.expectUnionVariant(body.hostFunction, 'hostFunctionTypeInvokeContract').invokeContract
    expect(Address.fromScAddress(call.contractAddress).toString()).toBe(VAULT)
    expect(call.functionName.toString()).toBe('flash_draw')
    expect(call.args.map((a) => a.toXdr('base64'))).toEqual(flashDrawArgs(EXECUTOR, liquidation).map((a) => a.toXdr('base64')))
    expect(() => new ExecutorContract(chain, EXECUTOR).liquidateOperation(liquidation)).toThrow(/vault unknown/)
  })

  it("the keeper fee is the vault's flash event for this executor; other contracts' and keepers' events do not count", () => {
    const other = contract(9)
    expect(keeperFeeOf([flashEvent(POOL, EXECUTOR, 5n), flashEvent(VAULT, other, 6n), flashEvent(VAULT, EXECUTOR, 7n)], VAULT, 'flash', EXECUTOR)).toBe(7n)
    expect(keeperFeeOf([flashEvent(VAULT, EXECUTOR, 7n)], VAULT, 'return', EXECUTOR)).toBe(0n)
    expect(keeperFeeOf(undefined, VAULT, 'flash', EXECUTOR)).toBe(0n)
  })
})

describe('ExecutorContract.liquidate (flash draw)', () => {
  /** A node that answers the vault's address for `vault()`, records simulations and lands flash_draw with its events. */
  function node() {
    const sims: { fn: string; contract: string; authMode: string | undefined }[] = []
    const server: RpcLike = {
      async getAccount(id: string) {
        return new Account(id, '100')
      },
      async simulateTransaction(tx: Parameters<RpcLike['simulateTransaction']>[0], _leeway?: unknown, authMode?: string) {
        const env = xdr.expectUnionVariant(tx.toEnvelope(), 'envelopeTypeTx').v1
        const op = xdr.expectUnionVariant(env.tx.operations[0]!.body, 'invokeHostFunction').invokeHostFunctionOp
        const call = xdr.expectUnionVariant(op.hostFunction, 'hostFunctionTypeInvokeContract').invokeContract
        const fn = call.functionName.toString()
        sims.push({ fn, contract: Address.fromScAddress(call.contractAddress).toString(), authMode })
        const retval = fn === 'vault' ? new Address(VAULT).toScVal() : nativeToScVal(90n, { type: 'i128' })
        // The owner's auth is recorded for the executor's on_flash, below the root call.
        const auth =
          fn === 'flash_draw'
            ? [
                new xdr.SorobanAuthorizationEntry({
                  credentials: xdr.SorobanCredentials.sorobanCredentialsSourceAccount(),
                  rootInvocation: new xdr.SorobanAuthorizedInvocation({
                    function: xdr.SorobanAuthorizedFunction.sorobanAuthorizedFunctionTypeContractFn(
                      new xdr.InvokeContractArgs({ contractAddress: new Address(EXECUTOR).toScAddress(), functionName: 'on_flash', args: [] }),
                    ),
                    subInvocations: [],
                  }),
                }),
              ]
            : []
        return {
          id: '1',
          latestLedger: 10,
          events: [],
          _parsed: true,
          transactionData: new SorobanDataBuilder().setResourceFee(1_000n),
          minResourceFee: '1000',
          result: { auth, retval },
        } as unknown as rpc.Api.SimulateTransactionResponse
      },
      async sendTransaction(tx) {
        return { status: 'PENDING', hash: Buffer.from(tx.hash()).toString('hex'), latestLedger: 10, latestLedgerCloseTime: 0 } as unknown as rpc.Api.SendTransactionResponse
      },
      async getTransaction() {
        return {
          status: 'SUCCESS',
          ledger: 11,
          returnValue: nativeToScVal(90n, { type: 'i128' }),
          events: { transactionEventsXdr: [], contractEventsXdr: [[flashEvent(POOL, EXECUTOR, 1n), flashEvent(VAULT, EXECUTOR, 10n)]] },
        } as unknown as rpc.Api.GetTransactionResponse
      },
      async getNetwork() {
        return { passphrase: Networks.TESTNET, protocolVersion: 23 } as unknown as rpc.Api.GetNetworkResponse
      },
      async getLatestLedger() {
        return { id: 'x', sequence: 12, protocolVersion: '23', closeTime: '4000000000' } as unknown as rpc.Api.GetLatestLedgerResponse
      },
    }
    return { server, sims }
  }

  it('reads the vault from the executor once, sends vault.flash_draw recording non-root auth, and returns the profit and the keeper fee', async () => {
    const owner = Keypair.random()
    const n = node()
    const chain = createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server: n.server, retry: { backoffMs: 1, pollIntervalMs: 1, expiryGraceMs: 0 } })
    const executor = new ExecutorContract(chain, EXECUTOR)
    const first = await executor.liquidate(liquidation, owner)
    const second = await executor.liquidate(liquidation, owner)
    expect(first).toMatchObject({ ledger: 11, profit: 90n, fee: 10n })
    expect(second.fee).toBe(10n)
    expect(n.sims).toEqual([
      { fn: 'vault', contract: EXECUTOR, authMode: undefined },
      { fn: 'flash_draw', contract: VAULT, authMode: 'record_allow_nonroot' },
      { fn: 'flash_draw', contract: VAULT, authMode: 'record_allow_nonroot' },
    ])
  })
})
