import { Keypair } from '@stellar/stellar-sdk'
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../sandbox/ts/launch.js'
import { VaultContract } from './clients/index.js'
import { spawnKeeper } from '../../test/keeper/keeperProcess.js'
import { deployVaultWorld, REPO_ROOT, vaultKeeperEnv } from '../../test/keeper/vaultWorld.js'

// The container's entrypoint is the single executable: build it exactly as the Dockerfile does
// and check its process behaviour without Node or node_modules around it.
const SECRET = Keypair.random().secret()
const out = join(mkdtempSync(join(tmpdir(), 'keeper-sea-')), 'keeper')

beforeAll(() => {
  execFileSync('bash', [join(REPO_ROOT, 'scripts', 'build-keeper.sh'), out], { cwd: REPO_ROOT, stdio: 'pipe' })
}, 180_000)

function run(env: Record<string, string>, args: string[] = []) {
  // An empty directory and an environment without node's paths: nothing to lean on.
  const cwd = mkdtempSync(join(tmpdir(), 'keeper-sea-run-'))
  return spawnSync(out, args, { cwd, env: { PATH: '/usr/bin:/bin', ...env }, encoding: 'utf8', timeout: 20_000 })
}

describe('single executable', () => {
  it('is one executable file', () => {
    const st = statSync(out)
    expect(st.isFile()).toBe(true)
    expect(st.mode & 0o111).not.toBe(0)
  })

  it('prints exactly the missing variable and exits 1', () => {
    const res = run({
      KEEPER_SECRET: SECRET,
      REGISTRY_CONTRACT: 'CA3D5KRYM6CB7OWQ6TWYRR3Z4T7GNZLKERYNZGGA5SOAOPIFY6YQGAXE',
    })
    expect(res.status).toBe(1)
    expect(res.stderr).toBe('missing required env: VAULT_CONTRACT\n')
    expect(res.stdout).toBe('')
  })

  it('reports an out-of-range value and exits non-zero', () => {
    const res = run({
      KEEPER_SECRET: SECRET,
      REGISTRY_CONTRACT: 'CA3D5KRYM6CB7OWQ6TWYRR3Z4T7GNZLKERYNZGGA5SOAOPIFY6YQGAXE',
      VAULT_CONTRACT: 'CBIELTK6YBZJU5UP2WWQEUCYKLPU6AUNZ2BQ4WWFEIE3USCIHMXQDAMA',
      POLL_INTERVAL: '1',
    })
    expect(res.status).not.toBe(0)
    expect(res.stderr).toBe('POLL_INTERVAL must be a number in [3, 300], got "1"\n')
  })

  it('healthcheck fails when nothing listens', () => {
    const res = run({ API_PORT: '9' }, ['healthcheck'])
    expect(res.status).toBe(1)
  })
})

describe('single executable against the sandbox', () => {
  let sandbox: Sandbox | undefined
  afterAll(async () => {
    await sandbox?.stop()
  })

  it('runs monitor-only: /healthz, /readyz, the real vault state, healthcheck exit 0, SIGTERM exit 0', async () => {
    sandbox = await startSandbox()
    const world = await deployVaultWorld(sandbox)
    const keeper = await world.newAccount(200_0000000n)
    const depositor = await world.newAccount(50_0000000n)
    await new VaultContract(world.chain, world.vault).deposit(depositor, 50_0000000n)
    const k = spawnKeeper(vaultKeeperEnv(world, sandbox, keeper), { executable: out })
    try {
      const port = await k.port()
      await k.waitForLog((l) => l.msg === 'cycle done')
      const health = await fetch(`http://127.0.0.1:${port}/healthz`)
      expect(health.status).toBe(200)
      expect(await health.text()).toBe('')
      // A cycle has finished and the RPC answers: ready.
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`)
      expect(ready.status, await ready.clone().text()).toBe(200)
      const state = (await (await fetch(`http://127.0.0.1:${port}/api/state`)).json()) as { mode: string; vault: { totalUsdc: string } }
      expect(state.mode).toBe('monitor-only')
      expect(state.vault.totalUsdc).toBe('500000000')
      expect(run({ API_PORT: String(port) }, ['healthcheck']).status).toBe(0)
      k.kill('SIGTERM')
      expect(await k.exited).toBe(0)
      expect(k.stderr()).toBe('')
    } finally {
      if (k.proc.exitCode === null && k.proc.signalCode === null) k.kill('SIGKILL')
    }
  }, 120_000)
})
