/**
 * Cross-references in a scenario as written (before zod, so that they are reported together with
 * the schema's problems): asset codes in market.prices, market.correlation and
 * world.borrowers.collateralMix that are no world asset, and keeper and depositor indexes out of
 * range. Indexes are 0-based: keeper 0 is the one named keeper-1. Values of the wrong type are
 * skipped here (the schema reports them).
 */
import type { Problem } from './problems.js'
import { didYouMean } from './suggest.js'

type Raw = Record<string, unknown>

const mapping = (v: unknown): Raw | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Raw) : undefined)
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])
const count = (v: unknown, fallback: number): number | undefined => (v === undefined ? fallback : Number.isInteger(v) && (v as number) >= 1 ? (v as number) : undefined)

/** What a scenario leaves out, as the schema fills it in. */
export interface Defaults {
  assets: readonly string[]
  keepers: number
  depositors: number
}

function keeperRange(n: number): string {
  return n === 1 ? 'the only keeper is 0 (keeper-1)' : `keepers are 0 to ${n - 1} (keeper-1 to keeper-${n}: indexes are 0-based)`
}

function depositorRange(n: number): string {
  return n === 1 ? 'the only depositor is 0' : `depositors are 0 to ${n - 1} (0-based)`
}

export function crossReferenceProblems(input: Raw, defaults: Defaults): Problem[] {
  const problems: Problem[] = []
  const world = mapping(input['world']) ?? {}
  const market = mapping(input['market']) ?? {}
  const keepers = mapping(input['keepers']) ?? {}

  // A found world's assets are the pool's, known only once it is read (found.ts checks them then).
  if (world['from'] === undefined) {
    const written = world['assets'] === undefined ? [...defaults.assets] : Array.isArray(world['assets']) ? world['assets'].map((a) => mapping(a)?.['code']) : undefined
    if (written !== undefined && written.every((c) => typeof c === 'string')) {
      const assets = new Set(written as string[])
      const names = [...assets].join(', ')
      const unknown = (code: string) => `${code} is no world asset (world.assets: ${names})${didYouMean(code, assets)}`
      for (const code of Object.keys(mapping(market['prices']) ?? {})) {
        if (!assets.has(code)) problems.push({ path: ['market', 'prices', code], at: 'key', message: unknown(code) })
      }
      list(mapping(market['correlation'])?.['assets']).forEach((code, i) => {
        if (typeof code === 'string' && !assets.has(code)) problems.push({ path: ['market', 'correlation', 'assets', i], message: unknown(code) })
      })
      for (const code of Object.keys(mapping(mapping(world['borrowers'])?.['collateralMix']) ?? {})) {
        if (!assets.has(code)) problems.push({ path: ['world', 'borrowers', 'collateralMix', code], at: 'key', message: unknown(code) })
      }
    }
  }

  const k = count(keepers['count'], defaults.keepers)
  if (k !== undefined) {
    list(keepers['individual']).forEach((o, i) => {
      const index = mapping(o)?.['index']
      if (Number.isInteger(index) && (index as number) >= k) problems.push({ path: ['keepers', 'individual', i, 'index'], message: `keeper ${index} does not exist: keepers.count is ${k}; ${keeperRange(k)}` })
    })
    list(keepers['crashes']).forEach((c, i) => {
      const keeper = mapping(c)?.['keeper']
      if (Number.isInteger(keeper) && (keeper as number) >= k) problems.push({ path: ['keepers', 'crashes', i, 'keeper'], message: `keeper ${keeper} does not exist: keepers.count is ${k}; ${keeperRange(k)}` })
    })
  }

  const depositors = mapping(world['depositors']) ?? {}
  const d = count(depositors['count'], defaults.depositors)
  if (d !== undefined) {
    list(depositors['flows']).forEach((f, i) => {
      const who = mapping(f)?.['depositor']
      if (Number.isInteger(who) && (who as number) >= d) problems.push({ path: ['world', 'depositors', 'flows', i, 'depositor'], message: `depositor ${who} does not exist: world.depositors.count is ${d}; ${depositorRange(d)}` })
    })
  }
  return problems
}
