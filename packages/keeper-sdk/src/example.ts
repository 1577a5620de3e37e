/** `@pooled-liquidations/keeper-sdk/example`: the round-trip example adapter (src/keeper/adapters/example). */
export * from '../../../src/keeper/adapters/example/index.js'
