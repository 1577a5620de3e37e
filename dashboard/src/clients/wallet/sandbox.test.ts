import { describe, expect, it } from 'vitest'
import { Account, Keypair, Networks, Operation, TransactionBuilder } from '@stellar/stellar-sdk'
import { assetFromSacName, keypairSigner, sandboxKeypair } from './sandbox.js'

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
})
