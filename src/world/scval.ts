import { Address, nativeToScVal, xdr } from '@stellar/stellar-sdk'
import { addr, i128, struct, u32 } from '../chain/index.js'

/** ScVal constructors the world needs beyond src/chain's. */
export const vec = (items: readonly xdr.ScVal[]): xdr.ScVal => xdr.ScVal.scvVec([...items])
export const bytes = (b: Uint8Array): xdr.ScVal => xdr.ScVal.scvBytes(Buffer.from(b))
export const none = (): xdr.ScVal => xdr.ScVal.scvVoid()
export const addrs = (list: readonly string[]): xdr.ScVal => vec(list.map(addr))
export const i128s = (list: readonly bigint[]): xdr.ScVal => vec(list.map(i128))

/** SEP-40 `Asset::Stellar(address)` (a contracttype enum: `[Symbol("Stellar"), address]`). */
export const sep40Asset = (asset: string): xdr.ScVal => vec([xdr.ScVal.scvSymbol('Stellar'), addr(asset)])

/** Blend `Request { request_type, address, amount }`. */
export const blendRequest = (requestType: number, address: string, amount: bigint): xdr.ScVal =>
  struct({ address: addr(address), amount: i128(amount), request_type: u32(requestType) })

/** A `Vec<(Address, i128)>` that is empty (the backstop's drop list). */
export const emptyVec = (): xdr.ScVal => vec([])

export const isContract = (a: string): boolean => a.startsWith('C')

export { Address, nativeToScVal }
