import { Keypair, Networks, type rpc } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { FAST_RETRY, fakeNode, someCall } from '../../test/chain/fakeNode.js'
import { createChain, type RpcLike } from './connection.js'
import { ContractError, RetriesExhaustedError, SimulationError, TransactionRejectedError } from './errors.js'
import { submit } from './submit.js'

const op = someCall('get_state')
const kp = Keypair.random()
const fast = FAST_RETRY

describe('submit', () => {
  it('charges inclusion fee + simulated resource fee and returns the value', async () => {
    const { server, calls } = fakeNode({ send: ['PENDING'], get: ['NOT_FOUND', 'SUCCESS'] })
    const chain = createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server, inclusionFee: 250, retry: fast })
    const res = await submit(chain, kp, op)
    expect(res.fee).toBe(250n + 12_345n)
    expect(res.resourceFee).toBe(12_345n)
    expect(res.returnValue?.value).toBe(7)
    expect(res.attempts).toBe(1)
    expect(calls.send).toBe(1)
  })

  it('resends the same envelope on TRY_AGAIN_LATER, bounded', async () => {
    const { server, calls } = fakeNode({ send: ['TRY_AGAIN_LATER', 'TRY_AGAIN_LATER', 'PENDING'], get: ['SUCCESS'] })
    const chain = createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server, retry: fast })
    await submit(chain, kp, op)
    expect(calls.send).toBe(3)
    expect(new Set(calls.sentHashes).size).toBe(1)

    const stuck = fakeNode({ send: Array(10).fill('TRY_AGAIN_LATER'), get: [] })
    const chain2 = createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server: stuck.server, retry: { ...fast, tryAgainLater: 3 } })
    await expect(submit(chain2, kp, op)).rejects.toBeInstanceOf(RetriesExhaustedError)
    expect(stuck.calls.send).toBe(4)
  })

  it('on TRY_AGAIN_LATER waits for the next ledger, then resends the same envelope once', async () => {
    const node = fakeNode({ send: ['TRY_AGAIN_LATER', 'PENDING'], get: ['SUCCESS'] })
    // The refusal names ledger 10; the node closes 11 only at the third look.
    const ledgers = [10, 10, 11]
    const looks: number[] = []
    const events: string[] = []
    const server: RpcLike = {
      ...node.server,
      async getLatestLedger() {
        const sequence = ledgers[Math.min(looks.length, ledgers.length - 1)]!
        looks.push(sequence)
        events.push(`look ${sequence}`)
        return { id: 'x', sequence, protocolVersion: '23', closeTime: '4000000000' } as unknown as rpc.Api.GetLatestLedgerResponse
      },
      async sendTransaction(tx) {
        events.push('send')
        return node.server.sendTransaction(tx)
      },
    }
    let now = 1_700_000_000_000
    const slept: number[] = []
    const clock = {
      now: () => now,
      sleep: async (ms: number) => {
        slept.push(ms)
        events.push(`sleep ${ms}`)
        now += ms
      },
    }
    const refusals: unknown[] = []
    const chain = {
      ...createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server, retry: { backoffMs: 7, pollIntervalMs: 11, expiryGraceMs: 0 }, clock }),
      onTryAgainLater: (r: unknown) => refusals.push(r),
    }
    await submit(chain, kp, op)
    expect(node.calls.send).toBe(2)
    expect(new Set(node.calls.sentHashes).size).toBe(1)
    // Never resent before the ledger moved, and never without a sleep between looks.
    expect(events).toEqual(['send', 'sleep 7', 'look 10', 'sleep 11', 'look 10', 'sleep 11', 'look 11', 'send'])
    expect(refusals).toEqual([{ hash: node.calls.sentHashes[0], latestLedger: 10, tries: 1 }])
  })

  it('rebuilds an envelope whose maxTime passes while it waits to be resent', async () => {
    const node = fakeNode({ send: ['TRY_AGAIN_LATER', 'PENDING'], get: ['SUCCESS'] })
    const server: RpcLike = {
      ...node.server,
      async getLatestLedger() {
        return { id: 'x', sequence: 10, protocolVersion: '23', closeTime: '4000000000' } as unknown as rpc.Api.GetLatestLedgerResponse
      },
    }
    let now = 1_700_000_000_000
    const clock = { now: () => now, sleep: async (ms: number) => void (now += ms) }
    const chain = createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server, txTimeoutSeconds: 2, retry: { backoffMs: 500, pollIntervalMs: 500, expiryGraceMs: 0 }, clock })
    const res = await submit(chain, kp, op)
    expect(res.attempts).toBe(2)
    expect(node.calls.send).toBe(2)
    expect(node.calls.sentHashes[0]).not.toBe(node.calls.sentHashes[1])
    expect(now).toBeGreaterThanOrEqual(1_700_000_002_000)
  })

  it('looks for the result when the next ledger closes, not after the poll interval', async () => {
    const { server, calls } = fakeNode({ send: ['PENDING'], get: ['NOT_FOUND', 'NOT_FOUND', 'SUCCESS'] })
    // A poll interval that never ends: only the ledger closes move the polls on.
    const clock = { now: () => 1_700_000_000_000, sleep: (ms: number) => (ms === 60_000 ? new Promise<void>(() => {}) : Promise.resolve()) }
    const waits: AbortSignal[] = []
    const chain = {
      ...createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server, retry: { ...fast, pollIntervalMs: 60_000 }, clock }),
      nextClose: async (signal: AbortSignal) => void waits.push(signal),
    }
    const res = await submit(chain, kp, op)
    expect(res.attempts).toBe(1)
    expect(calls.send).toBe(1)
    // One wait per poll that found nothing, each given up once the poll moved on.
    expect(waits.length).toBe(2)
    expect(waits.every((w) => w.aborted)).toBe(true)
  })

  it('resolves a timed-out submission by its hash before retrying', async () => {
    // Poll window of 0 s: the loop times out at once, then the hash lookup finds it included.
    const { server, calls } = fakeNode({ send: ['PENDING'], get: ['SUCCESS'] })
    const chain = createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server, txTimeoutSeconds: 1, retry: { ...fast, expiryGraceMs: -2_000 } })
    const res = await submit(chain, kp, op)
    expect(res.attempts).toBe(1)
    expect(calls.send).toBe(1)
  })

  it('rebuilds an expired submission only after the hash is confirmed unknown', async () => {
    const { server, calls } = fakeNode({ send: ['PENDING', 'PENDING'], get: ['NOT_FOUND', 'SUCCESS'] })
    const chain = createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server, txTimeoutSeconds: 1, retry: { ...fast, expiryGraceMs: -2_000 } })
    const res = await submit(chain, kp, op)
    expect(res.attempts).toBe(2)
    expect(calls.send).toBe(2)
    expect(calls.sentHashes[0]).not.toBe(calls.sentHashes[1])
  })

  it('never rebuilds while the network has not passed maxTime', async () => {
    const { server, calls } = fakeNode({ send: ['PENDING'], get: [], closeTime: 1 })
    const chain = createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server, txTimeoutSeconds: 1, retry: { ...fast, expiryGraceMs: -2_000 } })
    await expect(submit(chain, kp, op)).rejects.toThrow(/submission unresolved/)
    expect(calls.send).toBe(1)
  })

  it('takes its time from the chain clock: time bounds, resend backoff and result polling', async () => {
    const { server, calls } = fakeNode({ send: ['TRY_AGAIN_LATER', 'PENDING'], get: ['NOT_FOUND', 'SUCCESS'] })
    let now = 1_700_000_000_500
    const slept: number[] = []
    const clock = {
      now: () => now,
      sleep: async (ms: number) => {
        slept.push(ms)
        now += ms
      },
    }
    const retry = { backoffMs: 7, pollIntervalMs: 11, expiryGraceMs: 0 }
    const chain = createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server, txTimeoutSeconds: 40, retry, clock })
    await submit(chain, kp, op)
    expect(calls.sentMaxTimes).toEqual([1_700_000_040, 1_700_000_040])
    expect(slept).toEqual([7, 11])
    // No timeout: no upper time bound, as the SDK's setTimeout(0) gives.
    const open = fakeNode({ send: ['PENDING'], get: ['SUCCESS'] })
    await submit(createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server: open.server, txTimeoutSeconds: 0, retry, clock }), kp, op)
    expect(open.calls.sentMaxTimes).toEqual([0])
  })

  it('types contract errors with their code', async () => {
    const { server, calls } = fakeNode({ send: [], get: [], sim: 'HostError: Error(Contract, #201)\n\nEvent log...' })
    const chain = createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server, retry: fast })
    const err = await submit(chain, kp, op).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ContractError)
    expect((err as ContractError).code).toBe(201)
    expect(calls.send).toBe(0)
  })

  it('reports other simulation failures and rejected envelopes', async () => {
    const a = fakeNode({ send: [], get: [], sim: 'HostError: Error(WasmVm, InvalidAction)' })
    const chainA = createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server: a.server, retry: fast })
    await expect(submit(chainA, kp, op)).rejects.toBeInstanceOf(SimulationError)

    const b = fakeNode({ send: ['ERROR'], get: [] })
    const chainB = createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server: b.server, retry: fast })
    const err = await submit(chainB, kp, op).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(TransactionRejectedError)
    expect((err as TransactionRejectedError).result).toBe('txInsufficientBalance')
  })

  it('follows an unanswered send by hash instead of sending again, and survives failed polls', async () => {
    const { server, calls } = fakeNode({ send: ['THROW'], get: ['THROW', 'NOT_FOUND', 'THROW', 'SUCCESS'] })
    const chain = createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server, retry: fast })
    const res = await submit(chain, kp, op)
    expect(res.attempts).toBe(1)
    expect(calls.send).toBe(1)
    expect(calls.get).toBe(4)
  })

  it('does not rebuild when the final lookup by hash fails', async () => {
    const { server, calls } = fakeNode({ send: ['PENDING'], get: ['THROW'] })
    const chain = createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server, txTimeoutSeconds: 1, retry: { ...fast, expiryGraceMs: -2_000 } })
    await expect(submit(chain, kp, op)).rejects.toThrow(/submission unresolved/)
    expect(calls.send).toBe(1)
  })

  it('queues concurrent submissions from one account, one sequence number each', async () => {
    const { server, calls } = fakeNode({ send: [], get: ['SUCCESS', 'SUCCESS', 'SUCCESS'] })
    let inFlight = 0
    let maxInFlight = 0
    const send = server.sendTransaction.bind(server)
    server.sendTransaction = async (tx) => {
      inFlight++
      maxInFlight = Math.max(maxInFlight, inFlight)
      await new Promise((r) => setTimeout(r, 5))
      inFlight--
      return send(tx)
    }
    const chain = createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server, retry: fast })
    const results = await Promise.all([submit(chain, kp, op), submit(chain, kp, op), submit(chain, kp, op)])
    expect(results.map((r) => r.attempts)).toEqual([1, 1, 1])
    expect(maxInFlight).toBe(1)
    expect(new Set(calls.sentHashes).size).toBe(3)
  })
})
