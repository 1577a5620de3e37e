/**
 * What is on the ledger, read with getLedgerEntries (nothing simulated or sent): whether an
 * account, an uploaded contract code or a contract instance exists, an account's XLM balance, and
 * the id a contract deployment will get before it is sent. Deployments use these to tell a step already done from
 * one still to do.
 */
import { Address, StrKey, hash, xdr, type rpc } from '@stellar/stellar-sdk'

/** The node call these reads need (an `rpc.Server` is one). */
export type LedgerReader = Pick<rpc.Server, 'getLedgerEntries'>

const keyIds = new WeakMap<xdr.LedgerKey, string>()

/**
 * A stable string id for a ledger key: its base64 XDR, computed once per key object (callers that
 * build each key once and reuse it, as the Blend adapter does, pay for the encoding once).
 */
export function ledgerKeyId(key: xdr.LedgerKey): string {
  let id = keyIds.get(key)
  if (id === undefined) {
    id = key.toXDR('base64')
    keyIds.set(key, id)
  }
  return id
}

/**
 * The contract id `createCustomContract` from `deployer` with `salt` gets on the network of
 * `networkPassphrase`: sha256 of the contract-id preimage, as the host derives it. The same
 * deployer and salt always give the same id, so a deployment can look for its contract before
 * sending anything.
 */
export function contractIdFor(networkPassphrase: string, deployer: string, salt: Uint8Array): string {
  if (salt.length !== 32) throw new RangeError(`a contract salt is 32 bytes, got ${salt.length}`)
  const preimage = xdr.HashIdPreimage.envelopeTypeContractId(
    new xdr.HashIdPreimageContractId({
      networkId: hash(Buffer.from(networkPassphrase)),
      contractIdPreimage: xdr.ContractIdPreimage.contractIdPreimageFromAddress(
        new xdr.ContractIdPreimageFromAddress({ address: new Address(deployer).toScAddress(), salt: Buffer.from(salt) }),
      ),
    }),
  )
  return StrKey.encodeContract(hash(preimage.toXdr()))
}

/** A contract instance's code: uploaded wasm (by hash, hex) or the built-in Stellar Asset Contract. */
export type ContractExecutable = { kind: 'wasm'; wasmHash: string } | { kind: 'stellar-asset' }

function instanceKey(contractId: string): xdr.LedgerKey {
  return xdr.LedgerKey.contractData(
    new xdr.LedgerKeyContractData({
      contract: new Address(contractId).toScAddress(),
      key: xdr.ScVal.scvLedgerKeyContractInstance(),
      durability: xdr.ContractDataDurability.persistent,
    }),
  )
}

/** The executable of the contract `contractId`, or undefined when no such contract exists. */
export async function contractExecutable(server: LedgerReader, contractId: string): Promise<ContractExecutable | undefined> {
  const { entries } = await server.getLedgerEntries(instanceKey(contractId))
  const entry = entries[0]
  if (entry === undefined) return undefined
  const val = xdr.expectUnionVariant(entry.val, 'contractData').contractData.val
  const executable = xdr.expectUnionVariant(val, 'scvContractInstance').instance.executable
  if (executable.type === 'contractExecutableStellarAsset') return { kind: 'stellar-asset' }
  return { kind: 'wasm', wasmHash: Buffer.from(xdr.expectUnionVariant(executable, 'contractExecutableWasm').wasmHash.toBytes()).toString('hex') }
}

/** Whether contract code with this hash (hex) has been uploaded. */
export async function contractCodeExists(server: LedgerReader, wasmHash: string): Promise<boolean> {
  const key = xdr.LedgerKey.contractCode(new xdr.LedgerKeyContractCode({ hash: Buffer.from(wasmHash, 'hex') }))
  const { entries } = await server.getLedgerEntries(key)
  return entries.length > 0
}

function accountKey(accountId: string): xdr.LedgerKey {
  return xdr.LedgerKey.account(new xdr.LedgerKeyAccount({ accountId: xdr.PublicKey.publicKeyTypeEd25519(StrKey.decodeEd25519PublicKey(accountId)) }))
}

/** Whether the account `accountId` (G...) exists. */
export async function accountExists(server: LedgerReader, accountId: string): Promise<boolean> {
  const { entries } = await server.getLedgerEntries(accountKey(accountId))
  return entries.length > 0
}

/**
 * The native (XLM) balance of the account `accountId` (G...) in stroops (7 decimals), reserves
 * included; undefined when the account does not exist.
 */
export async function nativeBalance(server: LedgerReader, accountId: string): Promise<bigint | undefined> {
  const { entries } = await server.getLedgerEntries(accountKey(accountId))
  const entry = entries[0]
  if (entry === undefined) return undefined
  return BigInt(xdr.expectUnionVariant(entry.val, 'account').account.balance.toString())
}

/**
 * The ledger entry data of a plain account: no signers, no sub-entries, master key weight 1
 * (what CreateAccount leaves, with a sequence number of our choosing).
 */
export function plainAccountEntry(accountId: string, balance: bigint, seqNum: bigint): xdr.LedgerEntryData {
  return xdr.LedgerEntryData.account(
    new xdr.AccountEntry({
      accountId: xdr.PublicKey.publicKeyTypeEd25519(StrKey.decodeEd25519PublicKey(accountId)),
      balance,
      seqNum,
      numSubEntries: 0,
      inflationDest: null,
      flags: 0,
      homeDomain: '',
      thresholds: Buffer.from([1, 0, 0, 0]),
      signers: [],
      ext: xdr.AccountEntryExt.v0(),
    }),
  )
}
