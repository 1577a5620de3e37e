/**
 * A Soroswap-interface router as a swap {@link Venue}, through src/chain:
 * quote = simulate `router_get_amounts_out(amount_in, path)` (last element);
 * swap = submit `swap_exact_tokens_for_tokens(amount_in, amount_out_min, path, to, deadline)`.
 */
import { xdr, type Keypair } from '@stellar/stellar-sdk'
import { addr, ContractError, i128, invoke, simulateRead, u64, type Chain } from '../../chain/index.js'
import { ErrSlippageExceeded } from './errors.js'
import type { Venue } from './swapToUsdc.js'

/** Router error for "output below amount_out_min" (contracts/dex-router RouterError). */
export const ROUTER_INSUFFICIENT_OUTPUT = 353

function i128Of(v: xdr.ScVal): bigint {
  const p = xdr.expectUnionVariant(v, 'scvI128').i128
  return (BigInt(p.hi.toString()) << 64n) | BigInt(p.lo.toString())
}

export interface RouterVenueParameters {
  chain: Chain
  keypair: Keypair
  router: string
  name?: string
  /** Seconds the swap stays valid (deadline = now + this). */
  deadlineSeconds?: number
  /** Clock for the deadline (ms; default Date.now). */
  now?: () => number
}

export function routerVenue(p: RouterVenueParameters): Venue {
  const name = p.name ?? `router:${p.router.slice(0, 6)}`
  const pathVal = (path: readonly string[]) => xdr.ScVal.scvVec(path.map(addr))
  return {
    name,
    async quote(amountIn, path) {
      const v = await simulateRead(p.chain, p.router, 'router_get_amounts_out', [i128(amountIn), pathVal(path)], {
        source: p.keypair.publicKey(),
      })
      const amounts = xdr.expectUnionVariant(v, 'scvVec').vec ?? []
      const last = amounts[amounts.length - 1]
      if (last === undefined) throw new Error('router returned no amounts')
      return i128Of(last)
    },
    async swap(amountIn, amountOutMin, path) {
      const deadline = BigInt(Math.floor((p.now ?? Date.now)() / 1000) + (p.deadlineSeconds ?? 300))
      try {
        const res = await invoke(p.chain, p.keypair, p.router, 'swap_exact_tokens_for_tokens', [
          i128(amountIn),
          i128(amountOutMin),
          pathVal(path),
          addr(p.keypair.publicKey()),
          u64(deadline),
        ])
        return { txHash: res.hash }
      } catch (err) {
        if (err instanceof ContractError && err.code === ROUTER_INSUFFICIENT_OUTPUT) {
          throw new ErrSlippageExceeded(name, amountOutMin)
        }
        throw err
      }
    },
  }
}
