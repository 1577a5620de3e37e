import { describe, expect, it } from 'vitest'
import { ContractError, type InvokeResult } from '../../../../src/chain/index.js'
import { AdversaryAgent, errorName, type AdversaryEnv, type Attempt } from './agent.js'

const flush = () => new Promise<void>((r) => setImmediate(r))

let building = 100
let ready = false
const env = { building: () => building } as unknown as AdversaryEnv
const applied = (ledger: number): InvokeResult<bigint> => ({ value: 7n, ledger, hash: `h${ledger}` }) as unknown as InvokeResult<bigint>

/** Waits for step 3, sends one applied and one refused step, waits for `ready`, then for a back-run slot. */
class Probe extends AdversaryAgent {
  attempt: Attempt | undefined
  phase = 'start'
  protected async script(): Promise<void> {
    await this.untilStep(3)
    const a = this.begin('probe', 'GPROBE')
    this.attempt = a
    this.phase = 'sending'
    await this.tx(a, 'applied step', async () => applied(building), 5n * 10_000_000n)
    await this.tx(a, 'refused step', async () => {
      throw new ContractError(216)
    })
    await this.tx(a, 'failed step', async () => {
      throw new ContractError(124, { feeCharged: 100n })
    })
    this.phase = 'waiting'
    await this.until(() => ready, (step) => step === 9)
    this.phase = 'backrun'
    await this.untilBackrun(() => building >= 110)
    this.phase = 'done'
    this.end(a, 'probed')
  }
}

describe('AdversaryAgent', () => {
  it('runs its script through the loop’s waits, records each step, and says when the loop may not fast-forward', async () => {
    const p = new Probe('keeper-9', 'skim', env)
    expect(p.busy()).toBe(false)
    p.act(1)
    await flush()
    // Waiting for step 3: not busy, and step 3 (or later) is decisive.
    expect([p.busy(), p.decisive(2), p.decisive(3), p.decisive(4)]).toEqual([false, false, true, true])
    p.act(2)
    await flush()
    expect(p.phase).toBe('start')
    building = 103
    p.act(3)
    await flush()
    expect(p.phase).toBe('waiting')
    // A condition wait: only the steps its decisive() names hold fast-forward off.
    expect([p.busy(), p.decisive(8), p.decisive(9)]).toEqual([false, false, true])
    p.act(4)
    await flush()
    expect(p.phase).toBe('waiting')
    ready = true
    p.act(5)
    await flush()
    // Waiting to back-run: busy, and the slot opens only after the ledger's agents settled and when ready.
    expect([p.phase, p.busy()]).toEqual(['backrun', true])
    expect(p.backrunNow()).toBe(false)
    building = 110
    p.act(6)
    await flush()
    expect(p.phase).toBe('backrun')
    expect(p.backrunNow()).toBe(true)
    await flush()
    expect([p.phase, p.finished, p.busy()]).toEqual(['done', true, false])
    const a = p.attempt!
    expect(a.steps).toEqual([
      { ledger: 103, action: 'applied step', result: 'applied', amount: 5 },
      { ledger: 103, action: 'refused step', result: 'refused', error: { code: 216, name: 'BondTooSmall' } },
      { ledger: 103, action: 'failed step', result: 'failed', error: { code: 124, name: 'WithdrawalPending' } },
    ])
    expect([a.fromLedger, a.toLedger, a.outcome]).toEqual([103, 103, 'probed'])
  })

  it('names the errors of the token, the vault, the registry and the executor', () => {
    expect([errorName(10), errorName(110), errorName(122), errorName(209), errorName(457), errorName(1205)]).toEqual([
      'BalanceError',
      'InsufficientLiquidity',
      'NotApprovedExecutor',
      'KeeperBanned',
      'CollateralKept',
      '#1205',
    ])
  })
})
