import { Asset, Keypair, Networks, Operation } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { FAST_RETRY, fakeNode, someCall } from '../../test/chain/fakeNode.js'
import { createChain } from './connection.js'
import { DryRunRefusal, refusesSends, refusingSends } from './dryRun.js'
import { submit } from './submit.js'

const kp = Keypair.random()
const CONTRACT = 'CA3D5KRYM6CB7OWQ6TWYRR3Z4T7GNZLKERYNZGGA5SOAOPIFY6YQGAXE'

function dryChain() {
  const node = fakeNode({ send: ['PENDING'], get: ['SUCCESS'] })
  const chain = createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server: refusingSends(node.server), inclusionFee: 100, retry: FAST_RETRY })
  return { chain, calls: node.calls }
}

describe('refusingSends: the dry run choke point', () => {
  it('a contract call is simulated, then refused before the node sees it; nothing is followed by hash', async () => {
    const { chain, calls } = dryChain()
    const err = await submit(chain, kp, someCall('draw')).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(DryRunRefusal)
    const refusal = err as DryRunRefusal
    expect(refusal.call).toBe(`${CONTRACT}:draw`)
    expect(refusal.source).toBe(kp.publicKey())
    // The figures are the simulation's: inclusion fee plus the simulated resource fee.
    expect(refusal.fee).toBe(100n + 12_345n)
    expect(refusal.hash).toMatch(/^[0-9a-f]{64}$/)
    expect(refusal.message).toContain('dry run: transaction not sent')
    expect(calls.sim).toBe(1)
    expect(calls.send).toBe(0)
    expect(calls.get).toBe(0)
  })

  it('classic operations (a channel account created, a top-up) are refused too', async () => {
    const { chain, calls } = dryChain()
    const dest = Keypair.random().publicKey()
    const create = Operation.createAccount({ destination: dest, startingBalance: '5' })
    const pay = Operation.payment({ destination: dest, asset: Asset.native(), amount: '5' })
    for (const op of [create, pay]) {
      const err = await submit(chain, kp, op).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(DryRunRefusal)
      expect((err as DryRunRefusal).call).toBe(op === create ? 'createAccount' : 'payment')
    }
    expect(calls.send).toBe(0)
  })

  it('every other call is the node\'s own, and the wrapped client says it refuses sends', async () => {
    const node = fakeNode({ send: [], get: [] })
    const server = refusingSends(node.server)
    expect((await server.getLatestLedger()).sequence).toBe(12)
    expect((await server.getAccount(kp.publicKey())).accountId()).toBe(kp.publicKey())
    expect(refusesSends(server)).toBe(true)
    expect(refusesSends(node.server)).toBe(false)
  })
})
