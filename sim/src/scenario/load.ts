/**
 * Reading a scenario: YAML → plain object → `--set` overrides → zod. A bad file gets one error
 * per problem naming the file, the line and column, the field path and what was expected.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { basename, dirname, extname, resolve } from 'node:path'
import { LineCounter, parseDocument, isNode, type Document } from 'yaml'
import { Keypair, StrKey } from '@stellar/stellar-sdk'
import { ConfigError, parseConfig } from '../../../src/keeper/config/index.js'
import { feeEnv, type KeeperFee } from './chainSchema.js'
import { scenarioSchema, type Scenario } from './schema.js'

export class ScenarioError extends Error {
  override name = 'ScenarioError'
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`${file}: invalid scenario\n${problems.map((p) => `  - ${p}`).join('\n')}`)
  }
}

/** A scenario with where it came from (CSV paths resolve against `dir`). */
export interface LoadedScenario {
  scenario: Scenario
  /** The parsed YAML before defaults, with overrides applied. */
  input: Record<string, unknown>
  file: string
  dir: string
  /** SHA-256 of the resolved scenario, hex. */
  hash: string
}

/** One `--set path=value` (a single value; sweeps expand comma lists before calling this). */
export interface Override {
  path: string
  value: unknown
}

/** `"1.02"` → 1.02, `"true"` → true, `"null"` → null, otherwise the string (YAML scalar rules). */
export function parseValue(raw: string): unknown {
  const doc = parseDocument(raw)
  return doc.errors.length > 0 ? raw : doc.toJS()
}

/** Sets `a.b.0.c` in a plain object, creating objects on the way (numeric parts index arrays). */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.')
  if (parts.some((p) => p === '')) throw new Error(`--set ${path}: empty path segment`)
  let node: Record<string, unknown> | unknown[] = target
  for (const [i, part] of parts.entries()) {
    const last = i === parts.length - 1
    const key: string | number = Array.isArray(node) ? Number(part) : part
    if (Array.isArray(node) && !Number.isInteger(key)) throw new Error(`--set ${path}: ${part} is not an index into a list`)
    const holder = node as Record<string | number, unknown>
    if (last) {
      holder[key] = value
      return
    }
    const next = holder[key]
    if (next === undefined || next === null) holder[key] = /^\d+$/.test(parts[i + 1]!) ? [] : {}
    else if (typeof next !== 'object') throw new Error(`--set ${path}: ${parts.slice(0, i + 1).join('.')} is a value, not a section`)
    node = holder[key] as Record<string, unknown>
  }
}

function location(doc: Document, lines: LineCounter, path: (string | number | symbol)[]): string {
  // The deepest node that exists on the path (a missing field points at its parent).
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n) as (string | number)[], true)
    if (isNode(node) && node.range) {
      const { line, col } = lines.linePos(node.range[0])
      return `line ${line}, column ${col}`
    }
  }
  return 'line 1'
}

/** Price models whose diffusion shocks `market.correlation` can mix. */
const CORRELATABLE = new Set(['gbm', 'jumps'])

/**
 * Market models and correlations naming assets the world does not have (checked at load for a
 * deployed world, and once a found world's collaterals are known).
 */
export function assetCodeProblems(s: Pick<Scenario, 'market'>, assets: ReadonlySet<string>): string[] {
  const problems: string[] = []
  for (const code of Object.keys(s.market.prices)) {
    if (!assets.has(code)) problems.push(`market.prices.${code}: no world asset with that code (assets: ${[...assets].join(', ')})`)
  }
  problems.push(...correlationAssetProblems(s.market, assets))
  return problems
}

/** `market.correlation` assets that are no world asset, or whose price model has no GBM shocks. */
function correlationAssetProblems(market: Scenario['market'], assets: ReadonlySet<string>): string[] {
  const problems: string[] = []
  market.correlation?.assets.forEach((code, i) => {
    const where = `market.correlation.assets.${i}`
    if (!assets.has(code)) problems.push(`${where}: ${code} is no world asset (assets: ${[...assets].join(', ')})`)
    else {
      const model = Object.hasOwn(market.prices, code) ? market.prices[code]!.model : 'constant (no market.prices entry)'
      if (!CORRELATABLE.has(model)) problems.push(`${where}: ${code}'s price model is ${model}; only gbm and jumps models can be correlated`)
    }
  })
  return problems
}

/** Validates an already parsed object (from YAML, JSON or a sweep's grid point). */
export function validateScenario(input: unknown, file: string, doc?: { doc: Document; lines: LineCounter }): Scenario {
  const parsed = scenarioSchema.safeParse(input)
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const path = issue.path.length === 0 ? '(top level)' : issue.path.map(String).join('.')
      const where = doc ? `${location(doc.doc, doc.lines, issue.path)}: ` : ''
      return `${where}${path}: ${issue.message}`
    })
    throw new ScenarioError(file, problems)
  }
  const name = parsed.data.name ?? basename(file, extname(file))
  const problems: string[] = []
  if (parsed.data.world.from === undefined) {
    const assets = new Set(parsed.data.world.assets.map((a) => a.code))
    problems.push(...assetCodeProblems(parsed.data, assets))
    for (const code of Object.keys(parsed.data.world.borrowers.collateralMix ?? {})) {
      if (!assets.has(code)) problems.push(`world.borrowers.collateralMix.${code}: no world asset with that code`)
    }
  } else {
    // A found world's assets and borrowers are the pool's: what would deploy them has no say.
    const world = ((input as Record<string, unknown>)['world'] ?? {}) as Record<string, unknown>
    for (const field of ['assets', 'borrowers', 'lenderSupply']) {
      if (world[field] !== undefined) problems.push(`world.${field}: not used with world.from (the pool's own ${field === 'lenderSupply' ? 'supply' : field} are found); remove it`)
    }
    if (parsed.data.world.from.routers !== undefined && parsed.data.dex.primaryFailureRate > 0) {
      problems.push('dex.primaryFailureRate: the sim pauses only routers it deployed; with world.from.routers it must be 0')
    }
  }
  const k = parsed.data.keepers
  for (const o of k.individual) if (o.index >= k.count) problems.push(`keepers.individual: index ${o.index} but keepers.count is ${k.count}`)
  for (const c of k.crashes) if (c.keeper >= k.count) problems.push(`keepers.crashes: keeper ${c.keeper} but keepers.count is ${k.count}`)
  for (const f of parsed.data.world.depositors.flows) {
    if (f.depositor >= parsed.data.world.depositors.count) problems.push(`world.depositors.flows: depositor ${f.depositor} but depositors.count is ${parsed.data.world.depositors.count}`)
  }
  problems.push(...adversaryProblems(parsed.data))
  problems.push(...strategyProblems(parsed.data))
  problems.push(...feeProblems('keepers.fee', k.fee))
  for (const o of k.individual) if (o.fee !== undefined) problems.push(...feeProblems(`keepers.individual (index ${o.index}).fee`, { ...k.fee, ...o.fee }))
  if (problems.length > 0) throw new ScenarioError(file, problems)
  return { ...parsed.data, name }
}

/** The keeper settings a hostile keeper has no use for (it runs no keeper process). */
const KEEPER_ONLY = ['minProfit', 'pollInterval', 'slippageBps', 'channelAccounts', 'profitBasis', 'latency', 'rpcFaultRate', 'path', 'fee'] as const

/**
 * Hostile keepers and depositor adversaries that cannot run as written: settings of a keeper
 * process on a hostile keeper, a hostile keeper that also crashes, no honest keeper left, a
 * victim or depositor that does not exist or plays two parts, an exit-ahead with no draw that
 * could become overdue.
 */
export function adversaryProblems(s: Pick<Scenario, 'keepers' | 'world'>): string[] {
  const problems: string[] = []
  const k = s.keepers
  const depositors = s.world.depositors.count
  const hostile = k.individual.filter((o) => o.hostile !== undefined)
  for (const o of hostile) {
    const where = `keepers.individual (index ${o.index})`
    const extra = KEEPER_ONLY.filter((f) => o[f] !== undefined)
    if (extra.length > 0) problems.push(`${where}: a hostile keeper (${o.hostile!.kind}) runs no keeper process; ${extra.join(', ')} ${extra.length === 1 ? 'does' : 'do'} not apply`)
    if (k.crashes.some((c) => c.keeper === o.index)) problems.push(`keepers.crashes: keeper ${o.index} is hostile (${o.hostile!.kind}); it runs no keeper process to crash`)
    if (o.hostile!.kind === 'par-returns' && o.hostile!.victim >= depositors) problems.push(`${where}.hostile.victim: depositor ${o.hostile!.victim} but depositors.count is ${depositors}`)
  }
  const indexes = new Set(hostile.map((o) => o.index))
  if (hostile.length > 0 && [...Array(k.count).keys()].every((i) => indexes.has(i))) problems.push(`keepers.individual: every keeper is hostile; at least one of the ${k.count} must be an honest keeper`)
  const parts = new Map<number, string>()
  for (const o of hostile) if (o.hostile!.kind === 'par-returns') parts.set(o.hostile!.victim, `the par-returns victim of keeper ${o.index}`)
  s.world.depositors.adversaries.forEach((a, i) => {
    const where = `world.depositors.adversaries.${i}`
    if (a.kind !== 'exit-ahead') return
    if (a.depositor >= depositors) problems.push(`${where}.depositor: depositor ${a.depositor} but depositors.count is ${depositors}`)
    const other = parts.get(a.depositor)
    if (other !== undefined) problems.push(`${where}.depositor: depositor ${a.depositor} is already ${other}; give each adversary its own depositor`)
    parts.set(a.depositor, `the exit-ahead of adversaries.${i}`)
    const overdue = hostile.some((o) => o.hostile!.kind === 'draw-and-run') || k.crashes.some((c) => c.at === 'drawn' && (k.individual.find((o) => o.index === c.keeper)?.path ?? k.path) === 'two-step')
    if (!overdue) problems.push(`${where}: exit-ahead waits for a two-step draw past the slash timeout; give a keeper hostile: draw-and-run (or crash a two-step keeper at drawn)`)
  })
  return problems
}

/** Settings a strategy agent (seed-rule, nectar) has no use for: it takes a fixed path and sends from its operator alone. */
const DAEMON_ONLY = ['path', 'channelAccounts'] as const

/**
 * Strategy agents (sim/src/agents/strategies) that cannot run as written: one that is also
 * hostile, one given a path or channel accounts (its own are fixed), one the scenario crashes
 * (crash points are the daemon's FAULT_CRASH_AT).
 */
export function strategyProblems(s: Pick<Scenario, 'keepers'>): string[] {
  const problems: string[] = []
  for (const o of s.keepers.individual) {
    if (o.strategy === undefined || o.strategy === 'daemon') continue
    const where = `keepers.individual (index ${o.index})`
    if (o.hostile !== undefined) problems.push(`${where}: strategy ${o.strategy} and hostile ${o.hostile.kind}: a keeper is one or the other`)
    const extra = DAEMON_ONLY.filter((f) => o[f] !== undefined)
    if (extra.length > 0) problems.push(`${where}: the ${o.strategy} strategy has its own path and sends from its operator alone; ${extra.join(', ')} ${extra.length === 1 ? 'does' : 'do'} not apply`)
    if (s.keepers.crashes.some((c) => c.keeper === o.index)) problems.push(`keepers.crashes: keeper ${o.index} runs the ${o.strategy} strategy; crash points are the daemon's`)
  }
  return problems
}

/** A keeper's fee settings checked by the daemon's own configuration parser. */
const PLACEHOLDER = {
  KEEPER_SECRET: Keypair.fromRawEd25519Seed(Buffer.alloc(32, 1)).secret(),
  REGISTRY_CONTRACT: StrKey.encodeContract(Buffer.alloc(32, 2)),
  VAULT_CONTRACT: StrKey.encodeContract(Buffer.alloc(32, 3)),
}

function feeProblems(where: string, fee: KeeperFee | undefined): string[] {
  const env = feeEnv(fee)
  if (Object.keys(env).length === 0) return []
  try {
    parseConfig({ ...PLACEHOLDER, ...env })
    return []
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err
    return err.problems.map((p) => `${where}: ${p}`)
  }
}

export function scenarioHash(s: Scenario): string {
  return createHash('sha256').update(JSON.stringify(s)).digest('hex')
}

/** Parses YAML text; syntax errors carry their line. */
export function parseScenarioText(text: string, file: string, overrides: readonly Override[] = []): LoadedScenario {
  const lines = new LineCounter()
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: true })
  if (doc.errors.length > 0) {
    throw new ScenarioError(
      file,
      doc.errors.map((e) => `line ${e.linePos?.[0].line ?? '?'}, column ${e.linePos?.[0].col ?? '?'}: YAML syntax: ${e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`),
    )
  }
  const raw = doc.toJS() ?? {}
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new ScenarioError(file, ['line 1: the scenario must be a mapping of sections (run, world, market, dex, keepers)'])
  const input = raw as Record<string, unknown>
  for (const o of overrides) {
    try {
      setPath(input, o.path, o.value)
    } catch (err) {
      throw new ScenarioError(file, [(err as Error).message])
    }
  }
  // Line numbers only point into the file when nothing was overridden there.
  const scenario = validateScenario(input, file, overrides.length === 0 ? { doc, lines } : undefined)
  return { scenario, input, file, dir: dirname(resolve(file)), hash: scenarioHash(scenario) }
}

export function loadScenario(file: string, overrides: readonly Override[] = []): LoadedScenario {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (err) {
    throw new ScenarioError(file, [`cannot read the file: ${(err as Error).message}`])
  }
  return parseScenarioText(text, file, overrides)
}
