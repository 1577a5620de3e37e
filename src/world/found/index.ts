export { buildOnFoundPool, scanPool, type FoundWorldOptions } from './foundWorld.js'
export { borrowersInHintsFile, borrowersInSnapshot, borrowersInUpstreamEvents, mergeBorrowers, snapshotLedger } from './borrowers.js'
export { toOracleUnits, type ControlledOracle } from './oracleControl.js'
export type { CheatNode } from './ledgerCheats.js'
