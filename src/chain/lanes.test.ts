import { Keypair } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { SubmissionLanes, channelKeypairs } from './lanes.js'

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
