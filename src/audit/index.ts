// Public API of the invariant auditor. Import from here.

export { audit, auditSnapshot, INVARIANT_CHECKS } from './audit.js'
export { ChainReadError } from './errors.js'
export type { AuditAddresses, AuditOptions, AuditReport, InvariantResult, Offender } from './types.js'
export { connect, type AuditConnection, type AuditRpc, type AuditTarget } from './rpc.js'
export { readSnapshot, type AuditSnapshot, type KeeperDraw, type Wiring } from './snapshot.js'
export { readVaultHistory, decodeVaultEvent, type VaultEvent, type VaultHistory } from './events.js'
export type { DepositorRecord, KeeperRecord, RegistrySettings, VaultBooks, VaultSettings } from './reads.js'
export { formatAmount } from './format.js'

export { checkVaultUsdc, VAULT_USDC } from './invariants/vaultUsdc.js'
export { checkShares, SHARES } from './invariants/shares.js'
export { checkDraws, DRAWS } from './invariants/draws.js'
export { checkRegistryStake, REGISTRY_STAKE } from './invariants/registryStake.js'
export { checkProfit, PROFIT } from './invariants/profit.js'
export {
  replayBackward,
  priceFell,
  bookedProfit,
  profitLocks,
  freeTotals,
  type BookStep,
  type LockStep,
  type ProfitLocks,
  type Replay,
  type Totals,
} from './invariants/replay.js'
export { checkDepositorBalances, DEPOSITOR_BALANCES } from './invariants/depositorBalances.js'
export { checkSlashable, SLASHABLE } from './invariants/slashable.js'
export { checkWiring, WIRING } from './invariants/wiring.js'
export { checkDrawLimits, DRAW_LIMITS } from './invariants/drawLimits.js'
export { checkWriteOffs, WRITE_OFFS } from './invariants/writeOffs.js'
export { checkLockedProfit, LOCKED_PROFIT } from './invariants/lockedProfit.js'
export { checkPendingShares, PENDING_SHARES } from './invariants/pendingShares.js'
