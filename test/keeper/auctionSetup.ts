/**
 * Test helpers for the executor's end-to-end suites: the pool valued as the keeper values it,
 * and a user liquidation opened at a percent the pool accepts.
 */
import { xdr, type Keypair, type rpc } from '@stellar/stellar-sdk'
import { expect } from 'vitest'
import { addr, invoke, u32 } from '../../src/chain/index.js'
import { chooseLiquidationPercent } from '../../src/keeper/adapters/blend/liquidationPercent.js'
import { loadAuction, loadPool } from '../../src/keeper/adapters/blend/loadPool.js'
import { loadOraclePrices } from '../../src/keeper/adapters/blend/oracle.js'
import { valuationReserves } from '../../src/keeper/adapters/blend/scan.js'
import { AuctionType, type AuctionData } from '../../src/keeper/adapters/blend/storage.js'
import type { World } from '../../src/world/index.js'

/** Reserves accrued to now and oracle prices, as the keeper values an auction. */
export async function valuation(server: rpc.Server, world: World, users: string[], pool = world.blend.pool) {
  const snap = await loadPool(server, pool, users)
  const prices = await loadOraclePrices(world.chain, snap.config.oracle, snap.reserveList)
  const latest = await server.getLatestLedger()
  const now = BigInt(Math.max(Math.floor(Date.now() / 1000), Number(latest.closeTime ?? 0)))
  const reserves = valuationReserves(snap.reserves, snap.config.bstop_rate, now)
  return { snap, prices, reserves, latest: latest.sequence }
}

/**
 * Opens the user's liquidation auction in `pool` (default the world's first) at a percent the
 * pool accepts (sent by `keeper`) and reads it back.
 */
export async function openAuction(server: rpc.Server, world: World, keeper: Keypair, user: string, pool = world.blend.pool): Promise<AuctionData> {
  const { snap, prices, reserves } = await valuation(server, world, [user], pool)
  const positions = snap.positions.get(user)!
  const v = { reserveList: snap.reserveList, reserves, prices: prices.prices, oracleDecimals: prices.decimals }
  const percent = chooseLiquidationPercent(v, positions)
  expect(percent, 'the borrower is liquidatable').toBeDefined()
  const bid = [...positions.liabilities.keys()].map((i) => addr(snap.reserveList[i]!))
  const lot = [...positions.collateral.keys()].map((i) => addr(snap.reserveList[i]!))
  await invoke(world.chain, keeper, pool, 'new_auction', [
    u32(AuctionType.UserLiquidation),
    addr(user),
    xdr.ScVal.scvVec(bid),
    xdr.ScVal.scvVec(lot),
    u32(percent!),
  ])
  const auction = await loadAuction(server, pool, AuctionType.UserLiquidation, user)
  expect(auction).toBeDefined()
  return auction!
}
