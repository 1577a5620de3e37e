import { Keypair } from '@stellar/stellar-sdk'
import { createServer, type Server } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { checkApiPort } from './daemon.js'
import { spawnKeeper } from '../../test/keeper/keeperProcess.js'

let held: Server[] = []
afterEach(async () => {
  await Promise.all(held.map((s) => new Promise<void>((r) => s.close(() => r()))))
  held = []
})

/** A port another process-like holder keeps open on `host`. */
async function holdPort(host: string): Promise<number> {
  const srv = createServer()
  await new Promise<void>((r) => srv.listen(0, host, r))
  held.push(srv)
  return (srv.address() as { port: number }).port
}

describe('API_PORT already in use', () => {
  it('prints one line naming the port and the host to stderr and exits 1, before sending anything', async () => {
    const port = await holdPort('127.0.0.1')
    const k = spawnKeeper({
      KEEPER_SECRET: Keypair.random().secret(),
      REGISTRY_CONTRACT: 'CA3D5KRYM6CB7OWQ6TWYRR3Z4T7GNZLKERYNZGGA5SOAOPIFY6YQGAXE',
      VAULT_CONTRACT: 'CBIELTK6YBZJU5UP2WWQEUCYKLPU6AUNZ2BQ4WWFEIE3USCIHMXQDAMA',
      // Nothing listens here: a keeper that got as far as registering would log a failure.
      CONTRACT_RPC: 'http://127.0.0.1:9/rpc',
      API_PORT: String(port),
      API_HOST: '127.0.0.1',
    })
    expect(await k.exited).toBe(1)
    expect(k.stderr()).toBe(`API_PORT ${port} is already in use on 127.0.0.1\n`)
    expect(k.lines.some((l) => String(l.msg).startsWith('registration'))).toBe(false)
    expect(k.lines.some((l) => l.level === 60)).toBe(false)
  }, 60_000)

  it('checkApiPort: a held port is an ApiListenError, a free one or port 0 passes', async () => {
    const port = await holdPort('127.0.0.1')
    await expect(checkApiPort(port, '127.0.0.1')).rejects.toMatchObject({ name: 'ApiListenError', code: 'EADDRINUSE', message: `API_PORT ${port} is already in use on 127.0.0.1` })
    await expect(checkApiPort(port, '0.0.0.0')).rejects.toMatchObject({ message: `API_PORT ${port} is already in use on 0.0.0.0` })
    await expect(checkApiPort(0, '127.0.0.1')).resolves.toBeUndefined()
    await expect(checkApiPort(port, '192.0.2.1')).rejects.toMatchObject({ message: 'API_HOST 192.0.2.1 is not an address of this machine' })
  })
})
