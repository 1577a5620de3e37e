import { Keypair } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { createChain } from '../../chain/index.js'
import { configSecrets, redactText, redactUrl, redactingDestination } from './redact.js'

describe('redactUrl', () => {
  it('leaves a URL without credentials exactly as written', () => {
    for (const u of ['https://soroban-testnet.stellar.org', 'http://127.0.0.1:8000/rpc', 'https://rpc.example.org/stellar_soroban?network=testnet']) {
      expect(redactUrl(u)).toBe(u)
    }
  })

  it('masks userinfo whole, the user name included', () => {
    expect(redactUrl('https://alice:s3cret@rpc.example.org/rpc')).toBe('https://***@rpc.example.org/rpc')
    expect(redactUrl('https://APIKEY123456@rpc.example.org/')).toBe('https://***@rpc.example.org/')
  })

  it('masks the values of key- and token-like query parameters and keeps the others', () => {
    expect(redactUrl('https://rpc.example.org/rpc?apikey=abc123&network=mainnet')).toBe('https://rpc.example.org/rpc?apikey=***&network=mainnet')
    for (const name of ['api_key', 'key', 'token', 'access_token', 'X-Api-Key', 'auth', 'secret', 'signature']) {
      const out = redactUrl(`https://rpc.example.org/?${name}=verysecretvalue`)
      expect(out, name).toBe(`https://rpc.example.org/?${encodeURIComponent(name)}=***`)
      expect(out).not.toContain('verysecretvalue')
    }
  })

  it('masks a long path segment mixing letters and digits (a key in the path) and keeps word-like ones', () => {
    expect(redactUrl('https://rpc.example.org/stellar_soroban/3f9c2b7a8d1e4f60a9b2c3d4e5f60718')).toBe('https://rpc.example.org/stellar_soroban/***')
    expect(redactUrl('https://frosty.stellar-mainnet.quiknode.pro/a1b2c3d4e5f6a7b8c9d0e1f2/')).toBe('https://frosty.stellar-mainnet.quiknode.pro/***/')
    expect(redactUrl('https://rpc.example.org/soroban-testnet-archive-node/rpc')).toBe('https://rpc.example.org/soroban-testnet-archive-node/rpc')
  })

  it('returns what is not a URL unchanged', () => {
    expect(redactUrl('not a url')).toBe('not a url')
  })
})

describe('redactText', () => {
  it('masks every URL in a text and every named secret', () => {
    const line = '{"msg":"cannot reach https://u:p4ss@rpc.example.org/rpc?token=t0k3n (ECONNREFUSED)","seed":"SXYZ"}'
    const out = redactText(line, ['SXYZ'])
    expect(out).toBe('{"msg":"cannot reach https://***@rpc.example.org/rpc?token=*** (ECONNREFUSED)","seed":"***"}')
  })
})

describe('a malformed RPC URL in a configuration error', () => {
  it('does not show its password', async () => {
    const { parseConfig, ConfigError } = await import('./config.js')
    const env = { KEEPER_SECRET: Keypair.random().secret(), REGISTRY_CONTRACT: 'CA3D5KRYM6CB7OWQ6TWYRR3Z4T7GNZLKERYNZGGA5SOAOPIFY6YQGAXE', VAULT_CONTRACT: 'CBIELTK6YBZJU5UP2WWQEUCYKLPU6AUNZ2BQ4WWFEIE3USCIHMXQDAMA' }
    for (const [key, value] of [['CONTRACT_RPC', 'ftp://u:pw-zz77@rpc.example.org'], ['HISTORY_API_URL', 'wss://u:pw-zz77@rpc.example.org']]) {
      try {
        parseConfig({ ...env, [key!]: value })
        throw new Error('expected a ConfigError')
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError)
        expect((err as InstanceType<typeof ConfigError>).problems).toHaveLength(1)
        expect((err as InstanceType<typeof ConfigError>).problems[0]).toMatch(new RegExp(`^${key} must be an http\\(s\\) URL.*got "[a-z]+://\\*\\*\\*@rpc\\.example\\.org"$`))
      }
    }
  })
})

describe('the keeper masks credentials', () => {
  const keypair = Keypair.random()
  const config = { rpcUrl: 'https://bob:hunter22@rpc.example.org/v1/0a1b2c3d4e5f6a7b8c9d0e1f?apikey=k3y-123', historyApiUrl: 'https://archive.example.org/?access_token=histtok3n', apiToken: 'tok-abcdefghijklmnop', keypair }

  it('in every log line written through its destination, even where the URL is split or quoted in pieces', () => {
    const lines: string[] = []
    const dest = redactingDestination({ write: (l: string) => lines.push(l) }, configSecrets(config))
    dest.write(`{"rpc":"${config.rpcUrl}","err":"401 for key k3y-123 and hunter22","token":"tok-abcdefghijklmnop","s":"${keypair.secret()}","h":"histtok3n"}\n`)
    const out = lines.join('')
    for (const secret of ['hunter22', 'k3y-123', '0a1b2c3d4e5f6a7b8c9d0e1f', 'tok-abcdefghijklmnop', keypair.secret(), 'histtok3n']) expect(out).not.toContain(secret)
    expect(out).toContain('rpc.example.org')
  })

  it('in the error a chain built from such a URL gives when the node is unreachable', async () => {
    const chain = createChain({ rpcUrl: 'http://carol:pa55word99@127.0.0.1:9/rpc?apikey=zzz999', networkPassphrase: 'x' })
    const err = await chain.server.getLatestLedger().then(
      () => undefined,
      (e: unknown) => e as Error,
    )
    expect(err?.message).toMatch(/cannot reach the RPC at http:\/\/\*\*\*@127\.0\.0\.1:9\/rpc\?apikey=\*\*\*/)
    expect(err?.message).not.toContain('pa55word99')
    expect(err?.message).not.toContain('zzz999')
  })
})
