/**
 * The dashboard server against a real sandbox world: / serves the built app (its files as the
 * brotli or gzip copies made at build time), /config.json the
 * config derived from the world's addresses file, and POST /sandbox/faucet pays 10,000 USDC from
 * the world's issuer to a funded account with a USDC trustline and refuses, in words, an account
 * without one, an account that does not exist and a string that is not an account.
 */
import { Asset, Keypair, Operation } from '@stellar/stellar-sdk'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../sandbox/ts/launch.js'
import { fundAccount, submit } from '../../src/chain/index.js'
import { balanceOf } from '../../src/world/assets.js'
import { deployWorld, type World } from '../../src/world/index.js'
import { startDashboardServer, type DashboardServer } from './index.js'

const UNIT = 10_000_000n

describe('dashboard server on a sandbox world', () => {
  let sandbox: Sandbox
  let world: World
  let server: DashboardServer
  let dir: string

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dashboard-server-'))
    const addressesFile = join(dir, 'addresses.json')
    sandbox = await startSandbox({ port: 0, instant: true })
    world = await deployWorld(sandbox, { seed: 23, borrowers: 1, keepers: 1, depositors: 0, registerKeepers: false, addressesFile })
    server = await startDashboardServer({ addresses: addressesFile, port: 0, keeperApis: ['http://127.0.0.1:8080'], build: true })
  })

  afterAll(async () => {
    await server?.close()
    await sandbox?.stop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  const faucet = (body: unknown) =>
    fetch(`${server.url}sandbox/faucet`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

  it('serves index.html at / and the derived config at /config.json', async () => {
    const index = await fetch(server.url)
    expect(index.status).toBe(200)
    expect(index.headers.get('content-type')).toMatch(/text\/html/)
    expect(await index.text()).toMatch(/<div id="root"><\/div>/)
    const res = await fetch(`${server.url}config.json`)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      network: { rpcUrl: sandbox.rpcUrl, networkPassphrase: sandbox.networkPassphrase, friendbotUrl: sandbox.friendbotUrl },
      contracts: { vault: world.service!.vault, registry: world.service!.registry, usdc: world.usdc.contract },
      keeperApis: ['http://127.0.0.1:8080'],
      faucetUrl: `${server.url}sandbox/faucet`,
    })
  })

  it('sends the built files as their brotli or gzip copies, as the browser accepts, and an icon', async () => {
    const html = await (await fetch(server.url)).text()
    const entry = /<script type="module" crossorigin src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1]
    expect(entry).toBeDefined()
    const plain = await fetch(`${server.url}${entry}`, { headers: { 'accept-encoding': 'identity' } })
    const body = await plain.text()
    expect(plain.headers.get('content-encoding')).toBeNull()
    for (const encoding of ['br', 'gzip']) {
      const res = await fetch(`${server.url}${entry}`, { headers: { 'accept-encoding': encoding } })
      expect(res.headers.get('content-encoding')).toBe(encoding)
      expect(res.headers.get('vary')).toMatch(/accept-encoding/i)
      expect(res.headers.get('cache-control')).toMatch(/immutable/)
      expect(await res.text()).toBe(body)
    }
    const icon = await fetch(`${server.url}favicon.ico`)
    expect(icon.status).toBe(200)
    expect(icon.headers.get('content-type')).toMatch(/image\/svg\+xml/)
    expect(html).toMatch(/<link rel="icon" type="image\/svg\+xml" href="\.\/favicon\.svg"/)
  })

  it('pays 10,000 USDC to a funded account with a USDC trustline', async () => {
    const user = Keypair.random()
    await fundAccount(world.chain, user.publicKey())
    await submit(world.chain, user, Operation.changeTrust({ asset: new Asset('USDC', world.usdc.issuer) }))
    const res = await faucet({ account: user.publicKey() })
    const body = await res.json()
    expect(res.status, JSON.stringify(body)).toBe(200)
    expect(body).toMatchObject({ account: user.publicKey(), asset: `USDC:${world.usdc.issuer}`, amount: String(10_000n * UNIT), balance: String(10_000n * UNIT) })
    expect(body.txHash).toMatch(/^[0-9a-f]{64}$/)
    expect(await balanceOf(world.chain, world.usdc.contract, user.publicKey())).toBe(10_000n * UNIT)
  })

  it('refuses an account without a USDC trustline, a missing account and a non-address, in words', async () => {
    const noTrust = Keypair.random()
    await fundAccount(world.chain, noTrust.publicKey())
    const refused = await faucet({ account: noTrust.publicKey() })
    expect(refused.status).toBe(400)
    expect((await refused.json()).message).toMatch(/has no USDC trustline .*: add a USDC trustline first$/)

    const missing = await faucet({ account: Keypair.random().publicKey() })
    expect(missing.status).toBe(400)
    expect((await missing.json()).message).toMatch(/does not exist on this network: fund it with XLM first/)

    const bad = await faucet({ account: 'GNOTANACCOUNT' })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toEqual({ error: 'Bad Request', statusCode: 400, message: '"GNOTANACCOUNT" is not a Stellar account address (G…, 56 characters)' })
  })
})
