import { Keypair } from '@stellar/stellar-sdk'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { spawnKeeper, type KeeperProcess } from '../../test/keeper/keeperProcess.js'

// The keeper process (from source) in a directory whose .env others may read.
const dirs: string[] = []
const running: KeeperProcess[] = []
afterAll(() => {
  for (const k of running) k.kill('SIGKILL')
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

const seed = Keypair.random().secret()
const PASSWORD = 'pw-9f8e7d6c5b'
const KEY = 'k3y0a1b2c3d4e5'

function dirWithEnv(mode: number, extra: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'keeper-secrets-'))
  dirs.push(dir)
  const env = join(dir, '.env')
  writeFileSync(
    env,
    [
      `KEEPER_SECRET=${seed}`,
      'REGISTRY_CONTRACT=CA3D5KRYM6CB7OWQ6TWYRR3Z4T7GNZLKERYNZGGA5SOAOPIFY6YQGAXE',
      'VAULT_CONTRACT=CBIELTK6YBZJU5UP2WWQEUCYKLPU6AUNZ2BQ4WWFEIE3USCIHMXQDAMA',
      // Nothing listens on port 9: every read fails, quoting the URL.
      `CONTRACT_RPC=http://op:${PASSWORD}@127.0.0.1:9/rpc?apikey=${KEY}`,
      'API_PORT=0',
      'CHANNEL_ACCOUNTS=0',
      extra,
    ].join('\n'),
  )
  chmodSync(env, mode)
  return dir
}

describe('keeper process and its credential files', () => {
  it('refuses to start under STRICT_SECRETS=true when .env is readable by others: one line, exit 1', async () => {
    const dir = dirWithEnv(0o644, 'STRICT_SECRETS=true')
    const k = spawnKeeper({}, { cwd: dir })
    running.push(k)
    expect(await k.exited).toBe(1)
    expect(k.stderr()).toBe(`STRICT_SECRETS: ${join(dir, '.env')} is readable by group or others (mode 0644): chmod 600 it (owner only)\n`)
  }, 60_000)

  it('warns without STRICT_SECRETS, and no log line shows the RPC URL credentials or the seed', async () => {
    const dir = dirWithEnv(0o640, '')
    const k = spawnKeeper({}, { cwd: dir })
    running.push(k)
    const warn = await k.waitForLog((l) => typeof l.msg === 'string' && l.msg.includes('is readable by group or others'))
    expect(warn).toMatchObject({ level: 40, mode: '0640', file: join(dir, '.env') })
    const starting = await k.waitForLog((l) => l.msg === 'keeper starting')
    expect(starting.rpc).toBe('http://***@127.0.0.1:9/rpc?apikey=***')
    expect(starting.off).toContain('no USDC_CONTRACT: stale-draw recovery disabled')
    // The RPC's failures quote the URL: wait for one, then look at everything logged.
    await k.waitForLog((l) => JSON.stringify(l).includes('127.0.0.1:9'))
    await new Promise((r) => setTimeout(r, 1_000))
    k.kill('SIGKILL')
    await k.exited
    const all = JSON.stringify(k.lines) + k.stderr()
    expect(all).not.toContain(PASSWORD)
    expect(all).not.toContain(KEY)
    expect(all).not.toContain(seed)
  }, 60_000)

  it('starts without a word when .env is for its owner only', async () => {
    const dir = dirWithEnv(0o600, '')
    const k = spawnKeeper({}, { cwd: dir })
    running.push(k)
    await k.waitForLog((l) => l.msg === 'keeper starting')
    expect(k.lines.some((l) => typeof l.msg === 'string' && l.msg.includes('readable by group or others'))).toBe(false)
    k.kill('SIGKILL')
    await k.exited
  }, 60_000)
})
