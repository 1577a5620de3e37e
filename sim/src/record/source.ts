/**
 * Where a found world's run started (report.json `source`): the snapshot file and its hash or the
 * fork's upstream and ledger, and the real pool's figures at that state, before the harness
 * added anything: each reserve's price, supply, borrowing and utilisation, and every borrower's
 * health factor, valued by the keeper's scanner with src/core.
 */
import { toAssetFromBToken, toAssetFromDToken, utilization } from '../../../src/core/index.js'
import type { ScanResult } from '../../../src/keeper/adapters/blend/scan.js'
import type { World, WorldSource } from '../../../src/world/index.js'

export interface ReportSource extends WorldSource {
  start: {
    reserves: {
      asset: string
      code: string
      /** Oracle price in the oracle's base. */
      price: number
      supplied: number
      borrowed: number
      /** Borrowed / supplied. */
      utilisation: number
      cFactor: number
      lFactor: number
    }[]
    /** Users with liabilities, lowest health factor first. */
    borrowers: { address: string; healthFactor: number; collateral: number; liabilities: number }[]
    /** Borrowers under health factor 1 at the start. */
    liquidatable: number
  }
}

const r7 = (x: number) => Math.round(x * 1e7) / 1e7
const units = (x: bigint, decimals = 7) => Number(x) / 10 ** decimals

export function describeSource(world: World & { startScan?: ScanResult }): ReportSource | undefined {
  const source = world.source
  const scan = world.startScan
  if (source === undefined || scan === undefined) return undefined
  const reserves = scan.snapshot.reserveList.map((asset) => {
    const r = scan.valuation.reserves.get(asset) ?? scan.snapshot.reserves.get(asset)!
    const price = scan.prices.prices.get(asset)?.price ?? 0n
    let code = asset
    try {
      code = world.asset(asset).code
    } catch {
      // A reserve the world holds no asset for keeps its contract id.
    }
    return {
      asset,
      code,
      price: r7(units(price, scan.prices.decimals)),
      supplied: r7(units(toAssetFromBToken(r.data, r.data.b_supply))),
      borrowed: r7(units(toAssetFromDToken(r.data, r.data.d_supply))),
      utilisation: r7(units(utilization(r.data))),
      cFactor: r7(units(BigInt(r.config.c_factor))),
      lFactor: r7(units(BigInt(r.config.l_factor))),
    }
  })
  const borrowers = scan.borrowers
    .filter((b) => b.positions.liabilities.size > 0)
    .map((b) => ({
      address: b.user,
      healthFactor: r7(Math.min(b.healthFactor, 1e9)),
      collateral: r7(units(b.data.collateralBase, scan.prices.decimals)),
      liabilities: r7(units(b.data.liabilityBase, scan.prices.decimals)),
    }))
    .sort((a, b) => a.healthFactor - b.healthFactor || (a.address < b.address ? -1 : 1))
  return { ...source, start: { reserves, borrowers, liquidatable: borrowers.filter((b) => b.healthFactor < 1).length } }
}
