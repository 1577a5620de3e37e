/**
 * The sandbox wallet: a test key generated in this browser and kept in localStorage (a reload
 * keeps the account), set up on the local sandbox network only: created by the sandbox friendbot,
 * given a USDC trustline, then USDC from the dashboard server's faucet when one is configured.
 * It signs with the local key. Never offered on a real network (see isSandbox).
 */
import { Asset, Keypair, Operation, TransactionBuilder, rpc, scValToNative } from '@stellar/stellar-sdk'
import { prepareWrite, sendSigned } from '../../../../src/chain/signed.js'
import { simulateReadAt } from '../../../../src/chain/simulate.js'
import { Reads, chainFor } from '../chain.js'
import type { DashboardConfig } from '../../config/schema.js'
import type { ConnectedWallet, EnvelopeSigner } from './types.js'

export const SANDBOX_LABEL = 'Sandbox wallet (local test key)'

const STORAGE_KEY = 'pooled-liquidations.sandbox-wallet'

/** The stored test key, or a new one (stored at once so a reload keeps it). */
export function sandboxKeypair(storage: Storage = localStorage): Keypair {
  const secret = storage.getItem(STORAGE_KEY)
  if (secret !== null) {
    try {
      return Keypair.fromSecret(secret)
    } catch {
      // A corrupt entry: replace it with a fresh key below.
    }
  }
  const kp = Keypair.random()
  storage.setItem(STORAGE_KEY, kp.secret())
  return kp
}

/** Whether a sandbox key is stored (the wallet bar reconnects it after a reload). */
export function hasSandboxKey(storage: Storage = localStorage): boolean {
  return storage.getItem(STORAGE_KEY) !== null
}

/** Signs envelopes with a key held in this page. */
export function keypairSigner(kp: Keypair): EnvelopeSigner {
  return async (envelopeXdr, networkPassphrase) => {
    const tx = TransactionBuilder.fromXdr(envelopeXdr, networkPassphrase)
    tx.sign(kp)
    return tx.toXdr()
  }
}

/**
 * The classic asset behind a Stellar Asset Contract from its `name()`: "CODE:ISSUER", or
 * "native" for XLM (no trustline needed).
 */
export function assetFromSacName(name: string): Asset {
  if (name === 'native') return Asset.native()
  const [code, issuer, ...rest] = name.split(':')
  if (code === undefined || issuer === undefined || rest.length > 0 || !/^G[A-Z2-7]{55}$/.test(issuer)) {
    throw new Error(`the USDC contract's name() is “${name}”, not CODE:ISSUER of a classic asset`)
  }
  return new Asset(code, issuer)
}

/** Progress of the set-up, in words, for the wallet bar. */
export type SetupStep = (text: string) => void

/** The set-up's steps: the account, the USDC trustline, the first test USDC. */
export const SETUP_STEPS = 3

/** A step of the set-up as the wallet bar shows it: "Step 2 of 3: Adding a trustline to USDC…". */
export function stepText(n: number, text: string): string {
  return `Step ${n} of ${SETUP_STEPS}: ${text}`
}

async function friendbot(url: string, account: string): Promise<void> {
  const res = await fetch(`${url}?addr=${encodeURIComponent(account)}`)
  if (res.ok) return
  const body = await res.text()
  // Another tab may have created it in between: that is what we wanted. The detail is the one
  // Stellar's friendbot (and the sandbox's) gives for an existing account.
  if (body.includes('account already funded to starting balance')) return
  throw new Error(`the sandbox friendbot refused to fund ${account} (HTTP ${res.status}: ${body.slice(0, 200)})`)
}

/** What the faucet paid: the amount and the balance after it (7-decimal integers), when it said. */
export interface FaucetPaid {
  amount: bigint | undefined
  balance: bigint | undefined
}

const integer = (v: unknown): bigint | undefined => (typeof v === 'string' && /^\d+$/.test(v) ? BigInt(v) : undefined)

/**
 * Asks the dashboard server's faucet (POST {account}) for test USDC for `account`.
 *
 * @throws Error with the faucet's words when it refuses
 */
export async function requestTestUsdc(url: string, account: string, get: typeof fetch = fetch): Promise<FaucetPaid> {
  const res = await get(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ account }) })
  const body = await res.text()
  if (!res.ok) {
    let message = body.slice(0, 200)
    try {
      const said = (JSON.parse(body) as { message?: unknown }).message
      if (typeof said === 'string') message = said
    } catch {
      // not JSON: its text as it is
    }
    throw new Error(`the USDC faucet refused (HTTP ${res.status}: ${message})`)
  }
  try {
    const paid = JSON.parse(body) as { amount?: unknown; balance?: unknown }
    return { amount: integer(paid.amount), balance: integer(paid.balance) }
  } catch {
    return { amount: undefined, balance: undefined }
  }
}

/**
 * Opens the sandbox wallet: the stored (or a new) key, its account created by friendbot when
 * missing, a USDC trustline when missing, and USDC from `config.faucetUrl` while its balance is 0.
 * Each step is skipped when already done, so reconnecting after a reload costs only reads.
 */
export async function openSandboxWallet(config: DashboardConfig, onStep: SetupStep = () => {}): Promise<ConnectedWallet> {
  const friendbotUrl = config.network.friendbotUrl
  if (friendbotUrl === undefined) throw new Error('the sandbox wallet needs the sandbox friendbot URL (network.friendbotUrl)')
  const kp = sandboxKeypair()
  const account = kp.publicKey()
  const sign = keypairSigner(kp)
  const chain = chainFor(config)
  const server = new rpc.Server(config.network.rpcUrl, { allowHttp: config.network.rpcUrl.startsWith('http://') })

  onStep(stepText(1, 'Looking up the test account…'))
  const exists = await server.getAccount(account).then(() => true, () => false)
  if (!exists) {
    onStep(stepText(1, 'Creating the test account with the sandbox friendbot…'))
    await friendbot(friendbotUrl, account)
  }

  onStep(stepText(2, 'Checking the USDC trustline…'))
  const { retval } = await simulateReadAt(chain, config.contracts.usdc, 'name')
  const asset = assetFromSacName(String(scValToNative(retval)))
  if (!asset.isNative()) {
    const trusted = await server.getTrustline(account, asset).then(() => true, () => false)
    if (!trusted) {
      onStep(stepText(2, `Adding a trustline to ${asset.getCode()}…`))
      const prepared = await prepareWrite(chain, account, Operation.changeTrust({ asset }))
      await sendSigned(chain, prepared, sign)
    }
  }

  if (config.faucetUrl !== undefined) {
    const balance = await new Reads(chain, config.contracts).usdcBalance(account).catch(() => 0n)
    if (balance === 0n) {
      onStep(stepText(3, 'Requesting test USDC from the faucet…'))
      await requestTestUsdc(config.faucetUrl, account)
    }
  }
  return { address: account, kind: 'sandbox', label: SANDBOX_LABEL, sign }
}
