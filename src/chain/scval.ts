import { Address, nativeToScVal, xdr } from '@stellar/stellar-sdk'

/** ScVal constructors for the argument types the project's contracts take. */
export const addr = (a: string): xdr.ScVal => new Address(a).toScVal()
export const i128 = (v: bigint): xdr.ScVal => nativeToScVal(v, { type: 'i128' })
export const u64 = (v: bigint | number): xdr.ScVal => nativeToScVal(BigInt(v), { type: 'u64' })
export const u32 = (v: number): xdr.ScVal => nativeToScVal(v, { type: 'u32' })
export const str = (v: string): xdr.ScVal => nativeToScVal(v, { type: 'string' })
export const sym = (v: string): xdr.ScVal => nativeToScVal(v, { type: 'symbol' })
export const bool = (v: boolean): xdr.ScVal => xdr.ScVal.scvBool(v)

/**
 * A contracttype struct: an ScMap whose keys are symbols sorted the way the host requires.
 *
 * @example
 * import { struct, i128, u64 } from './scval.js'
 * struct({ deposit_cap: i128(0n), withdraw_cooldown: u64(0), max_draw_per_keeper: i128(10n) })
 */
export function struct(fields: Record<string, xdr.ScVal>): xdr.ScVal {
  const keys = Object.keys(fields).sort()
  return xdr.ScVal.scvMap(keys.map((k) => new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol(k), val: fields[k]! })))
}
