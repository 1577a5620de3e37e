/**
 * Readable names of ledger entries for the determinism trace: `account G…`, `trustline G… USDC`,
 * `contract C… [Balance,G…]`, `code 1a2b…`, `ttl 3c4d…`. The same entry gets the same name
 * whether it comes as an entry (created, updated) or as a key (removed, evicted), so a ledger's
 * changes can be folded by name (and a TTL entry named after the entry it belongs to, see
 * EntryNamer). Names serve as identities: hashes (TTL, code, pool and
 * balance ids) keep their first 8 bytes, byte strings their first 32 and texts their first 40
 * characters — enough to tell apart the entries of one run.
 */
import { createHash } from 'node:crypto'
import { StrKey, xdr } from '@stellar/stellar-sdk'

type EntryData = ReturnType<typeof xdr.LedgerEntry.schema._read>['data']
type KeyWire = ReturnType<typeof xdr.LedgerKey.schema._read>
type ScVal = ReturnType<typeof xdr.ScVal.schema._read>
type ScAddress = ReturnType<typeof xdr.ScAddress.schema._read>
type PublicKey = ReturnType<typeof xdr.PublicKey.schema._read>
type TrustLineAsset = ReturnType<typeof xdr.TrustLineAsset.schema._read>

const hex = (b: Uint8Array, max = 16) => {
  const h = Buffer.from(b).toString('hex')
  return h.length > max ? `${h.slice(0, max)}…` : h
}

const account = (k: PublicKey) => StrKey.encodeEd25519PublicKey(Buffer.from(k.ed25519))

function assetCode(code: Uint8Array): string {
  return Buffer.from(code).toString('latin1').replace(/\0+$/, '')
}

function trustAsset(a: TrustLineAsset): string {
  if (a.type === 0) return 'XLM'
  if (a.type === 1) return `${assetCode(a.alphaNum4.assetCode)}-${account(a.alphaNum4.issuer)}`
  if (a.type === 2) return `${assetCode(a.alphaNum12.assetCode)}-${account(a.alphaNum12.issuer)}`
  return `pool ${hex(a.liquidityPoolId)}`
}

export function scAddress(a: ScAddress): string {
  switch (a.type) {
    case 0:
      return account(a.accountId)
    case 1:
      return StrKey.encodeContract(Buffer.from(a.contractId))
    case 2:
      return `${StrKey.encodeEd25519PublicKey(Buffer.from(a.muxedAccount.ed25519))}:${a.muxedAccount.id}`
    case 3:
      return `balance ${hex(a.claimableBalanceId.v0)}`
    default:
      return `pool ${hex(a.liquidityPoolId)}`
  }
}

const text = (s: { toString(): string }) => {
  const t = s.toString()
  return JSON.stringify(t.length > 40 ? `${t.slice(0, 40)}…` : t)
}

/** A short, unambiguous rendering of a Soroban value. */
export function scValText(v: ScVal): string {
  switch (v.type) {
    case 0:
      return String(v.b)
    case 1:
      return 'void'
    case 2:
      return `error(${JSON.stringify(v.error)})`
    case 3:
      return String(v.u32)
    case 4:
      return String(v.i32)
    case 5:
      return String(v.u64)
    case 6:
      return String(v.i64)
    case 7:
      return `t${v.timepoint}`
    case 8:
      return `d${v.duration}`
    case 9:
      return String((v.u128.hi << 64n) + v.u128.lo)
    case 10:
      return String((v.i128.hi << 64n) + v.i128.lo)
    case 11:
      return `u256:${[v.u256.hiHi, v.u256.hiLo, v.u256.loHi, v.u256.loLo].join('.')}`
    case 12:
      return `i256:${[v.i256.hiHi, v.i256.hiLo, v.i256.loHi, v.i256.loLo].join('.')}`
    case 13:
      return `0x${hex(v.bytes, 64)}`
    case 14:
      return text(v.str)
    case 15:
      return v.sym.toString()
    case 16:
      return `[${(v.vec ?? []).map(scValText).join(',')}]`
    case 17:
      return `{${(v.map ?? []).map((e) => `${scValText(e.key)}:${scValText(e.val)}`).join(',')}}`
    case 18:
      return scAddress(v.address)
    case 19:
      return 'instance-value'
    case 20:
      return 'instance'
    case 21:
      return `nonce ${v.nonceKey.nonce}`
    default:
      return `scval ${v.type}`
  }
}

function contractData(contract: ScAddress, key: ScVal, durability: number): string {
  return `contract ${scAddress(contract)} ${scValText(key)}${durability === 0 ? ' (temporary)' : ''}`
}

/** The name of the entry a LedgerEntry's data holds. */
export function entryName(d: EntryData): string {
  switch (d.type) {
    case 0:
      return `account ${account(d.account.accountId)}`
    case 1:
      return `trustline ${account(d.trustLine.accountId)} ${trustAsset(d.trustLine.asset)}`
    case 2:
      return `offer ${account(d.offer.sellerId)} ${d.offer.offerId}`
    case 3:
      return `data ${account(d.data.accountId)} ${text(d.data.dataName)}`
    case 4:
      return `claimable ${hex(d.claimableBalance.balanceId.v0)}`
    case 5:
      return `pool ${hex(d.liquidityPool.liquidityPoolId)}`
    case 6:
      return contractData(d.contractData.contract, d.contractData.key, d.contractData.durability)
    case 7:
      return `code ${hex(d.contractCode.hash)}`
    case 8:
      return `config ${d.configSetting.configSettingID}`
    default:
      return `ttl ${hex(d.ttl.keyHash)}`
  }
}

/** The key of a contract data or code entry (the entries that have a TTL), else undefined. */
function ttlKeyOf(d: EntryData): KeyWire | undefined {
  if (d.type === 6) return { type: 6, contractData: { contract: d.contractData.contract, key: d.contractData.key, durability: d.contractData.durability } }
  if (d.type === 7) return { type: 7, contractCode: { hash: d.contractCode.hash } }
  return undefined
}

/**
 * Names entries as `entryName` / `keyName` do, but a TTL entry after the entry it keeps alive
 * (`ttl of contract C… [Positions,G…]`) once that entry has been seen — `learn` each change of a
 * ledger before naming any. A TTL whose entry was never seen keeps its hash name.
 */
export class EntryNamer {
  /** sha256 of the LedgerKey XDR (hex) → that entry's name. */
  private readonly ttlOwner = new Map<string, string>()
  private readonly learnt = new Set<string>()

  learn(c: { entry: { data: EntryData } } | { removed: KeyWire }): void {
    const key = 'removed' in c ? (c.removed.type === 6 || c.removed.type === 7 ? c.removed : undefined) : ttlKeyOf(c.entry.data)
    if (key === undefined) return
    const name = keyName(key)
    if (this.learnt.has(name)) return
    this.learnt.add(name)
    this.ttlOwner.set(createHash('sha256').update(xdr.LedgerKey.schema.encode(key)).digest('hex'), name)
  }

  name(c: { entry: { data: EntryData } } | { removed: KeyWire }): string {
    const keyHash = 'removed' in c ? (c.removed.type === 9 ? c.removed.ttl.keyHash : undefined) : c.entry.data.type === 9 ? c.entry.data.ttl.keyHash : undefined
    if (keyHash !== undefined) {
      const owner = this.ttlOwner.get(Buffer.from(keyHash).toString('hex'))
      if (owner !== undefined) return `ttl of ${owner}`
    }
    return 'removed' in c ? keyName(c.removed) : entryName(c.entry.data)
  }
}

/** The name of the entry a LedgerKey designates (the same as `entryName` of that entry). */
export function keyName(k: KeyWire): string {
  switch (k.type) {
    case 0:
      return `account ${account(k.account.accountId)}`
    case 1:
      return `trustline ${account(k.trustLine.accountId)} ${trustAsset(k.trustLine.asset)}`
    case 2:
      return `offer ${account(k.offer.sellerId)} ${k.offer.offerId}`
    case 3:
      return `data ${account(k.data.accountId)} ${text(k.data.dataName)}`
    case 4:
      return `claimable ${hex(k.claimableBalance.balanceId.v0)}`
    case 5:
      return `pool ${hex(k.liquidityPool.liquidityPoolId)}`
    case 6:
      return contractData(k.contractData.contract, k.contractData.key, k.contractData.durability)
    case 7:
      return `code ${hex(k.contractCode.hash)}`
    case 8:
      return `config ${k.configSetting.configSettingId}`
    default:
      return `ttl ${hex(k.ttl.keyHash)}`
  }
}
