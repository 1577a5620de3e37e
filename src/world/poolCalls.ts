import { scValToNative, type Keypair } from '@stellar/stellar-sdk'
import { addr, invoke, simulateRead, type Chain } from '../chain/index.js'
import { blendRequest, vec } from './scval.js'
import type { BlendPositions } from './types.js'

/** `pool.submit(user, user, user, requests)`. */
export async function poolSubmit(chain: Chain, user: Keypair, pool: string, requests: ReturnType<typeof blendRequest>[]) {
  const me = addr(user.publicKey())
  return invoke(chain, user, pool, 'submit', [me, me, me, vec(requests)])
}

/** `pool.get_positions(user)` with the maps keyed by reserve index. */
export async function readPositions(chain: Chain, pool: string, user: string): Promise<BlendPositions> {
  const raw = scValToNative(await simulateRead(chain, pool, 'get_positions', [addr(user)])) as Record<
    'collateral' | 'liabilities' | 'supply',
    Record<string, bigint>
  >
  const toMap = (o: Record<string, bigint>) => new Map(Object.entries(o).map(([k, v]) => [Number(k), BigInt(v)]))
  return { collateral: toMap(raw.collateral), liabilities: toMap(raw.liabilities), supply: toMap(raw.supply) }
}
