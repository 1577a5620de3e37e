/**
 * The service's part of a scenario's world in the chain's units: keepers, depositors and their
 * money, the vault's and the registry's configuration. The same whether the world is deployed
 * (setup.ts) or found in a snapshot or a fork (found.ts).
 */
import type { ServiceSettings } from '../../src/world/service.js'
import type { Scenario } from './scenario/schema.js'

/** USD (a plain number) as a 7-decimal integer. */
export const usd = (x: number): bigint => BigInt(Math.round(x * 1e7))

/** A keeper account gets its stake (min_stake, or its bond when larger) and 10,000 USDC to spare. */
export function serviceSettings(s: Scenario): ServiceSettings {
  return {
    keepers: s.keepers.count,
    depositors: s.world.depositors.count,
    depositAmount: usd(s.world.depositors.amount),
    keeperUsdc: usd(Math.max(s.world.registry.minStake, s.keepers.bond, ...s.keepers.individual.map((o) => o.bond ?? 0))) + usd(10_000),
    vaultConfig: {
      depositCap: usd(s.world.vault.depositCap),
      withdrawCooldown: BigInt(Math.round(s.world.vault.withdrawCooldown)),
      maxDrawPerKeeper: usd(s.world.vault.maxDrawPerKeeper),
      keeperFeeBps: s.world.vault.keeperFeeBps,
      profitUnlockSecs: BigInt(Math.round(s.world.vault.profitUnlockSecs)),
    },
    registryConfig: {
      minStake: usd(s.world.registry.minStake),
      slashTimeout: BigInt(Math.round(s.world.registry.slashTimeout)),
      slashRateBps: s.world.registry.slashRateBps,
    },
  }
}
