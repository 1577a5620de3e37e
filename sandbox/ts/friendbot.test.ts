import { afterAll, describe, expect, it } from 'vitest'
import { Keypair } from '@stellar/stellar-sdk'
import { startSandbox, type Sandbox } from './launch.js'

let sb: Sandbox | undefined
afterAll(async () => {
  await sb?.stop()
})

async function friendbot(addr: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${sb!.friendbotUrl}?addr=${encodeURIComponent(addr)}`)
  return { status: res.status, body: await res.json() }
}

describe('friendbot answers as Stellar friendbot does', () => {
  it('funds a new account, then refuses it with the problem document wallets and stellar-cli recognise', async () => {
    sb = await startSandbox({ manual: true })
    const kp = Keypair.random()
    const first = await friendbot(kp.publicKey())
    expect(first.status).toBe(200)
    expect((await sb.server.getAccount(kp.publicKey())).accountId()).toBe(kp.publicKey())
    expect(await friendbot(kp.publicKey())).toEqual({
      status: 400,
      body: { type: 'https://stellar.org/horizon-errors/bad_request', title: 'Bad Request', status: 400, detail: 'account already funded to starting balance' },
    })
  })

  it('keeps the same problem shape for other failures', async () => {
    const bad = await friendbot('GNOTANADDRESS')
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ type: 'https://stellar.org/horizon-errors/bad_request', title: 'Bad Request', status: 400 })
    expect((bad.body as { detail: string }).detail).toMatch(/GNOTANADDRESS/)
  })
})
