/**
 * Authorization required below the root call (the owner's `require_auth` in an executor's
 * `on_flash`, which the vault's `flash_draw` calls): `nonRootAuth` simulates in
 * `record_allow_nonroot`, the recorded entry whose root is the nested call is signed (another
 * signer's address credentials) or kept (the source's own), and the landed transaction's
 * contract events come back with the result.
 */
import { Account, Address, Keypair, Networks, Operation, SorobanDataBuilder, StrKey, rpc, xdr } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import type { RpcLike } from './connection.js'
import { createChain } from './connection.js'
import { submit } from './submit.js'

const VAULT = StrKey.encodeContract(Buffer.alloc(32, 1))
const EXECUTOR = StrKey.encodeContract(Buffer.alloc(32, 2))
const fast = { backoffMs: 1, pollIntervalMs: 1, expiryGraceMs: 0 }

const flashDraw = Operation.invokeContractFunction({ contract: VAULT, function: 'flash_draw', args: [new Address(EXECUTOR).toScVal()] })

/** The auth entry of `on_flash` on the executor: the nested call, not the transaction's root. */
function nestedEntry(credentials: xdr.SorobanCredentials): xdr.SorobanAuthorizationEntry {
  return new xdr.SorobanAuthorizationEntry({
    credentials,
    rootInvocation: new xdr.SorobanAuthorizedInvocation({
      function: xdr.SorobanAuthorizedFunction.sorobanAuthorizedFunctionTypeContractFn(
        new xdr.InvokeContractArgs({ contractAddress: new Address(EXECUTOR).toScAddress(), functionName: 'on_flash', args: [xdr.ScVal.scvI128(new xdr.Int128Parts({ hi: 0n, lo: 5n }))] }),
      ),
      subInvocations: [],
    }),
  })
}

function addressCredentials(of: Keypair): xdr.SorobanCredentials {
  return xdr.SorobanCredentials.sorobanCredentialsAddress(
    new xdr.SorobanAddressCredentials({ address: new Address(of.publicKey()).toScAddress(), nonce: 7n, signatureExpirationLedger: 0, signature: xdr.ScVal.scvVoid() }),
  )
}

const flashEvent = new xdr.ContractEvent({
  ext: xdr.ExtensionPoint.v0(),
  contractId: null,
  type: xdr.ContractEventType.contract,
  body: xdr.ContractEventBody.v0(new xdr.ContractEventV0({ topics: [xdr.ScVal.scvSymbol('flash')], data: xdr.ScVal.scvVoid() })),
})

/** A node that records each simulation's auth mode and the auth entries of what it simulates and receives. */
function node(recorded: xdr.SorobanAuthorizationEntry) {
  const sims: { authMode: string | undefined; auth: xdr.SorobanAuthorizationEntry[] }[] = []
  const sent: xdr.SorobanAuthorizationEntry[][] = []
  const authOf = (tx: Parameters<RpcLike['sendTransaction']>[0]) => {
    const op = ('operations' in tx ? tx.operations[0] : undefined) as Operation.InvokeHostFunction | undefined
    return [...(op?.auth ?? [])]
  }
  const server: RpcLike = {
    async getAccount(id: string) {
      return new Account(id, '100')
    },
    async simulateTransaction(tx: Parameters<RpcLike['simulateTransaction']>[0], _leeway?: unknown, authMode?: string) {
      const auth = authOf(tx)
      sims.push({ authMode, auth })
      return {
        id: '1',
        latestLedger: 10,
        events: [],
        _parsed: true,
        transactionData: new SorobanDataBuilder().setResourceFee(1_000n),
        minResourceFee: '1000',
        // Enforcing (entries given): the node answers with no new entries.
        result: { auth: auth.length > 0 ? [] : [recorded], retval: xdr.ScVal.scvVoid() },
      } as unknown as rpc.Api.SimulateTransactionResponse
    },
    async sendTransaction(tx) {
      sent.push(authOf(tx))
      return { status: 'PENDING', hash: Buffer.from(tx.hash()).toString('hex'), latestLedger: 10, latestLedgerCloseTime: 0 } as unknown as rpc.Api.SendTransactionResponse
    },
    async getTransaction() {
      return {
        status: 'SUCCESS',
        ledger: 11,
        returnValue: xdr.ScVal.scvVoid(),
        events: { transactionEventsXdr: [], contractEventsXdr: [[flashEvent]] },
      } as unknown as rpc.Api.GetTransactionResponse
    },
    async getNetwork() {
      return { passphrase: Networks.TESTNET, protocolVersion: 23 } as unknown as rpc.Api.GetNetworkResponse
    },
    async getLatestLedger() {
      return { id: 'x', sequence: 12, protocolVersion: '23', closeTime: '4000000000' } as unknown as rpc.Api.GetLatestLedgerResponse
    },
  }
  return { server, sims, sent }
}

describe('authorization below the root call', () => {
  it('the source account itself: record_allow_nonroot, the source-account entry rooted at the nested call is sent as recorded', async () => {
    const owner = Keypair.random()
    const entry = nestedEntry(xdr.SorobanCredentials.sorobanCredentialsSourceAccount())
    const n = node(entry)
    const chain = createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server: n.server, retry: fast })
    const res = await submit(chain, owner, flashDraw, { nonRootAuth: true })
    expect(n.sims.map((s) => s.authMode)).toEqual(['record_allow_nonroot'])
    expect(n.sent).toHaveLength(1)
    expect(n.sent[0]!.map((e) => e.toXdr('base64'))).toEqual([entry.toXdr('base64')])
    expect(res.events?.map((e) => e.toXdr('base64'))).toEqual([flashEvent.toXdr('base64')])
  })

  it('a channel account as the source: the owner signs its address-credential entry rooted at the nested call; one simulation, the recorded nonce kept', async () => {
    const owner = Keypair.random()
    const channel = Keypair.random()
    const recorded = nestedEntry(addressCredentials(owner))
    const n = node(recorded)
    const chain = createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server: n.server, retry: fast })
    await submit(chain, channel, flashDraw, { nonRootAuth: true, authSigners: [owner] })
    // Only the recording (non-root allowed): it already charged an emulated signature check and
    // holds the nonce's entry in its footprint.
    expect(n.sims.map((s) => s.authMode)).toEqual(['record_allow_nonroot'])
    const signed = n.sent[0]![0]!
    const fn = xdr.expectUnionVariant(signed.rootInvocation.function, 'sorobanAuthorizedFunctionTypeContractFn').contractFn
    expect(fn.functionName.toString()).toBe('on_flash')
    const creds = signed.credentials
    if (creds.type !== 'sorobanCredentialsAddress' && creds.type !== 'sorobanCredentialsAddressV2') throw new Error(`not address credentials: ${creds.type}`)
    expect(creds.value.signature.type).not.toBe('scvVoid')
    expect(creds.value.signatureExpirationLedger).toBeGreaterThan(10)
    const was = recorded.credentials
    if (was.type !== 'sorobanCredentialsAddress' && was.type !== 'sorobanCredentialsAddressV2') throw new Error('not address credentials')
    expect(creds.value.nonce.toString()).toBe(was.value.nonce.toString())
    expect(n.sent[0]).toHaveLength(1)
  })

  it('without nonRootAuth the node is asked for its default mode', async () => {
    const owner = Keypair.random()
    const n = node(nestedEntry(xdr.SorobanCredentials.sorobanCredentialsSourceAccount()))
    const chain = createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server: n.server, retry: fast })
    await submit(chain, owner, flashDraw)
    expect(n.sims.map((s) => s.authMode)).toEqual([undefined])
  })
})
