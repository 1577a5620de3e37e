import { Keypair, Operation, rpc } from '@stellar/stellar-sdk'
import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { createChain, withConnectionErrors } from './connection.js'
import { ConnectionError, connectionFailureReason } from './errors.js'
import { channelKeypairs, ensureChannels } from './lanes.js'
import { submit } from './submit.js'
import { accountEntryData } from '../../test/chain/accountEntry.js'

/** A loopback URL on a port where nothing listens (taken, then released). */
async function deadUrl(): Promise<string> {
  const srv = createServer()
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r))
  const port = (srv.address() as { port: number }).port
  await new Promise<void>((r) => srv.close(() => r()))
  return `http://127.0.0.1:${port}/rpc`
}

describe('a node that cannot be reached', () => {
  it('is a ConnectionError naming the URL, not "Account not found"', async () => {
    const url = await deadUrl()
    const chain = createChain({ rpcUrl: url, networkPassphrase: 'Standalone Network ; February 2017' })
    const err = await chain.server.getAccount(Keypair.random().publicKey()).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ConnectionError)
    expect(err).toMatchObject({ name: 'ConnectionError', url, reason: 'ECONNREFUSED' })
    expect((err as Error).message).toBe(`cannot reach the RPC at ${url} (ECONNREFUSED)`)
    await expect(chain.server.getLatestLedger()).rejects.toMatchObject({ name: 'ConnectionError', url })
  })

  it('fails a submission and the channel set-up with the ConnectionError', async () => {
    const url = await deadUrl()
    const chain = createChain({ rpcUrl: url, networkPassphrase: 'Standalone Network ; February 2017' })
    const op = Keypair.random()
    const pay = Operation.bumpSequence({ bumpTo: '1' })
    await expect(submit(chain, op, pay)).rejects.toMatchObject({ name: 'ConnectionError', url, message: expect.stringContaining(url) })
    await expect(ensureChannels(chain, op, channelKeypairs(op, 2))).rejects.toBeInstanceOf(ConnectionError)
  })
})

describe('withConnectionErrors', () => {
  const account = Keypair.random().publicKey()

  it('still says "Account not found" when the node answers that the account does not exist', async () => {
    const node = { getLedgerEntries: async () => ({ entries: [], latestLedger: 5 }) }
    const s = withConnectionErrors(node as unknown as rpc.Server, 'http://node')
    await expect(s.getAccount(account)).rejects.toThrow(`Account not found: ${account}`)
  })

  it('reads the sequence number of an account the node has', async () => {
    const node = { getLedgerEntries: async () => ({ entries: [{ val: accountEntryData(account, 100n, 42n) }], latestLedger: 5 }) }
    const s = withConnectionErrors(node as unknown as rpc.Server, 'http://node')
    expect((await s.getAccount(account)).sequenceNumber()).toBe('42')
  })

  it('passes answers and other errors through unchanged', async () => {
    const other = new Error('bad request')
    const node = {
      getLatestLedger: async () => ({ sequence: 9 }),
      getNetwork: async () => Promise.reject(other),
      syncValue: () => 3,
    }
    const s = withConnectionErrors(node, 'http://node')
    expect(await s.getLatestLedger()).toEqual({ sequence: 9 })
    await expect(s.getNetwork()).rejects.toBe(other)
    expect(s.syncValue()).toBe(3)
  })
})

describe('connectionFailureReason', () => {
  it('recognises refused, reset and unresolved connections, directly or as a cause', () => {
    const sys = (code: string) => Object.assign(new Error(`connect ${code}`), { code })
    expect(connectionFailureReason(sys('ECONNREFUSED'))).toBe('ECONNREFUSED')
    expect(connectionFailureReason(new TypeError('fetch failed', { cause: sys('ENOTFOUND') }))).toBe('ENOTFOUND')
    expect(connectionFailureReason(new TypeError('fetch failed'))).toBe('fetch failed')
    expect(connectionFailureReason(Object.assign(new Error('Network Error'), { isAxiosError: true, code: 'ERR_NETWORK' }))).toBe('ERR_NETWORK')
  })

  it('leaves answers from the node alone', () => {
    expect(connectionFailureReason(new Error('Account not found: G...'))).toBeUndefined()
    expect(connectionFailureReason(Object.assign(new Error('500'), { isAxiosError: true, response: { status: 500 } }))).toBeUndefined()
    expect(connectionFailureReason(Object.assign(new Error('canceled'), { isAxiosError: true, code: 'ERR_CANCELED' }))).toBeUndefined()
    expect(connectionFailureReason('nope')).toBeUndefined()
  })
})
