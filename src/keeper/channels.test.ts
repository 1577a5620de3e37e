import { Keypair } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { channelKeypairs, createChain } from '../chain/index.js'
import { ConnectionError } from '../chain/errors.js'
import { startChannelLanes } from './channels.js'

const chain = createChain({ rpcUrl: 'http://127.0.0.1:1', networkPassphrase: 'test', server: {} as never })

function logs() {
  const lines: { level: string; msg: string; obj: Record<string, unknown> }[] = []
  const at = (level: string) => (obj: object, msg?: string) => {
    lines.push({ level, msg: msg ?? '', obj: obj as Record<string, unknown> })
  }
  return { lines, logger: { info: at('info'), warn: at('warn'), debug: at('debug') } as never }
}

/** An ensureChannels that fails `failures` times (the RPC down), then creates every channel. */
function flaky(failures: number) {
  const calls: number[] = []
  const ensure = async (channels: readonly Keypair[]) => {
    calls.push(Date.now())
    if (calls.length <= failures) throw new ConnectionError('http://127.0.0.1:1', 'ECONNREFUSED')
    return channels.map((k) => k.publicKey())
  }
  return { calls, ensure }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('channel lanes', () => {
  it('start with the channels when the first set-up succeeds', async () => {
    const op = Keypair.random()
    const l = logs()
    const f = flaky(0)
    const c = await startChannelLanes({ chain, operator: op, count: 3, logger: l.logger, ensure: f.ensure })
    expect(c.lanes.size).toBe(4)
    expect(f.calls).toHaveLength(1)
    expect(l.lines.map((x) => x.msg)).toEqual(['channel accounts ready'])
    await c.ready
  })

  it('without CHANNEL_ACCOUNTS the operator is the only lane and nothing is set up', async () => {
    const f = flaky(0)
    const c = await startChannelLanes({ chain, operator: Keypair.random(), count: 0, logger: logs().logger, ensure: f.ensure })
    expect(c.lanes.size).toBe(1)
    expect(f.calls).toHaveLength(0)
  })

  it('a failed set-up is retried with a doubling, bounded delay and the channels join the running lanes', async () => {
    const op = Keypair.random()
    const l = logs()
    const f = flaky(4)
    const ready: number[] = []
    const c = await startChannelLanes({
      chain,
      operator: op,
      count: 2,
      logger: l.logger,
      ensure: f.ensure,
      onReady: (size) => ready.push(size),
      retryFirstMs: 20,
      retryMaxMs: 50,
    })
    const lanes = c.lanes
    expect(lanes.size).toBe(1)
    expect(l.lines[0]).toMatchObject({ level: 'warn', msg: 'channel accounts unavailable: sending everything from the operator', obj: { retryInMs: 20 } })

    // a submission waiting for a lane while the operator's is busy gets a channel once they join
    let releaseOperator: () => void = () => {}
    const first = lanes.run((lane) => new Promise<string>((r) => (releaseOperator = () => r(lane.source.publicKey()))))
    const second = lanes.run(async (lane) => lane.source.publicKey())

    await c.ready
    expect(lanes.size).toBe(3)
    expect(ready).toEqual([3])
    expect(f.calls).toHaveLength(5)
    // waited 20, 40, 50, 50 ms (timers fire late, never early)
    const gaps = f.calls.slice(1).map((t, i) => t - f.calls[i]!)
    expect(gaps.map((g, i) => g >= [20, 40, 50, 50][i]! - 1)).toEqual([true, true, true, true])
    const still = l.lines.filter((x) => x.msg === 'channel accounts still unavailable')
    expect(still.map((x) => x.obj.retryInMs)).toEqual([40, 50, 50])
    expect(still.map((x) => x.level)).toEqual(['debug', 'debug', 'debug'])
    expect(await second).toBe(channelKeypairs(op, 1)[0]!.publicKey())
    releaseOperator()
    expect(await first).toBe(op.publicKey())

    expect(l.lines.at(-1)).toMatchObject({ level: 'info', msg: 'channel accounts ready', obj: { channels: 2, created: 2, lanes: 3, attempt: 5 } })
    await sleep(120)
    expect(f.calls).toHaveLength(5)
  })

  it('stop ends the retries: no more set-ups, no lanes added', async () => {
    const l = logs()
    const f = flaky(Infinity)
    const c = await startChannelLanes({ chain, operator: Keypair.random(), count: 2, logger: l.logger, ensure: f.ensure, retryFirstMs: 10, retryMaxMs: 10 })
    await sleep(35)
    const before = f.calls.length
    expect(before).toBeGreaterThanOrEqual(2)
    c.stop()
    await sleep(50)
    expect(f.calls).toHaveLength(before)
    expect(c.lanes.size).toBe(1)
  })

  it('with retry off a failed set-up leaves the operator alone for good', async () => {
    const l = logs()
    const f = flaky(1)
    const c = await startChannelLanes({ chain, operator: Keypair.random(), count: 2, logger: l.logger, ensure: f.ensure, retry: false, retryFirstMs: 5 })
    await sleep(40)
    expect(f.calls).toHaveLength(1)
    expect(c.lanes.size).toBe(1)
    expect(l.lines[0]).toMatchObject({ level: 'warn', obj: { retryInMs: null } })
  })

  it('a set-up in flight when the keeper stops adds nothing', async () => {
    const op = Keypair.random()
    let calls = 0
    let finish: () => void = () => {}
    const ensure = async () => {
      if (++calls === 1) throw new Error('operator account has too little XLM')
      await new Promise<void>((r) => (finish = r))
      return []
    }
    const c = await startChannelLanes({ chain, operator: op, count: 2, logger: logs().logger, ensure, retryFirstMs: 5 })
    await sleep(30)
    expect(calls).toBe(2)
    c.stop()
    finish()
    await sleep(10)
    expect(c.lanes.size).toBe(1)
  })
})
