/**
 * Ledger entries written directly with the sandbox's `sandbox_setLedgerEntry` cheat, for a world
 * built on state we did not create (a snapshot or a fork): our accounts, token balances no issuer
 * signs for, and an oracle whose code we replace. Nothing here works against a real network.
 */
import { Address, Asset, Keypair, scValToNative, StrKey, xdr } from '@stellar/stellar-sdk'
import { i128, plainAccountEntry, type LedgerReader } from '../../chain/index.js'

/** A node with the sandbox's cheat methods (a started sandbox satisfies it). */
export interface CheatNode {
  call<T>(method: string, params?: unknown): Promise<T>
}

const accountKey = (account: string) =>
  xdr.LedgerKey.account(new xdr.LedgerKeyAccount({ accountId: Keypair.fromPublicKey(account).xdrAccountId() }))

function trustlineKey(account: string, asset: Asset): xdr.LedgerKey {
  return xdr.LedgerKey.trustline(
    new xdr.LedgerKeyTrustLine({ accountId: Keypair.fromPublicKey(account).xdrAccountId(), asset: asset.toTrustLineXDRObject() }),
  )
}

/** A SAC's balance entry for a contract holder: persistent `Balance(address)`. */
function sacBalanceKey(sac: string, holder: string): xdr.LedgerKey {
  return xdr.LedgerKey.contractData(
    new xdr.LedgerKeyContractData({
      contract: new Address(sac).toScAddress(),
      key: xdr.ScVal.scvVec([xdr.ScVal.scvSymbol('Balance'), new Address(holder).toScVal()]),
      durability: xdr.ContractDataDurability.persistent,
    }),
  )
}

export function instanceKey(contract: string): xdr.LedgerKey {
  return xdr.LedgerKey.contractData(
    new xdr.LedgerKeyContractData({
      contract: new Address(contract).toScAddress(),
      key: xdr.ScVal.scvLedgerKeyContractInstance(),
      durability: xdr.ContractDataDurability.persistent,
    }),
  )
}

async function put(node: CheatNode, data: xdr.LedgerEntryData, liveUntil?: number): Promise<void> {
  const entry = new xdr.LedgerEntry({ lastModifiedLedgerSeq: 0, data, ext: xdr.LedgerEntryExt.v0() })
  await node.call('sandbox_setLedgerEntry', { entry: entry.toXdr('base64'), ...(liveUntil === undefined ? {} : { liveUntilLedgerSeq: liveUntil }) })
}

async function readOne(server: LedgerReader, key: xdr.LedgerKey): Promise<{ val: xdr.LedgerEntryData; liveUntilLedgerSeq?: number } | undefined> {
  const { entries } = await server.getLedgerEntries(key)
  return entries[0]
}

/**
 * Creates accounts holding `balance` stroops of XLM, with sequence numbers that start at
 * `ledger` << 32 as the protocol's CreateAccount does. An account that exists is left alone.
 */
export async function createAccounts(node: CheatNode, server: LedgerReader, accounts: readonly string[], balance: bigint, ledger: number): Promise<void> {
  for (const account of accounts) {
    if ((await readOne(server, accountKey(account))) !== undefined) continue
    await put(node, plainAccountEntry(account, balance, BigInt(ledger) << 32n))
  }
}

/** The classic asset a Stellar Asset Contract wraps, from its `name()` ("CODE:ISSUER" or "native"). */
export function assetOfSacName(name: string): Asset {
  if (name === 'native') return Asset.native()
  const [code, issuer] = name.split(':')
  if (code === undefined || issuer === undefined || !StrKey.isValidEd25519PublicKey(issuer)) throw new Error(`not a Stellar Asset Contract name: "${name}"`)
  return new Asset(code, issuer)
}

/**
 * Adds `amount` (stroops) of `asset` to `holder`: an account's trustline (which must exist: it
 * is created with a ChangeTrust, so the account's reserves stay right) or XLM balance, or a
 * contract's balance in the asset's SAC (`sac`).
 */
export async function credit(node: CheatNode, server: LedgerReader, asset: Asset, sac: string, holder: string, amount: bigint): Promise<void> {
  if (amount <= 0n) return
  if (holder.startsWith('C')) {
    const key = sacBalanceKey(sac, holder)
    const have = await readOne(server, key)
    let before = 0n
    if (have !== undefined) {
      const v = scValToNative(xdr.expectUnionVariant(have.val, 'contractData').contractData.val) as { amount?: bigint }
      before = BigInt(v.amount ?? 0n)
    }
    const after = before + amount
    const val = xdr.ScVal.scvMap([
      new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('amount'), val: i128(after) }),
      new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('authorized'), val: xdr.ScVal.scvBool(true) }),
      new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('clawback'), val: xdr.ScVal.scvBool(false) }),
    ])
    const data = xdr.LedgerEntryData.contractData(
      new xdr.ContractDataEntry({
        ext: xdr.ExtensionPoint.v0(),
        contract: new Address(sac).toScAddress(),
        key: xdr.ScVal.scvVec([xdr.ScVal.scvSymbol('Balance'), new Address(holder).toScVal()]),
        durability: xdr.ContractDataDurability.persistent,
        val,
      }),
    )
    await put(node, data, have?.liveUntilLedgerSeq)
    return
  }
  if (asset.isNative()) {
    const have = await readOne(server, accountKey(holder))
    if (have === undefined) throw new Error(`cannot credit XLM to ${holder}: no such account`)
    const a = xdr.expectUnionVariant(have.val, 'account').account
    await put(node, xdr.LedgerEntryData.account(new xdr.AccountEntry({ ...a, balance: a.balance + amount })))
    return
  }
  const have = await readOne(server, trustlineKey(holder, asset))
  if (have === undefined) throw new Error(`cannot credit ${asset.getCode()} to ${holder}: it has no trustline to ${asset.getCode()}:${asset.getIssuer()}`)
  const t = xdr.expectUnionVariant(have.val, 'trustline').trustLine
  const after = t.balance + amount
  if (after > t.limit) throw new Error(`crediting ${amount} ${asset.getCode()} to ${holder} would pass its trustline limit`)
  // Authorised, whatever the issuer's flags say: the sim's accounts must be able to hold it.
  await put(node, xdr.LedgerEntryData.trustline(new xdr.TrustLineEntry({ ...t, balance: after, flags: t.flags | 1 })))
}


/**
 * Runs the contract `contract` on other code: its instance keeps its address and TTL and gets
 * the executable `wasmHash` (uploaded) and empty instance storage. Its persistent and temporary
 * entries stay where they are, unread by code that does not know their keys.
 */
export async function replaceCode(node: CheatNode, server: LedgerReader, contract: string, wasmHash: string): Promise<void> {
  const have = await readOne(server, instanceKey(contract))
  if (have === undefined) throw new Error(`no contract at ${contract}`)
  const data = xdr.LedgerEntryData.contractData(
    new xdr.ContractDataEntry({
      ext: xdr.ExtensionPoint.v0(),
      contract: new Address(contract).toScAddress(),
      key: xdr.ScVal.scvLedgerKeyContractInstance(),
      durability: xdr.ContractDataDurability.persistent,
      val: xdr.ScVal.scvContractInstance(
        new xdr.ScContractInstance({ executable: xdr.ContractExecutable.contractExecutableWasm(Buffer.from(wasmHash, 'hex')), storage: [] }),
      ),
    }),
  )
  await put(node, data, have.liveUntilLedgerSeq)
}
