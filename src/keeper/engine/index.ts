export { ExecutionEngine, errorTag, type CapitalLimits, type EngineParameters, type ExecutionView } from './engine.js'
export { ManualLedgerClock, OBSERVED_SPAN, RpcLedgerClock, type LedgerClock, type LedgerInfo, type LedgerSource } from './ledgerClock.js'
export { leadLedgers, orderDue } from './order.js'
