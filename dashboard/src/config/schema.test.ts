import { describe, expect, it } from 'vitest'
import { isSandbox, mergePatches, parseConfig, patchFromParams, SANDBOX_PASSPHRASE } from './schema.js'

const VAULT = 'CBYYP64QJSE3B6CB6IEL77DJZZWF435EVINT7R2QWFD7ISJQ5CLPTB5W'
const REGISTRY = 'CCK5TNPGAY6EUXSLB4V7ADIGKARCRWN6NL2WHMTJUYJQ2KNAJYFT5FGA'
const USDC = 'CCCU4CAD5V4BWKVHA5TILOECSDBQOTGO2KA2UZZLFT6ZRQ7RPZK5WMP7'

describe('dashboard configuration', () => {
  it('reads URL parameters and lets later sources win field by field', () => {
    const server = { network: { rpcUrl: 'http://127.0.0.1:8000/rpc', networkPassphrase: SANDBOX_PASSPHRASE, friendbotUrl: 'http://127.0.0.1:8000/friendbot' }, contracts: { vault: VAULT, registry: REGISTRY, usdc: USDC } }
    const url = patchFromParams(new URLSearchParams('rpc=http://10.0.0.2:8000/rpc&keepers=http://a:1, http://b:2'))
    const parsed = parseConfig(mergePatches(server, url))
    expect(parsed.ok).toBe(true)
    if (!parsed.ok) return
    expect(parsed.config.network.rpcUrl).toBe('http://10.0.0.2:8000/rpc')
    expect(parsed.config.network.networkPassphrase).toBe(SANDBOX_PASSPHRASE)
    expect(parsed.config.keeperApis).toEqual(['http://a:1', 'http://b:2'])
    expect(isSandbox(parsed.config)).toBe(true)
  })

  it('takes the keepers API token from the URL (the demo links to it) and from saved settings', () => {
    const server = { network: { rpcUrl: 'http://127.0.0.1:8000/rpc', networkPassphrase: SANDBOX_PASSPHRASE }, contracts: { vault: VAULT, registry: REGISTRY, usdc: USDC } }
    const parsed = parseConfig(mergePatches(server, { keeperToken: 'saved-token-0123456789' }, patchFromParams(new URLSearchParams('keeperToken=url-token-0123456789'))))
    expect(parsed.ok && parsed.config.keeperToken).toBe('url-token-0123456789')
    const none = parseConfig(server)
    expect(none.ok && none.config.keeperToken).toBeUndefined()
  })

  it('names every field that is missing or malformed', () => {
    const parsed = parseConfig({ network: { rpcUrl: 'not a url', networkPassphrase: 'x' }, contracts: { vault: 'GABC', registry: REGISTRY } })
    expect(parsed.ok).toBe(false)
    if (parsed.ok) return
    expect(parsed.problems.some((p) => p.startsWith('network.rpcUrl'))).toBe(true)
    expect(parsed.problems.some((p) => p.startsWith('contracts.vault'))).toBe(true)
    expect(parsed.problems.some((p) => p.startsWith('contracts.usdc'))).toBe(true)
  })

  it('offers the sandbox wallet only on the sandbox network', () => {
    const parsed = parseConfig({ network: { rpcUrl: 'https://soroban-testnet.stellar.org', networkPassphrase: 'Test SDF Network ; September 2015', friendbotUrl: 'https://friendbot.stellar.org' }, contracts: { vault: VAULT, registry: REGISTRY, usdc: USDC } })
    expect(parsed.ok && isSandbox(parsed.config)).toBe(false)
  })
})
