/**
 * The sandbox USDC faucet: a classic payment of USDC from the world's USDC issuer, whose key is
 * derived from the addresses file's seed (src/world `keypairFor(seed, 'issuer')`). Offered only on
 * the sandbox network and only when the derived key is the file's USDC issuer.
 */
import { Asset, Keypair, Operation, StrKey, rpc, xdr } from '@stellar/stellar-sdk'
import { createChain, submit, type Chain } from '../../src/chain/index.js'
import { keypairFor } from '../../src/world/seed.js'
import { isSandboxNetwork, type DashboardAddresses } from './config.js'

/** The label src/world/deployWorld.ts derives the issuer of every world asset (USDC included) with. */
export const ISSUER_LABEL = 'issuer'

/** What one request pays by default: 10,000 USDC (7 decimals). */
export const DEFAULT_FAUCET_AMOUNT = 10_000n * 10_000_000n

/** A request the faucet refuses; `statusCode` 400 and a message in words. */
export class FaucetError extends Error {
  override name = 'FaucetError'
  constructor(
    message: string,
    readonly statusCode = 400,
  ) {
    super(message)
  }
}

export interface FaucetPayment {
  account: string
  /** `CODE:ISSUER`. */
  asset: string
  /** 7-decimal integer as a decimal string ("100000000000" = 10,000 USDC). */
  amount: string
  /** The account's USDC balance after the payment, same units. */
  balance: string
  txHash: string
  ledger: number
  message: string
}

export interface Faucet {
  /** The USDC issuer that pays. */
  issuer: string
  amount: bigint
  pay(account: unknown): Promise<FaucetPayment>
}

/** Why there is no faucet for these addresses, or undefined when there can be one. */
export function faucetUnavailable(a: DashboardAddresses): string | undefined {
  if (!isSandboxNetwork(a)) return 'not the sandbox network'
  if (a.seed === undefined) return 'the addresses file has no seed'
  const derived = keypairFor(BigInt(a.seed), ISSUER_LABEL).publicKey()
  if (derived !== a.assets.usdc.issuer) return `the seed ${a.seed} does not derive the file's USDC issuer ${a.assets.usdc.issuer}`
  return undefined
}

function units(v: bigint): string {
  const frac = (v % 10_000_000n).toString().padStart(7, '0').replace(/0+$/, '')
  return `${(v / 10_000_000n).toLocaleString('en-US')}${frac === '' ? '' : `.${frac}`}`
}

function decimal7(v: bigint): string {
  return `${v / 10_000_000n}.${(v % 10_000_000n).toString().padStart(7, '0')}`
}

/** The faucet for these addresses, or undefined (see faucetUnavailable). */
export function createFaucet(a: DashboardAddresses, opts: { amount?: bigint; chain?: Chain } = {}): Faucet | undefined {
  if (faucetUnavailable(a) !== undefined) return undefined
  const issuer: Keypair = keypairFor(BigInt(a.seed!), ISSUER_LABEL)
  const amount = opts.amount ?? DEFAULT_FAUCET_AMOUNT
  const chain =
    opts.chain ??
    createChain({
      rpcUrl: a.network.rpcUrl,
      networkPassphrase: a.network.networkPassphrase,
      ...(a.network.friendbotUrl === undefined ? {} : { friendbotUrl: a.network.friendbotUrl }),
    })
  const server = new rpc.Server(a.network.rpcUrl, { allowHttp: a.network.rpcUrl.startsWith('http://') })
  const code = a.assets.usdc.code
  const asset = new Asset(code, issuer.publicKey())

  async function trustline(account: string): Promise<{ exists: boolean; balance: bigint; limit: bigint } | undefined> {
    const accountId = Keypair.fromPublicKey(account).xdrAccountId()
    const accountKey = xdr.LedgerKey.account(new xdr.LedgerKeyAccount({ accountId }))
    const trustKey = xdr.LedgerKey.trustline(new xdr.LedgerKeyTrustLine({ accountId, asset: asset.toTrustLineXdrObject() }))
    const res = await server.getLedgerEntries(accountKey, trustKey)
    const kinds = res.entries.map((e) => e.val.type)
    if (!kinds.includes('account')) return { exists: false, balance: 0n, limit: 0n }
    const val = res.entries.find((e) => e.val.type === 'trustline')?.val
    const tl = val === undefined ? undefined : xdr.expectUnionVariant(val, 'trustline').trustLine
    if (tl === undefined) return undefined
    return { exists: true, balance: BigInt(tl.balance.toString()), limit: BigInt(tl.limit.toString()) }
  }

  return {
    issuer: issuer.publicKey(),
    amount,
    async pay(raw) {
      const account = typeof raw === 'string' ? raw.trim() : undefined
      if (account === undefined || account === '') throw new FaucetError('give the account to pay: {"account": "G…"}')
      if (StrKey.isValidContract(account)) throw new FaucetError(`${account} is a contract; the faucet pays accounts (G…, 56 characters)`)
      if (!StrKey.isValidEd25519PublicKey(account)) throw new FaucetError(`${JSON.stringify(account)} is not a Stellar account address (G…, 56 characters)`)
      const tl = await trustline(account)
      if (tl !== undefined && !tl.exists) {
        throw new FaucetError(`account ${account} does not exist on this network: fund it with XLM first${a.network.friendbotUrl ? ` (friendbot ${a.network.friendbotUrl})` : ''}`)
      }
      if (tl === undefined) throw new FaucetError(`account ${account} has no ${code} trustline (${code}:${issuer.publicKey()}): add a ${code} trustline first`)
      if (tl.limit - tl.balance < amount) {
        throw new FaucetError(`account ${account}'s ${code} trustline has room for ${units(tl.limit - tl.balance)} ${code}, not ${units(amount)}: raise its limit first`)
      }
      const sent = await submit(chain, issuer, Operation.payment({ destination: account, asset, amount: decimal7(amount) }))
      const balance = tl.balance + amount
      return {
        account,
        asset: `${code}:${issuer.publicKey()}`,
        amount: amount.toString(),
        balance: balance.toString(),
        txHash: sent.hash,
        ledger: sent.ledger,
        message: `sent ${units(amount)} ${code} to ${account} (balance ${units(balance)} ${code})`,
      }
    },
  }
}
