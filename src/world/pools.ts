import type { Keypair } from '@stellar/stellar-sdk'
import type { Chain } from '../chain/index.js'
import { COMET_LP_MINTED, REQUEST, deployPool, type BlendProtocol, type ReserveConfig } from './blend.js'
import { blendRequest } from './scval.js'
import { poolSubmit } from './poolCalls.js'
import type { WorldAsset } from './assets.js'

const UNIT = 10_000_000n
/** Most lending pools a deployed world opens (the admin's Comet LP backs four backstop deposits). */
export const MAX_POOLS = 4
/** Comet LP tokens the admin puts in each pool's backstop (Blend's own fixture uses 50k). */
export const BACKSTOP_DEPOSIT = 50_000n * UNIT

/** Validates `DeployWorldOptions.pools` (default 1): an integer in 1..MAX_POOLS. */
export function poolCount(pools: number | undefined): number {
  const n = pools ?? 1
  if (!Number.isInteger(n) || n < 1 || n > MAX_POOLS) throw new RangeError(`pools must be an integer from 1 to ${MAX_POOLS} (got ${n})`)
  if (BACKSTOP_DEPOSIT * BigInt(n) > COMET_LP_MINTED) {
    throw new RangeError(`${n} pools need ${BACKSTOP_DEPOSIT * BigInt(n)} Comet LP for their backstops; the admin holds ${COMET_LP_MINTED}`)
  }
  return n
}

/** The pool (index into the world's pools) borrower `i` opens its position in: `i % pools`. */
export function poolIndexOf(borrower: number, pools: number): number {
  return borrower % pools
}

/** A borrower to open: supply `collateral` of its asset as collateral, borrow `borrowed` USDC. */
export interface PlannedPosition {
  keypair: Keypair
  collateralAsset: WorldAsset
  collateral: bigint
  borrowed: bigint
}

export interface OpenPoolsParameters {
  chain: Chain
  protocol: BlendProtocol
  admin: Keypair
  lender: Keypair
  seed: bigint
  /** How many pools (validated by `poolCount`). */
  pools: number
  salt: (label: string) => Uint8Array
  oracle: string
  usdc: string
  /** Reserve assets in index order, and their configurations. */
  reserves: readonly string[]
  reserveConfigs: readonly ReserveConfig[]
  /** USDC the lender supplies to each pool. */
  lenderSupply: bigint
  /** Every borrower in order; borrower i opens in pool `poolIndexOf(i, pools)`. */
  borrowers: readonly PlannedPosition[]
  log: (line: string) => void
}

/**
 * Deploys the world's lending pools one after another from the same protocol (factory and
 * backstop), oracle and reserves: for each, `deployPool` with its own name and salt (the first
 * pool keeps `world-<seed>` and `salt/pool`, so a one-pool world is what it always was; pool k
 * after it is `world-<seed>-<k>` with `salt/pool/<k>`), a backstop deposit of BACKSTOP_DEPOSIT,
 * the lender's USDC supply, then that pool's borrowers, one after another in borrower order.
 * Returns the pool addresses in order.
 */
export async function openPools(p: OpenPoolsParameters): Promise<string[]> {
  const pools: string[] = []
  for (let k = 0; k < p.pools; k++) {
    p.log(k === 0 ? 'blend pool' : `blend pool ${k + 1}`)
    const pool = await deployPool(p.chain, p.protocol, {
      admin: p.admin,
      name: k === 0 ? `world-${p.seed}` : `world-${p.seed}-${k}`,
      salt: p.salt(k === 0 ? 'pool' : `pool/${k}`),
      oracle: p.oracle,
      backstopTakeRate: 1_000_000,
      maxPositions: 6,
      minCollateral: 1n * UNIT,
      reserves: p.reserves.map((asset, i) => ({ asset, config: p.reserveConfigs[i]! })),
      backstopDeposit: BACKSTOP_DEPOSIT,
    })
    pools.push(pool)

    p.log(k === 0 ? 'lender and borrowers' : `lender and borrowers, pool ${k + 1}`)
    await poolSubmit(p.chain, p.lender, pool, [blendRequest(REQUEST.supply, p.usdc, p.lenderSupply)])
    // One after another: each borrow accrues the reserve, so the order fixes every d-token amount
    // (on a seeded node with one ledger per transaction the same seed gives the same positions).
    for (const [i, b] of p.borrowers.entries()) {
      if (poolIndexOf(i, p.pools) !== k) continue
      await poolSubmit(p.chain, b.keypair, pool, [
        blendRequest(REQUEST.supplyCollateral, b.collateralAsset.contract, b.collateral),
        blendRequest(REQUEST.borrow, p.usdc, b.borrowed),
      ])
    }
  }
  return pools
}
