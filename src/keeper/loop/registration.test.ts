import { Keypair } from '@stellar/stellar-sdk'
import type { Logger } from 'pino'
import { describe, expect, it } from 'vitest'
import { ContractError } from '../../chain/index.js'
import { ConnectionError as ChainConnectionError } from '../../chain/errors.js'
import type { RegistryContract } from '../clients/index.js'
import { parseConfig } from '../config/index.js'
import { DashboardState } from '../state/dashboard.js'
import { EventLog } from '../state/events.js'
import { cycleWorld, recordingLogger } from '../../../test/keeper/cycleFakes.js'
import { runCycle } from './cycle.js'
import { KeeperRegistration, REGISTRATION_SKIPPED } from './registration.js'

const URL = 'http://127.0.0.1:9/rpc'
const config = parseConfig({
  KEEPER_SECRET: Keypair.random().secret(),
  REGISTRY_CONTRACT: 'CA3D5KRYM6CB7OWQ6TWYRR3Z4T7GNZLKERYNZGGA5SOAOPIFY6YQGAXE',
  VAULT_CONTRACT: 'CBIELTK6YBZJU5UP2WWQEUCYKLPU6AUNZ2BQ4WWFEIE3USCIHMXQDAMA',
  CONTRACT_RPC: URL,
  KEEPER_NAME: 'retrying',
})

/** A registry whose register() answers each call from `answers` in turn. */
function registry(answers: Array<'ok' | Error>) {
  let calls = 0
  const r = {
    contractId: config.registryContract,
    async register() {
      const a = answers[Math.min(calls++, answers.length - 1)]!
      if (a === 'ok') return 'txhash'
      throw a
    },
  }
  return { registry: r as unknown as RegistryContract, calls: () => calls }
}

function setup(answers: Array<'ok' | Error>) {
  const { registry: reg, calls } = registry(answers)
  const rec = recordingLogger()
  const events = new EventLog()
  const state = new DashboardState()
  const registration = new KeeperRegistration({ registry: reg, config, logger: rec.logger as unknown as Logger, events }, (o) => {
    state.registration = o
  })
  return { registration, calls, rec, events, state }
}

const down = () => new ChainConnectionError(URL, 'ECONNREFUSED')

describe('registration retried while it fails', () => {
  it('keeps trying every cycle until it registers, then stops; the state follows', async () => {
    const { registration, calls, rec, events, state } = setup([down(), down(), 'ok'])
    expect(await registration.start()).toBe('failed')
    expect(state.registration).toBe('failed')
    const first = rec.lines.find((l) => l.msg === 'registration failed (continuing unregistered)')
    expect(first?.level).toBe('warn')
    expect(first?.obj.err).toBe(`cannot reach the RPC at ${URL} (ECONNREFUSED)`)

    expect(await registration.retryIfFailed()).toBe(`cannot reach the RPC at ${URL} (ECONNREFUSED)`)
    // The same failure again is not news: debug, no second event.
    expect(rec.lines.filter((l) => l.msg === 'registration retry failed (retrying next cycle)').map((l) => l.level)).toEqual(['debug'])
    expect(events.recent().filter((e) => e.kind === 'register')).toHaveLength(1)

    expect(await registration.retryIfFailed()).toBeUndefined()
    expect(registration.outcome).toBe('registered')
    expect(state.registration).toBe('registered')
    const ok = rec.lines.find((l) => l.msg === 'registered with the keeper registry')
    expect(ok).toMatchObject({ level: 'info', obj: { attempt: 3, tx: 'txhash' } })
    expect(events.recent().at(-1)).toMatchObject({ kind: 'register', message: 'registered retrying (attempt 3)' })

    expect(await registration.retryIfFailed()).toBeUndefined()
    expect(calls()).toBe(3)
  })

  it('stops at AlreadyRegistered (skipped)', async () => {
    const { registration, calls, rec } = setup([down(), new ContractError(201)])
    await registration.start()
    expect(await registration.retryIfFailed()).toBeUndefined()
    expect(registration.outcome).toBe('skipped')
    expect(rec.lines.find((l) => l.msg === REGISTRATION_SKIPPED)?.level).toBe('warn')
    await registration.retryIfFailed()
    expect(calls()).toBe(2)
  })

  it('is a step of the poll cycle: its failure is the cycle lastError until it succeeds', async () => {
    const { registration } = setup([down(), down(), 'ok'])
    await registration.start()
    const w = cycleWorld({ registration })
    await runCycle(w.deps)
    expect(w.deps.state.cycles.lastError).toBe(`registration: cannot reach the RPC at ${URL} (ECONNREFUSED)`)
    await runCycle(w.deps)
    expect(registration.outcome).toBe('registered')
    expect(w.deps.state.cycles.lastError).toBeNull()
  })
})
