/**
 * Reading a scenario: YAML → plain object → `--set` overrides → zod and the cross-references. A
 * bad file gets every problem in one pass, one line each, naming the line and column of the
 * offending key or value (or the `--set name=value` it came from), the field path and what is
 * wrong with it (problems.ts).
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { basename, dirname, extname, resolve } from 'node:path'
import { LineCounter, parseDocument } from 'yaml'
import { crossReferenceProblems, type Defaults } from './crossRefs.js'
import { adversaryProblems, feeProblems, strategyProblems } from './population.js'
import { describe, fromIssue, issueMessage, type Origin, type Problem, type Source } from './problems.js'
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
  /** How the command line said it (`--set path=value`), for problems with the value. */
  origin?: string
}

const originOf = (o: Override): string => o.origin ?? `--set ${o.path}=${o.value === undefined ? '' : typeof o.value === 'string' ? o.value : JSON.stringify(o.value)}`

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
  return correlationProblemsOf(market, assets, true).map((p) => `${p.path.join('.')}: ${p.message}`)
}

function correlationProblemsOf(market: Scenario['market'], assets: ReadonlySet<string>, unknown: boolean): Problem[] {
  const problems: Problem[] = []
  market.correlation?.assets.forEach((code, i) => {
    const path = ['market', 'correlation', 'assets', i]
    if (!assets.has(code)) {
      if (unknown) problems.push({ path, message: `${code} is no world asset (assets: ${[...assets].join(', ')})` })
    } else {
      const model = Object.hasOwn(market.prices, code) ? market.prices[code]!.model : 'constant (no market.prices entry)'
      if (!CORRELATABLE.has(model)) problems.push({ path, message: `${code}'s price model is ${model}; only gbm and jumps models can be correlated` })
    }
  })
  return problems
}

/** What the schema fills in for a scenario that leaves it out (the cross-references' view). */
let defaults: Defaults | undefined
function schemaDefaults(): Defaults {
  if (defaults === undefined) {
    const d = scenarioSchema.parse({ run: { ledgers: 1 } })
    defaults = { assets: d.world.assets.map((a) => a.code), keepers: d.keepers.count, depositors: d.world.depositors.count }
  }
  return defaults
}

/**
 * Validates an already parsed object (from YAML, JSON or a sweep's grid point). Every problem is
 * reported at once: the schema's and the cross-references'; those needing complete values (a
 * found world's, adversaries', strategies', fees') once the schema holds. With `src` each problem
 * names its line and column; `origins` name the overridden paths' command-line options.
 */
export function validateScenario(input: unknown, file: string, src?: Source, origins: readonly Origin[] = [], earlier: readonly Problem[] = []): Scenario {
  const parsed = scenarioSchema.safeParse(input, { error: (iss) => issueMessage(iss) })
  const found: Problem[] = [...earlier]
  if (!parsed.success) found.push(...parsed.error.issues.flatMap((issue) => fromIssue(issue, scenarioSchema)))
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) found.push(...crossReferenceProblems(input as Record<string, unknown>, schemaDefaults()))
  if (!parsed.success) throw new ScenarioError(file, describe(found, src, origins))
  const name = parsed.data.name ?? basename(file, extname(file))
  if (parsed.data.world.from === undefined) {
    const assets = new Set(parsed.data.world.assets.map((a) => a.code))
    // Unknown assets are the cross-references' (reported with the schema's problems).
    found.push(...correlationProblemsOf(parsed.data.market, assets, false))
  } else {
    // A found world's assets and borrowers are the pool's: what would deploy them has no say.
    const world = ((input as Record<string, unknown>)['world'] ?? {}) as Record<string, unknown>
    for (const field of ['assets', 'borrowers', 'lenderSupply']) {
      if (world[field] !== undefined) found.push({ path: ['world', field], at: 'key', message: `not used with world.from (the pool's own ${field === 'lenderSupply' ? 'supply is' : `${field} are`} found); remove it` })
    }
    if (parsed.data.world.from.routers !== undefined && parsed.data.dex.primaryFailureRate > 0) {
      found.push({ path: ['dex', 'primaryFailureRate'], message: 'the sim pauses only routers it deployed; with world.from.routers it must be 0' })
    }
  }
  found.push(...adversaryProblems(parsed.data), ...strategyProblems(parsed.data), ...feeProblems(parsed.data))
  if (found.length > 0) throw new ScenarioError(file, describe(found, src, origins))
  return { ...parsed.data, name }
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
  const earlier: Problem[] = []
  for (const o of overrides) {
    try {
      setPath(input, o.path, o.value)
    } catch (err) {
      earlier.push({ path: o.path.split('.'), message: (err as Error).message.replace(/^--set [^:]*: /, '') })
    }
  }
  // Problems in what the file says keep their lines; those in overridden values name their option.
  const scenario = validateScenario(input, file, { doc, lines }, overrides.map((o) => ({ path: o.path, origin: originOf(o) })), earlier)
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
