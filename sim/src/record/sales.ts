/**
 * The sales of the keepers' landed fills by route kind (report.json `keepers[].sales`,
 * `summary.sales`), from the swaps each fill's result records (`Result.sales`, kept on the
 * keeper's dashboard records). Route names as the keeper's sale routes give them
 * (src/keeper/dex/saleRoutes.ts): `primary`, `fallback`, `primary via <asset>`, `comet <pool>`.
 */
import type { SaleCounts } from '../report/types.js'

/** One landed fill's swaps: the asset each sold and the route's name. */
export type FillSales = readonly { asset: string; route: string }[]

export type RouteKind = Exclude<keyof SaleCounts, 'split'>

/** A route's kind by its name; null for a name no kind matches. */
export function routeKind(route: string): RouteKind | null {
  if (route === 'primary' || route === 'fallback') return route
  if (/^\S+ via /.test(route)) return 'via'
  if (route.startsWith('comet ')) return 'comet'
  return null
}

export const noSales = (): SaleCounts => ({ primary: 0, fallback: 0, via: 0, comet: 0, split: 0 })

/** Swaps per route kind over `fills`, and the fills that sold some lot asset in more than one part. */
export function saleCounts(fills: readonly FillSales[]): SaleCounts {
  const out = noSales()
  for (const fill of fills) {
    const parts = new Map<string, number>()
    for (const swap of fill) {
      const kind = routeKind(swap.route)
      if (kind !== null) out[kind]++
      parts.set(swap.asset, (parts.get(swap.asset) ?? 0) + 1)
    }
    if ([...parts.values()].some((n) => n > 1)) out.split++
  }
  return out
}

/** Counts added field by field (a missing one counts as zeros). */
export function sumSales(list: readonly (SaleCounts | undefined)[]): SaleCounts {
  const out = noSales()
  for (const c of list) {
    if (c === undefined) continue
    out.primary += c.primary
    out.fallback += c.fallback
    out.via += c.via
    out.comet += c.comet
    out.split += c.split
  }
  return out
}
