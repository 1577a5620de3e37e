/** A crash on a sandbox world, one borrower at a time: the keeper end-to-end suites' price drops. */
import type { Borrower, World } from '../../src/world/index.js'

/**
 * Drops the oracle price of `asset` so that its borrower with the lowest health factor not yet in
 * `targeted` lands at `targetHf` (7 decimals; health factor is linear in the collateral price, the
 * debt is USDC), adds that borrower to `targeted` and returns it.
 */
export async function pushUnder(world: World, asset: World['collaterals'][number], targeted: Set<string>, targetHf: bigint): Promise<Borrower> {
  const b = world.borrowers
    .filter((x) => x.collateralAsset.contract === asset.contract && !targeted.has(x.address))
    .sort((x, y) => (x.targetHealthFactor < y.targetHealthFactor ? -1 : 1))[0]!
  targeted.add(b.address)
  const initial = BigInt(world.addresses.assets.collateral.find((c) => c.contract === asset.contract)!.price)
  const now = world.price(asset.contract)
  const hfNow = (b.targetHealthFactor * now) / initial
  await world.setPrice(asset.contract, (now * targetHf) / hfNow)
  return b
}
