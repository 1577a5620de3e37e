import { describe, expect, it } from 'vitest'
import { Networks } from '@stellar/stellar-sdk'
import { isTxHash, shortHash, txLink } from './explorer.js'

const HASH = '3f2a9c0000000000000000000000000000000000000000000000000000081d0e7'.slice(0, 64)

describe('txLink', () => {
  it('is stellar.expert on testnet and on the public network, by the passphrase', () => {
    expect(txLink(Networks.TESTNET, HASH)).toEqual({ href: `https://stellar.expert/explorer/testnet/tx/${HASH}`, external: true })
    expect(txLink(Networks.PUBLIC, HASH)).toEqual({ href: `https://stellar.expert/explorer/public/tx/${HASH}`, external: true })
  })

  it('is the dashboard’s own page on the sandbox and any other network', () => {
    expect(txLink('Standalone Network ; February 2017', HASH)).toEqual({ href: `#/tx/${HASH}`, external: false })
    expect(txLink(undefined, HASH).href).toBe(`#/tx/${HASH}`)
  })

  it('shortens a hash and recognises one', () => {
    expect(shortHash(HASH)).toBe(`${HASH.slice(0, 6)}…${HASH.slice(-6)}`)
    expect(isTxHash(HASH)).toBe(true)
    expect(isTxHash('position')).toBe(false)
  })
})
