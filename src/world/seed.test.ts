import { Address, Keypair, Networks, hash } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { SeededRandom, contractAddress, keypairFor } from './seed.js'

describe('world seed', () => {
  it('derives the same keypair for the same seed and label, others differ', () => {
    expect(keypairFor(7n, 'admin').publicKey()).toBe(keypairFor(7n, 'admin').publicKey())
    expect(keypairFor(7n, 'admin').publicKey()).not.toBe(keypairFor(8n, 'admin').publicKey())
    expect(keypairFor(7n, 'admin').publicKey()).not.toBe(keypairFor(7n, 'issuer').publicKey())
  })

  it('computes the contract id the network assigns to a deployer and salt', () => {
    const deployer = Keypair.fromRawEd25519Seed(hash(Buffer.from('d'))).publicKey()
    const a = contractAddress(Networks.TESTNET, deployer, hash(Buffer.from('s1')))
    expect(a).toMatch(/^C[A-Z2-7]{55}$/)
    expect(() => Address.fromString(a)).not.toThrow()
    expect(contractAddress(Networks.TESTNET, deployer, hash(Buffer.from('s2')))).not.toBe(a)
    expect(contractAddress(Networks.PUBLIC, deployer, hash(Buffer.from('s1')))).not.toBe(a)
  })

  it('generates a reproducible sequence within bounds', () => {
    const a = new SeededRandom(42n)
    const b = new SeededRandom(42n)
    const xs = Array.from({ length: 50 }, () => a.between(10n, 20n))
    expect(xs).toEqual(Array.from({ length: 50 }, () => b.between(10n, 20n)))
    expect(xs.every((x) => x >= 10n && x <= 20n)).toBe(true)
    expect(new Set(xs).size).toBeGreaterThan(3)
  })
})
