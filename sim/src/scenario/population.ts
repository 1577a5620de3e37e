/**
 * The keeper population and depositor adversaries checked once the schema holds: hostile keepers
 * and strategy agents given settings they have no use for, crashes of keepers that run no
 * process, no honest keeper left, victims and depositors that do not exist or play two parts,
 * an exit-ahead with no draw that could become overdue, and fee settings the keeper's own
 * configuration parser refuses. Each problem has the path of the entry (or the field) it is
 * about; keeper and depositor indexes are 0-based (keeper 0 is keeper-1).
 */
import { Keypair, StrKey } from '@stellar/stellar-sdk'
import { ConfigError, parseConfig } from '../../../src/keeper/config/index.js'
import { feeEnv, type KeeperFee } from './chainSchema.js'
import type { Problem } from './problems.js'
import type { Scenario } from './schema.js'

/** The keeper settings a hostile keeper has no use for (it runs no keeper process). */
const KEEPER_ONLY = ['minProfit', 'pollInterval', 'slippageBps', 'channelAccounts', 'profitBasis', 'latency', 'rpcFaultRate', 'path', 'fee'] as const

/** Settings a strategy agent (seed-rule, nectar) has no use for: it takes a fixed path and sends from its operator alone. */
const DAEMON_ONLY = ['path', 'channelAccounts'] as const

const keeperName = (index: number) => `keeper ${index} (keeper-${index + 1})`
const doesOrDo = (list: readonly string[]) => (list.length === 1 ? 'does' : 'do')

/** Hostile keepers and depositor adversaries that cannot run as written. */
export function adversaryProblems(s: Pick<Scenario, 'keepers' | 'world'>): Problem[] {
  const problems: Problem[] = []
  const k = s.keepers
  const depositors = s.world.depositors.count
  k.individual.forEach((o, i) => {
    if (o.hostile === undefined) return
    const at = ['keepers', 'individual', i]
    const extra = KEEPER_ONLY.filter((f) => o[f] !== undefined)
    if (extra.length > 0) problems.push({ path: [...at, extra[0]!], at: 'key', message: `${keeperName(o.index)} is hostile (${o.hostile.kind}) and runs no keeper process; ${extra.join(', ')} ${doesOrDo(extra)} not apply` })
    k.crashes.forEach((c, j) => {
      if (c.keeper === o.index) problems.push({ path: ['keepers', 'crashes', j, 'keeper'], message: `${keeperName(o.index)} is hostile (${o.hostile!.kind}); it runs no keeper process to crash` })
    })
    if (o.hostile.kind === 'par-returns' && o.hostile.victim >= depositors)
      problems.push({ path: [...at, 'hostile', 'victim'], message: `depositor ${o.hostile.victim} does not exist: world.depositors.count is ${depositors} (depositors are 0-based)` })
  })
  const hostile = k.individual.filter((o) => o.hostile !== undefined)
  const indexes = new Set(hostile.map((o) => o.index))
  if (hostile.length > 0 && [...Array(k.count).keys()].every((i) => indexes.has(i))) problems.push({ path: ['keepers', 'individual'], message: `every keeper is hostile; at least one of the ${k.count} must be an honest keeper` })
  const parts = new Map<number, string>()
  for (const o of hostile) if (o.hostile!.kind === 'par-returns') parts.set(o.hostile!.victim, `the par-returns victim of ${keeperName(o.index)}`)
  s.world.depositors.adversaries.forEach((a, i) => {
    const at = ['world', 'depositors', 'adversaries', i]
    if (a.kind !== 'exit-ahead') return
    if (a.depositor >= depositors) problems.push({ path: [...at, 'depositor'], message: `depositor ${a.depositor} does not exist: world.depositors.count is ${depositors} (depositors are 0-based)` })
    const other = parts.get(a.depositor)
    if (other !== undefined) problems.push({ path: [...at, 'depositor'], message: `depositor ${a.depositor} is already ${other}; give each adversary its own depositor` })
    parts.set(a.depositor, `the exit-ahead of adversaries.${i}`)
    const overdue = hostile.some((o) => o.hostile!.kind === 'draw-and-run') || k.crashes.some((c) => c.at === 'drawn' && (k.individual.find((o) => o.index === c.keeper)?.path ?? k.path) === 'two-step')
    if (!overdue) problems.push({ path: at, message: 'exit-ahead waits for a two-step draw past the slash timeout; give a keeper hostile: draw-and-run (or crash a two-step keeper at drawn)' })
  })
  return problems
}

/** Strategy agents (sim/src/agents/strategies) that cannot run as written. */
export function strategyProblems(s: Pick<Scenario, 'keepers'>): Problem[] {
  const problems: Problem[] = []
  s.keepers.individual.forEach((o, i) => {
    if (o.strategy === undefined || o.strategy === 'daemon') return
    const at = ['keepers', 'individual', i]
    if (o.hostile !== undefined) problems.push({ path: [...at, 'strategy'], message: `strategy ${o.strategy} and hostile ${o.hostile.kind}: a keeper is one or the other` })
    const extra = DAEMON_ONLY.filter((f) => o[f] !== undefined)
    if (extra.length > 0) problems.push({ path: [...at, extra[0]!], at: 'key', message: `the ${o.strategy} strategy has its own path and sends from its operator alone; ${extra.join(', ')} ${doesOrDo(extra)} not apply` })
    s.keepers.crashes.forEach((c, j) => {
      if (c.keeper === o.index) problems.push({ path: ['keepers', 'crashes', j, 'keeper'], message: `${keeperName(o.index)} runs the ${o.strategy} strategy; crash points are the daemon's` })
    })
  })
  return problems
}

/** A keeper's fee settings checked by the daemon's own configuration parser. */
const PLACEHOLDER = {
  KEEPER_SECRET: Keypair.fromRawEd25519Seed(Buffer.alloc(32, 1)).secret(),
  REGISTRY_CONTRACT: StrKey.encodeContract(Buffer.alloc(32, 2)),
  VAULT_CONTRACT: StrKey.encodeContract(Buffer.alloc(32, 3)),
}

function feeProblemsAt(path: (string | number)[], fee: KeeperFee | undefined): Problem[] {
  const env = feeEnv(fee)
  if (Object.keys(env).length === 0) return []
  try {
    parseConfig({ ...PLACEHOLDER, ...env })
    return []
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err
    return err.problems.map((message) => ({ path, message }))
  }
}

/** `keepers.fee`, and each keeper's own fee over it (field by field). */
export function feeProblems(s: Pick<Scenario, 'keepers'>): Problem[] {
  const k = s.keepers
  return [
    ...feeProblemsAt(['keepers', 'fee'], k.fee),
    ...k.individual.flatMap((o, i) => (o.fee === undefined ? [] : feeProblemsAt(['keepers', 'individual', i, 'fee'], { ...k.fee, ...o.fee }))),
  ]
}
