import { addr, read, type Chain } from '../../chain/index.js'
import { toBigInt } from './convert.js'

/** SEP-41 token balance (a Stellar Asset Contract answers the same call). */
export async function tokenBalance(chain: Chain, token: string, holder: string): Promise<bigint> {
  return toBigInt(await read(chain, token, 'balance', [addr(holder)]))
}
