/**
 * What the browser build gets for `@stellar/stellar-sdk` (vite.config.ts aliases it here): the
 * SDK's base (transactions, XDR, keys, addresses) and its RPC client, without Horizon, the
 * contract bindings and the rest the dashboard never calls — about 70 KB gzipped less than the
 * SDK's smallest prebuilt bundle. The same published packages, only fewer of their modules.
 */
export * from '@stellar/stellar-base'
export * as rpc from '@stellar/stellar-sdk/minimal/rpc'
