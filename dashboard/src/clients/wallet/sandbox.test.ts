import { describe, expect, it } from 'vitest'
import { Account, Keypair, Networks, Operation, TransactionBuilder } from '@stellar/stellar-sdk'
import { SETUP_STEPS, assetFromSacName, keypairSigner, requestTestUsdc, sandboxKeypair, stepText } from './sandbox.js'

function memoryStorage(): Storage {
  const m = new Map<string, string>()
  return {
    get length() {
      return m.size
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => void m.set(k, v),
  }
}

describe('sandbox wallet', () => {
  it('keeps one key per browser storage', () => {
    const storage = memoryStorage()
    const first = sandboxKeypair(storage)
    expect(sandboxKeypair(storage).publicKey()).toBe(first.publicKey())
    storage.setItem('pooled-liquidations.sandbox-wallet', 'not a secret')
    expect(sandboxKeypair(storage).publicKey()).not.toBe(first.publicKey())
  })

  it('reads the classic asset from a SAC name', () => {
    const issuer = Keypair.random().publicKey()
    const usdc = assetFromSacName(`USDC:${issuer}`)
    expect([usdc.getCode(), usdc.getIssuer()]).toEqual(['USDC', issuer])
    expect(assetFromSacName('native').isNative()).toBe(true)
    expect(() => assetFromSacName('USDC')).toThrow(/CODE:ISSUER/)
  })

  it('signs an envelope with the local key', async () => {
    const kp = Keypair.random()
    const tx = new TransactionBuilder(new Account(kp.publicKey(), '1'), { fee: '100', networkPassphrase: Networks.STANDALONE })
      .addOperation(Operation.bumpSequence({ bumpTo: '5' }))
      .setTimeout(30)
      .build()
    const signed = TransactionBuilder.fromXdr(await keypairSigner(kp)(tx.toXdr(), Networks.STANDALONE), Networks.STANDALONE)
    expect(signed.signatures).toHaveLength(1)
    expect(kp.verify(signed.hash(), signed.signatures[0]!.signature.toBytes())).toBe(true)
  })

  it('numbers the set-up’s steps for the wallet bar', () => {
    expect(SETUP_STEPS).toBe(3)
    expect(stepText(2, 'Adding a trustline to USDC…')).toBe('Step 2 of 3: Adding a trustline to USDC…')
  })

  it('asks the faucet for test USDC and reads what it paid', async () => {
    const calls: [string, RequestInit | undefined][] = []
    const get = (async (url: string, init?: RequestInit) => {
      calls.push([url, init])
      return new Response(JSON.stringify({ amount: '100000000000', balance: '100000000000', message: 'sent' }), { status: 200 })
    }) as typeof fetch
    expect(await requestTestUsdc('http://d/sandbox/faucet', 'GME', get)).toEqual({ amount: 100_000_000_000n, balance: 100_000_000_000n })
    expect(calls[0]![1]!.body).toBe('{"account":"GME"}')
    const refuse = (async () => new Response('gateway down', { status: 502 })) as unknown as typeof fetch
    await expect(requestTestUsdc('http://d/sandbox/faucet', 'GME', refuse)).rejects.toThrow('the USDC faucet refused (HTTP 502: gateway down)')
  })
})
