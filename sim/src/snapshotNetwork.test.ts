import { Networks } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { networkIdOf } from '../../src/chain/networks.js'
import { snapshotPassphrase } from './snapshotNetwork.js'

const MAINNET_ID = '7ac33997544e3175d266bd022439b22cdb16508c01163f26e5cb2a3e1045a979'
const file = '/s/snap.json'
const doc = (network_id: unknown) => ({ network_id, ledger_entries: [] })

describe('snapshotPassphrase', () => {
  it("takes a public network's passphrase from the file's network_id (either file layout)", () => {
    expect(networkIdOf(Networks.PUBLIC)).toBe(MAINNET_ID)
    expect(snapshotPassphrase(file, doc(MAINNET_ID), undefined)).toBe(Networks.PUBLIC)
    expect(snapshotPassphrase(file, doc(MAINNET_ID.toUpperCase()), undefined)).toBe(Networks.PUBLIC)
    expect(snapshotPassphrase(file, { ledger: doc(networkIdOf(Networks.TESTNET)) }, undefined)).toBe(Networks.TESTNET)
    expect(snapshotPassphrase(file, doc(networkIdOf(Networks.FUTURENET)), undefined)).toBe(Networks.FUTURENET)
    expect(snapshotPassphrase(file, doc(networkIdOf(Networks.STANDALONE)), undefined)).toBe(Networks.STANDALONE)
  })

  it('a passphrase given must hash to the id; it names the network of a private id', () => {
    expect(snapshotPassphrase(file, doc(MAINNET_ID), Networks.PUBLIC)).toBe(Networks.PUBLIC)
    expect(() => snapshotPassphrase(file, doc(MAINNET_ID), Networks.TESTNET)).toThrow(
      `world.from.networkPassphrase "${Networks.TESTNET}" is not the network of ${file}: its network_id ${MAINNET_ID} is not the SHA-256 of that passphrase, but mainnet's ("${Networks.PUBLIC}")`,
    )
    const own = 'Our Private Network ; 2026'
    expect(snapshotPassphrase(file, doc(networkIdOf(own)), own)).toBe(own)
    expect(() => snapshotPassphrase(file, doc(networkIdOf(own)), 'Another')).toThrow("nor of any public network's")
  })

  it('an unknown id without a passphrase, or an id that is not hex, is refused in one line naming what to give', () => {
    const id = networkIdOf('Our Private Network ; 2026')
    expect(() => snapshotPassphrase(file, doc(id), undefined)).toThrow(
      `world.from.snapshot ${file}: network_id ${id} is none of the public networks' (mainnet, testnet, futurenet, standalone): give that network's passphrase as world.from.networkPassphrase`,
    )
    expect(() => snapshotPassphrase(file, doc('abc'), undefined)).toThrow('network_id "abc" is not 64 hex digits')
  })

  it('a file without a network (zero id or none) runs the passphrase given, else standalone', () => {
    expect(snapshotPassphrase(file, doc('0'.repeat(64)), undefined)).toBe(Networks.STANDALONE)
    expect(snapshotPassphrase(file, { ledger_entries: [] }, Networks.TESTNET)).toBe(Networks.TESTNET)
  })
})
