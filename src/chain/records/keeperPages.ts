/**
 * Reading every keeper of the registry, whose `get_keepers(start, limit)` returns one page of at
 * most 200 records (slots [start, min(start + limit, keeper_count))). Browser-safe.
 *
 * The pages are separate simulations, so the list is not one atomic view: a keeper registered
 * or deregistered between two reads may be missed or (the registry swap-removes: the last slot
 * moves into the freed one) read twice. Records are kept once per operator, the first read.
 */
import { ContractError } from '../errors.js'

/** The largest `limit` `get_keepers` accepts (InvalidPageSize above it). */
export const KEEPER_PAGE_LIMIT = 200

/** The registry's `PageOutOfRange` (start > keeper_count). */
export const PAGE_OUT_OF_RANGE = 217

export interface ReadKeeperPagesOptions {
  /** `keeper_count()`: when given, the pages it covers are read in parallel; else one after another until a short page. */
  count?: () => Promise<number>
  /** Pages in flight at once (default 4). */
  concurrency?: number
}

/** Whether `err` (or what it wraps) is the registry's PageOutOfRange: the list shrank while it was read. */
export function isPageOutOfRange(err: unknown): boolean {
  for (let e = err, depth = 0; e !== undefined && e !== null && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof ContractError) return e.code === PAGE_OUT_OF_RANGE
  }
  return false
}

/**
 * Every keeper: the pages `keeper_count` covers (in parallel, at most `concurrency` at once),
 * then further pages for as long as the last one read was full (keepers registered meanwhile).
 * A page past the end (PageOutOfRange: keepers left meanwhile) ends the list.
 *
 * @example
 * const keepers = await readKeeperPages(
 *   (start, limit) => read(chain, registry, 'get_keepers', [u32(start), u32(limit)]).then((v) => (v as unknown[]).map(toKeeperInfo)),
 *   { count: () => read<number>(chain, registry, 'keeper_count') },
 * )
 */
export async function readKeeperPages<T extends { operator: string }>(
  page: (start: number, limit: number) => Promise<T[]>,
  options: ReadKeeperPagesOptions = {},
): Promise<T[]> {
  const pageOrEnd = async (start: number): Promise<T[] | undefined> => {
    try {
      return await page(start, KEEPER_PAGE_LIMIT)
    } catch (err) {
      if (isPageOutOfRange(err)) return undefined
      throw err
    }
  }
  const pages: (T[] | undefined)[] = []
  let next = 0
  if (options.count !== undefined) {
    const count = await options.count()
    const starts: number[] = []
    for (let s = 0; s < count; s += KEEPER_PAGE_LIMIT) starts.push(s)
    const results = new Array<T[] | undefined>(starts.length)
    let i = 0
    const worker = async (): Promise<void> => {
      while (i < starts.length) {
        const at = i++
        results[at] = await pageOrEnd(starts[at]!)
      }
    }
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 4, starts.length)) }, worker))
    pages.push(...results)
    next = starts.length * KEEPER_PAGE_LIMIT
    // Nothing to read on when the count said none, or a page came back short or past the end.
    const last = pages.at(-1)
    if (count === 0 || last === undefined || last.length < KEEPER_PAGE_LIMIT) return dedupe(pages)
  }
  for (;;) {
    const p = await pageOrEnd(next)
    pages.push(p)
    if (p === undefined || p.length < KEEPER_PAGE_LIMIT) return dedupe(pages)
    next += KEEPER_PAGE_LIMIT
  }
}

function dedupe<T extends { operator: string }>(pages: readonly (T[] | undefined)[]): T[] {
  const seen = new Set<string>()
  const out: T[] = []
  for (const p of pages) {
    for (const k of p ?? []) {
      if (seen.has(k.operator)) continue
      seen.add(k.operator)
      out.push(k)
    }
  }
  return out
}
