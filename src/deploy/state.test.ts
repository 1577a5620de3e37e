import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { UsageError } from './errors.js'
import { readDeployFile } from './state.js'

describe('the deployments file record', () => {
  const dir = mkdtempSync(join(tmpdir(), 'deploy-state-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('refuses a version 1 record (contracts before the keeper fee, profit unlock and executor code) by name', () => {
    const path = join(dir, 'old.json')
    writeFileSync(path, JSON.stringify({ network: { rpcUrl: 'http://127.0.0.1:8000/rpc', networkPassphrase: 'x' }, deploy: { version: 1 } }))
    expect(() => readDeployFile(path)).toThrow(UsageError)
    expect(() => readDeployFile(path)).toThrow(/old\.json records a deployment of version 1, contracts older than these .*: deploy the current contracts with another --out/)
  })

  it('names the new fields a record lacks', () => {
    const path = join(dir, 'partial.json')
    writeFileSync(path, JSON.stringify({ network: { rpcUrl: 'http://127.0.0.1:8000/rpc', networkPassphrase: 'x' }, deploy: { version: 2 } }))
    expect(() => readDeployFile(path)).toThrow(/not a deployment record \(.*deploy\.parameters: .*deploy\.venues: /)
  })
})
