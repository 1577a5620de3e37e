export { runCycle, refreshState } from './cycle.js'
export { recoverStaleDraw, type RecoveryOutcome } from './recovery.js'
export { PollLoop, type PollLoopParameters } from './scheduler.js'
export type { CycleDeps, CycleRegistry, CycleReport, CycleVault } from './types.js'
