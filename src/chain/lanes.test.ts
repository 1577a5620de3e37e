import { Asset, Keypair, Networks, Operation } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { accountQueueNode } from '../../test/chain/accountQueueNode.js'
import { createChain } from './connection.js'
import { SubmissionLanes, channelKeypairs, isOutOfXlm } from './lanes.js'
import { TransactionRejectedError } from './errors.js'
import { submit } from './submit.js'

describe('channel accounts', () => {
  it('derive the same distinct channels from the same secret, others from another', () => {
    const op = Keypair.fromSecret(Keypair.random().secret())
    const a = channelKeypairs(op, 3).map((k) => k.publicKey())
    const b = channelKeypairs(Keypair.fromSecret(op.secret()), 3).map((k) => k.publicKey())
    expect(a).toEqual(b)
    expect(new Set([...a, op.publicKey()]).size).toBe(4)
    expect(channelKeypairs(Keypair.random(), 3).map((k) => k.publicKey())).not.toEqual(a)
    expect(channelKeypairs(op, 0)).toEqual([])
  })
})

describe('SubmissionLanes', () => {
  it('runs at most one submission per lane and the operator signs the channels’ auth', async () => {
    const op = Keypair.random()
    const lanes = new SubmissionLanes(op, channelKeypairs(op, 2))
    expect(lanes.size).toBe(3)
    let running = 0
    let peak = 0
    const sources: string[] = []
    const signers: string[][] = []
    const release: Array<() => void> = []
    const job = () =>
      lanes.run(async (lane) => {
        running++
        peak = Math.max(peak, running)
        sources.push(lane.source.publicKey())
        signers.push((lane.options.authSigners ?? []).map((k) => k.publicKey()))
        await new Promise<void>((r) => release.push(r))
        running--
      })
    const all = Promise.all([job(), job(), job(), job(), job()])
    await new Promise((r) => setTimeout(r, 10))
    expect(running).toBe(3)
    while (release.length > 0 || running > 0) {
      release.shift()?.()
      await new Promise((r) => setTimeout(r, 1))
    }
    await all
    expect(peak).toBe(3)
    expect(sources).toHaveLength(5)
    expect(sources[0]).toBe(op.publicKey())
    expect(signers[0]).toEqual([])
    expect(signers.slice(1, 3)).toEqual([[op.publicKey()], [op.publicKey()]])
  })
})

describe('SubmissionLanes: a channel out of XLM', () => {
  it('is refilled while its lane is held, and the refused submission still fails; the operator lane and other errors are not', async () => {
    const op = Keypair.random()
    const [channel] = channelKeypairs(op, 1)
    const lanes = new SubmissionLanes(op, [channel!])
    const refilled: string[] = []
    let heldDuringRefill = false
    lanes.refillWith(async (lane) => {
      refilled.push(lane.source.publicKey())
      // Both lanes are taken now: the operator's by the first submission, the channel's by the refill.
      heldDuringRefill = await Promise.race([lanes.run(async () => false), new Promise<boolean>((r) => setTimeout(() => r(true), 20))])
    })
    const dry = () => Promise.reject(new TransactionRejectedError('txInsufficientBalance'))
    let releaseOperator: () => void = () => {}
    const operatorBusy = lanes.run((lane) => new Promise<string>((r) => (releaseOperator = () => r(lane.source.publicKey()))))
    await expect(lanes.run(dry)).rejects.toThrow('txInsufficientBalance')
    expect(refilled).toEqual([channel!.publicKey()])
    expect(heldDuringRefill).toBe(true)
    releaseOperator()
    expect(await operatorBusy).toBe(op.publicKey())
    // The operator's own lane: nothing to refill it from.
    await expect(lanes.run(dry)).rejects.toThrow('txInsufficientBalance')
    expect(refilled).toHaveLength(1)
    // Another refusal is not a dry account.
    expect(isOutOfXlm(new TransactionRejectedError('txBadSeq'))).toBe(false)
    expect(isOutOfXlm(new Error('txInsufficientBalance'))).toBe(false)
  })
})

describe('SubmissionLanes.add', () => {
  it('adds channels while submissions wait, waking one waiter per new lane; a known channel is skipped', async () => {
    const op = Keypair.random()
    const lanes = new SubmissionLanes(op)
    const channels = channelKeypairs(op, 2)
    const release: Array<() => void> = []
    const sources: string[] = []
    const job = () =>
      lanes.run(async (lane) => {
        sources.push(lane.source.publicKey())
        expect(lane.options.authSigners?.map((k) => k.publicKey()) ?? []).toEqual(lane.source === op ? [] : [op.publicKey()])
        await new Promise<void>((r) => release.push(r))
      })
    const all = Promise.all([job(), job(), job(), job()])
    await new Promise((r) => setTimeout(r, 10))
    expect(sources).toEqual([op.publicKey()])

    expect(lanes.add(channels)).toBe(2)
    expect(lanes.size).toBe(3)
    await new Promise((r) => setTimeout(r, 10))
    expect(sources).toEqual([op.publicKey(), ...channels.map((k) => k.publicKey())])

    expect(lanes.add([...channels, op])).toBe(0)
    expect(lanes.size).toBe(3)
    while (release.length > 0 || sources.length < 4) {
      release.shift()?.()
      await new Promise((r) => setTimeout(r, 1))
    }
    release.shift()?.()
    await all
    expect(sources).toHaveLength(4)
  })
})

describe('SubmissionLanes on a node that queues one transaction per account', () => {
  const payment = (to: string) => Operation.payment({ destination: to, asset: Asset.native(), amount: '1' })

  it('spreads concurrent submissions over the lanes, one per account and ledger, the rest waiting for a free lane', async () => {
    const node = accountQueueNode()
    const chain = createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server: node.server, clock: node.clock, retry: { backoffMs: 100, pollIntervalMs: 100, expiryGraceMs: 0 } })
    const op = Keypair.random()
    const lanes = new SubmissionLanes(op, channelKeypairs(op, 2))
    expect(lanes.accounts).toEqual([op.publicKey(), ...channelKeypairs(op, 2).map((k) => k.publicKey())])
    const to = Keypair.random().publicKey()
    const results = await Promise.all(Array.from({ length: 5 }, () => lanes.run((lane) => submit(chain, lane.source, payment(to), lane.options))))
    expect(results).toHaveLength(5)
    expect(node.stats.tryAgainLater).toBe(0)
    expect(node.stats.sent).toBe(5)
    // Three lanes: three land in the first ledger, the two that waited in the next.
    const byLedger = new Map<number, string[]>()
    for (const a of node.applied) byLedger.set(a.ledger, [...(byLedger.get(a.ledger) ?? []), a.source])
    expect([...byLedger.values()].map((s) => s.length)).toEqual([3, 2])
    for (const sources of byLedger.values()) expect(new Set(sources).size).toBe(sources.length)
    expect(new Set(node.applied.map((a) => a.source))).toEqual(new Set(lanes.accounts))
  })

  it('waits for the next ledger when the lane’s account already has one queued (another process), then lands', async () => {
    const node = accountQueueNode()
    const refusals: number[] = []
    const chain = {
      ...createChain({ rpcUrl: 'http://x', networkPassphrase: Networks.TESTNET, server: node.server, clock: node.clock, retry: { backoffMs: 100, pollIntervalMs: 100, expiryGraceMs: 0 } }),
      onTryAgainLater: (r: { latestLedger: number | undefined }) => refusals.push(r.latestLedger ?? -1),
    }
    const op = Keypair.random()
    node.occupy(op.publicKey())
    const res = await new SubmissionLanes(op).run((lane) => submit(chain, lane.source, payment(Keypair.random().publicKey()), lane.options))
    expect(refusals).toEqual([100])
    expect(node.stats.sent).toBe(2)
    // The other process's transaction took ledger 101; this one the ledger after its resend.
    expect(res.ledger).toBe(102)
  })
})
