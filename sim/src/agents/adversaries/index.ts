/**
 * The run's hostile agents (sim/README.md, Adversaries): the hostile keepers of
 * `keepers.individual[].hostile` and the depositors of `world.depositors.adversaries`, what
 * the lockstep loop and the watchdog ask of them, and their attempts as report.json `attacks`.
 */
import type { Keypair } from '@stellar/stellar-sdk'
import type { Chain } from '../../../../src/chain/index.js'
import { keypairFor, type World } from '../../../../src/world/index.js'
import type { RunEvents } from '../../../../src/world/runEvents.js'
import type { AttackResult } from '../../report/types.js'
import type { Scenario } from '../../scenario/schema.js'
import { usd } from '../../serviceSettings.js'
import { ceilUsdc, keeperAttackLoss, openDraws, overdueDraws } from './accounting.js'
import { holdingsOf, type AdversaryAgent, type AdversaryEnv } from './agent.js'
import { ExitAhead, JitDeposit } from './depositorAttacks.js'
import { DrawAndRun, ParReturns, Skim } from './keeperAttacks.js'

export { errorName } from './agent.js'

/** The accounts adversaries need beyond the world's: fresh JIT depositors and what to mint them and the hostile keepers. */
export interface AdversaryFunding {
  /** Accounts to create with a USDC trustline. */
  accounts: Keypair[]
  /** USDC (7 decimals) to mint, by address. */
  mints: { to: string; amount: bigint }[]
}

/** The JIT depositors' own accounts, in the order of `world.depositors.adversaries`. */
function jitAccount(seed: number, i: number): Keypair {
  return keypairFor(BigInt(seed), `adversary/jit/${i}`)
}

/** What setup must create and mint before the run for `s`'s adversaries. */
export function adversaryFunding(s: Scenario, world: Pick<World, 'keepers'>, seed: number): AdversaryFunding {
  const accounts: Keypair[] = []
  const mints: AdversaryFunding['mints'] = []
  s.world.depositors.adversaries.forEach((a, i) => {
    if (a.kind !== 'jit-deposit') return
    const kp = jitAccount(seed, i)
    accounts.push(kp)
    mints.push({ to: kp.publicKey(), amount: usd(a.amount) })
  })
  for (const o of s.keepers.individual) {
    if (o.hostile?.kind !== 'par-returns') continue
    const bond = ParReturns.bond(o.hostile, s)
    if (bond > 0n) mints.push({ to: world.keepers[o.index]!.publicKey(), amount: bond })
  }
  return { accounts, mints }
}

/** The agent names of `s`'s adversaries (their SimRpc agents are `attacker-<name>`). */
export function adversaryNames(s: Scenario): string[] {
  return buildSpecs(s).map((x) => x.name)
}

type Spec =
  | { name: string; kind: 'keeper'; index: number; hostile: NonNullable<Scenario['keepers']['individual'][number]['hostile']> }
  | { name: string; kind: 'depositor'; index: number; adversary: Scenario['world']['depositors']['adversaries'][number] }

function buildSpecs(s: Scenario): Spec[] {
  const out: Spec[] = []
  for (const o of [...s.keepers.individual].sort((a, b) => a.index - b.index)) {
    if (o.hostile !== undefined) out.push({ name: `keeper-${o.index + 1}`, kind: 'keeper', index: o.index, hostile: o.hostile })
  }
  let jit = 0
  s.world.depositors.adversaries.forEach((a, i) => {
    out.push({ name: a.kind === 'exit-ahead' ? `depositor-${a.depositor}` : `jit-${++jit}`, kind: 'depositor', index: i, adversary: a })
  })
  return out
}

export interface AdversaryParameters extends Omit<AdversaryEnv, 'chain' | 'backrun'> {
  seed: number
  /** A class-0 client and a back-run client for the agent `attacker-<name>`. */
  chains: (name: string) => { chain: Chain; backrun: Chain }
}

export class Adversaries {
  readonly agents: AdversaryAgent[] = []
  private readonly hostileKeepers = new Set<string>()

  constructor(private readonly p: AdversaryParameters) {
    const s = p.scenario
    for (const spec of buildSpecs(s)) {
      const env: AdversaryEnv = { ...p, ...p.chains(spec.name) }
      if (spec.kind === 'keeper') {
        const op = p.world.keepers[spec.index]!
        this.hostileKeepers.add(op.publicKey())
        const h = spec.hostile
        if (h.kind === 'draw-and-run') this.agents.push(new DrawAndRun(spec.name, h, op, env))
        else if (h.kind === 'par-returns') this.agents.push(new ParReturns(spec.name, h, op, p.world.depositors[h.victim]!, env))
        else this.agents.push(new Skim(spec.name, h, op, env))
      } else {
        const a = spec.adversary
        if (a.kind === 'exit-ahead') this.agents.push(new ExitAhead(spec.name, a, p.world.depositors[a.depositor]!, env))
        else this.agents.push(new JitDeposit(spec.name, a, jitAccount(p.seed, spec.index), env))
      }
    }
  }

  get size(): number {
    return this.agents.length
  }

  act(step: number): void {
    for (const a of this.agents) a.act(step)
  }

  backrun(): boolean {
    let any = false
    for (const a of this.agents) any = a.backrunNow() || any
    return any
  }

  decisive(step: number): boolean {
    return this.agents.some((a) => a.decisive(step))
  }

  busy(): boolean {
    return this.agents.some((a) => a.busy())
  }

  /** Hostile keepers whose two-step draw anyone may slash in the ledger of `step` (the watchdog's list). */
  overdueAt(step: number): string[] {
    if (this.hostileKeepers.size === 0) return []
    const timeout = BigInt(Math.round(this.p.scenario.world.registry.slashTimeout))
    return overdueDraws(openDraws(this.p.events().vault), this.p.timeOfStep(step), timeout)
      .map((d) => d.keeper)
      .filter((k) => this.hostileKeepers.has(k))
  }

  /**
   * Every attempt with its gain and the depositors' loss. Holdings of an attempt its agent did
   * not see to the end are read now, on the harness's `chain`, from the state the run ended in.
   */
  async results(chain: Chain, world: World, events: RunEvents): Promise<AttackResult[]> {
    const out: AttackResult[] = []
    for (const agent of this.agents) {
      for (const a of agent.attempts) {
        let gain: number
        let loss: number
        if (a.holdings !== undefined) {
          const end = a.holdings.end ?? (await holdingsOf(chain, world, a.holdings.accounts))
          gain = Number(end - a.holdings.start) / 1e7
          loss = ceilUsdc(keeperAttackLoss(events.vault, new Set(a.holdings.accounts), { from: a.fromLedger, to: a.toLedger }), 1n)
        } else {
          gain = a.figures?.gain ?? 0
          loss = a.figures?.depositorLoss ?? 0
        }
        const still = agent.finished || a.toLedger !== null ? '' : ' (still under way at the end of the run)'
        out.push({
          attacker: agent.name,
          kind: a.kind,
          attempt: a.attempt,
          description: a.description,
          account: a.account,
          fromLedger: a.fromLedger,
          toLedger: a.toLedger,
          steps: a.steps,
          refusedBy: a.steps.flatMap((s) => (s.error === undefined ? [] : [`${s.error.code} ${s.error.name}`])),
          gain,
          depositorLoss: loss,
          outcome: `${a.outcome || 'did not finish'}${still}${agent.error === undefined ? '' : `; stopped: ${agent.error}`}`,
        })
      }
    }
    return out
  }
}
