import { Keypair } from '@stellar/stellar-sdk'
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from './testing/vaultWorld.js'

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
