/**
 * Contract values (ScVal) as people read them on a transaction page: every i128 and u128 is a
 * 7-decimal amount ("100.0000000 USDC", never the raw "1000000000"), with its unit when the
 * contract says what it counts (the vault's USDC and shares, a token's code); maps and lists keep
 * their shape. The raw decoding (`valueText`) stays beside each value for a tooltip.
 */
import { scValToNative, type xdr } from '@stellar/stellar-sdk'
import { formatAmount } from '../logic/amounts.js'

/** A value for people (`text`) and as the contract holds it (`raw`: integers in base units). */
export interface TxValue {
  text: string
  raw: string
}

/** The unit of an amount: by the map key it sits under (undefined at the top level). */
export type AmountUnit = (key: string | undefined) => string | undefined

const hex = (bytes: ArrayLike<number>): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')

/** A decoded ScVal as short text: bigints as integers, bytes as hex, maps and lists as JSON. */
export function valueText(v: xdr.ScVal): string {
  const native: unknown = scValToNative(v)
  if (typeof native === 'string') return native
  if (typeof native === 'bigint') return native.toString()
  return JSON.stringify(native, (_k, x: unknown) => {
    if (typeof x === 'bigint') return x.toString()
    if (x instanceof Uint8Array) return hex(x)
    if (typeof x === 'object' && x !== null && (x as { type?: unknown }).type === 'Buffer') return hex((x as { data: number[] }).data)
    return x
  })
}

/** The fields of an ScVal this reads: its arm's name and, for a map or a list, what it holds. */
interface Shape {
  type: string
  map?: { key: xdr.ScVal; val: xdr.ScVal }[] | null
  vec?: xdr.ScVal[] | null
}

const AMOUNT_TYPES = new Set(['scvI128', 'scvU128'])

function amountText(v: xdr.ScVal, unit: string | undefined): string {
  const n = scValToNative(v) as bigint
  return unit === undefined ? formatAmount(n) : `${formatAmount(n)} ${unit}`
}

/** The people's text of `v`, amounts in `unit(key)` (see the file comment). */
export function displayText(v: xdr.ScVal, unit: AmountUnit = () => undefined, key?: string): string {
  const s = v as unknown as Shape
  if (AMOUNT_TYPES.has(s.type)) return amountText(v, unit(key))
  if (s.type === 'scvMap') {
    return `{${(s.map ?? []).map((e) => {
      const k = valueText(e.key)
      return `${k}: ${displayText(e.val, unit, k)}`
    }).join(', ')}}`
  }
  if (s.type === 'scvVec') return `[${(s.vec ?? []).map((x) => displayText(x, unit, key)).join(', ')}]`
  return valueText(v)
}

/** `v` for people and raw. */
export function txValue(v: xdr.ScVal, unit?: AmountUnit): TxValue {
  return { text: displayText(v, unit), raw: valueText(v) }
}

/** The dashboard's contracts, to name the units of their amounts. */
export interface KnownContracts {
  vault?: string
  registry?: string
  usdc?: string
}

const SHARE_ARGS: Record<string, true> = { withdraw: true, request_withdraw: true }
const TOKEN_EVENTS = new Set(['transfer', 'mint', 'burn', 'clawback', 'approve'])

/**
 * The unit of the amounts of a contract call (`fn`) or event (`topics`) of `contract`: a key
 * naming shares counts vault shares; the vault's other amounts, the registry's and the USDC
 * token's are USDC; a Stellar Asset Contract's event names its asset (`CODE:ISSUER`, `native`)
 * in its last topic; anything else has no unit.
 */
export function unitFor(contract: string | undefined, known: KnownContracts, call: { fn?: string; topics?: readonly string[] }): AmountUnit {
  const tokenTopic = call.topics !== undefined && TOKEN_EVENTS.has(call.topics[0] ?? '') ? call.topics[call.topics.length - 1] : undefined
  const token = tokenTopic === 'native' ? 'XLM' : tokenTopic !== undefined && /^[A-Za-z0-9]{1,12}:G[A-Z2-7]{55}$/.test(tokenTopic) ? tokenTopic.split(':')[0] : undefined
  return (key) => {
    if (key !== undefined && /shares/i.test(key)) return 'shares'
    if (contract !== undefined && contract === known.vault) return key === undefined && call.fn !== undefined && SHARE_ARGS[call.fn] ? 'shares' : 'USDC'
    if (token !== undefined) return token
    if (contract !== undefined && (contract === known.registry || contract === known.usdc)) return 'USDC'
    return undefined
  }
}
