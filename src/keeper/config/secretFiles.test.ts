import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ConfigError } from './config.js'
import { checkSecretFiles, exposedSecretFiles, secretFilesOf } from './secretFiles.js'

const dir = mkdtempSync(join(tmpdir(), 'keeper-secrets-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function file(name: string, mode: number): string {
  const path = join(dir, name)
  writeFileSync(path, 'KEEPER_SECRET=S...\n')
  chmodSync(path, mode)
  return path
}

describe('credential file permissions', () => {
  it('checks .env in the working directory and KEEPER_SECRET_FILE when set', () => {
    expect(secretFilesOf('/srv/keeper', {})).toEqual(['/srv/keeper/.env'])
    expect(secretFilesOf('/srv/keeper', { KEEPER_SECRET_FILE: ' /run/secrets/keeper ' })).toEqual(['/srv/keeper/.env', '/run/secrets/keeper'])
  })

  it('passes files only their owner can read, and missing files', () => {
    expect(exposedSecretFiles([file('owner-600', 0o600), file('owner-400', 0o400), join(dir, 'missing')])).toEqual([])
  })

  it('warns about a file group or others may read, with its mode', () => {
    const world = file('world-644', 0o644)
    const group = file('group-640', 0o640)
    const problems = checkSecretFiles([world, group, file('ok', 0o600)], false)
    expect(problems.map((p) => [p.file, p.mode])).toEqual([
      [world, '0644'],
      [group, '0640'],
    ])
    expect(problems[0]!.message).toBe(`${world} is readable by group or others (mode 0644): chmod 600 it (owner only)`)
  })

  it('refuses under STRICT_SECRETS, one line per exposed file', () => {
    const exposed = file('strict-604', 0o604)
    expect(() => checkSecretFiles([exposed, file('strict-ok', 0o600)], true)).toThrow(ConfigError)
    try {
      checkSecretFiles([exposed], true)
    } catch (err) {
      expect((err as ConfigError).problems).toEqual([`STRICT_SECRETS: ${exposed} is readable by group or others (mode 0604): chmod 600 it (owner only)`])
    }
    expect(checkSecretFiles([file('strict-fine', 0o400)], true)).toEqual([])
  })
})
