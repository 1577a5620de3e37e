/** Helpers to read contract structs decoded by `scValToNative`: src/chain/records' own. */
export { asRecord, pick, toBigInt, toBool, toNumber, toStr } from '../../chain/records/convert.js'
