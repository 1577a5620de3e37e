import { Asset, Operation, type Keypair } from '@stellar/stellar-sdk'
import { addr, deployAssetContract, fundAccount, i128, invoke, read, submit, type Chain } from '../chain/index.js'

/** A classic asset with its Stellar Asset Contract. */
export interface WorldAsset {
  code: string
  issuer: string
  /** Stellar Asset Contract id (C...). */
  contract: string
  decimals: 7
}

/** Classic payments per transaction (the protocol allows 100 operations). */
const OPS_PER_TX = 100

/** Creates (funds) accounts through friendbot, in parallel. */
export async function fundAccounts(chain: Chain, accounts: readonly Keypair[], serial = false): Promise<void> {
  if (serial) for (const k of accounts) await fundAccount(chain, k.publicKey())
  else await Promise.all(accounts.map((k) => fundAccount(chain, k.publicKey())))
}

/** Issues `code` from `issuer` and deploys its Stellar Asset Contract. */
export async function createAsset(chain: Chain, issuer: Keypair, code: string): Promise<WorldAsset> {
  const asset = new Asset(code, issuer.publicKey())
  const contract = await deployAssetContract(chain, issuer, asset)
  return { code, issuer: issuer.publicKey(), contract, decimals: 7 }
}

/** The classic asset; XLM when `issuer` is empty (the native asset's contract). */
export function classicAsset(a: WorldAsset): Asset {
  return a.issuer === '' ? Asset.native() : new Asset(a.code, a.issuer)
}

/**
 * Trustlines from each holder to every asset (one transaction per holder, holders in parallel).
 * XLM needs none and is skipped.
 */
export async function addTrustlines(chain: Chain, holders: readonly Keypair[], assets: readonly WorldAsset[], serial = false): Promise<void> {
  const credit = assets.filter((a) => a.issuer !== '')
  if (credit.length === 0) return
  const trust = (h: Keypair) =>
    submit(
      chain,
      h,
      credit.map((a) => Operation.changeTrust({ asset: classicAsset(a) })),
    )
  if (serial) for (const h of holders) await trust(h)
  else await Promise.all(holders.map(trust))
}

/** A credit of `amount` (7 decimals) of an asset to an account (G...) or a contract (C...). */
export interface Mint {
  asset: WorldAsset
  to: string
  amount: bigint
}

/**
 * Mints: classic payments from the issuer for accounts (batched, they need a trustline), the
 * SAC's `mint` for contracts (the issuer is the SAC admin).
 */
export async function mintAll(chain: Chain, issuer: Keypair, mints: readonly Mint[]): Promise<void> {
  const toAccounts = mints.filter((m) => m.to.startsWith('G') && m.amount > 0n)
  const toContracts = mints.filter((m) => m.to.startsWith('C') && m.amount > 0n)
  for (let i = 0; i < toAccounts.length; i += OPS_PER_TX) {
    const ops = toAccounts.slice(i, i + OPS_PER_TX).map((m) =>
      Operation.payment({ destination: m.to, asset: classicAsset(m.asset), amount: toDecimalString(m.amount) }),
    )
    await submit(chain, issuer, ops)
  }
  for (const m of toContracts) {
    await invoke(chain, issuer, m.asset.contract, 'mint', [addr(m.to), i128(m.amount)])
  }
}

/** SAC balance of an account or contract. */
export async function balanceOf(chain: Chain, token: string, holder: string): Promise<bigint> {
  return read<bigint>(chain, token, 'balance', [addr(holder)])
}

/** 7-decimal integer → the decimal string classic operations take ("12.3400000"). */
export function toDecimalString(amount: bigint): string {
  if (amount < 0n) throw new RangeError(`negative amount ${amount}`)
  const whole = amount / 10_000_000n
  const frac = (amount % 10_000_000n).toString().padStart(7, '0')
  return `${whole}.${frac}`
}
