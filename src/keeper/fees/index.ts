export { KeeperFees, type KeeperFeesParameters } from './keeperFees.js'
export { FeeStatsCache, type FeeStatsSource } from './feeStats.js'
