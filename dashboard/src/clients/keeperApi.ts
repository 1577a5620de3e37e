/**
 * A keeper daemon's HTTP API, GET /api/state (src/keeper/routes/views.ts `stateView`, described in
 * routes/openapi.ts). The shapes are declared here rather than imported from the keeper, and
 * checked with zod on arrival, so a keeper of another version fails with a readable message
 * instead of a blank table. Amounts arrive as decimal strings of 7-decimal integers and are
 * turned into bigints here; times stay ISO-8601 strings.
 */
import { z } from 'zod'

const amount = z.string().regex(/^-?\d+$/, 'an integer amount string').transform((s) => BigInt(s))

const positionSchema = z.object({
  protocol: z.string(),
  /** The lending pool of the position (keepers before LENDING_POOLS leave it out). */
  pool: z.string().nullable().default(null),
  user: z.string(),
  /** Float, 1.0 = the liquidation threshold; null without debt. */
  healthFactor: z.number().nullable(),
  collateralBase: amount.nullable(),
  liabilityBase: amount.nullable(),
})

const progressSchema = z.object({
  /** Ledger the progress was computed at; the fill it describes lands in the next one. */
  ledger: z.number().int(),
  /** Blocks since the auction started, for a fill in `ledger + 1`. */
  offset: z.number().int(),
  /** Lot value / bid cost of that fill, 7 decimals; null when the bid is free. */
  ratio: amount.nullable(),
  minProfit: amount,
  /** Percent of the auction's lot still open, against the auction as the keeper first saw it. */
  leftPercent: z.number().nullable().default(null),
})

const executionSchema = z.object({
  key: z.string(),
  adapter: z.string(),
  /** The lending pool of the execution; null for work outside one. */
  pool: z.string().nullable().default(null),
  label: z.string(),
  stage: z.string(),
  path: z.string(),
  plannedAt: z.number().int(),
  targetLedger: z.number().int(),
  expiresAtLedger: z.number().int().nullable(),
  /** USDC the fill draws (the bid at the target ledger). */
  capital: amount,
  priority: z.number(),
  progress: progressSchema.nullable(),
  note: z.string().nullable(),
})

/** One lending pool of the keeper (LENDING_POOLS): its borrowers now and this process's fills there. */
const poolSchema = z.object({
  pool: z.string(),
  borrowers: z.number().int(),
  liquidatable: z.number().int(),
  lowestHealthFactor: z.number().nullable(),
  fills: z.number().int(),
  drew: amount,
  proceeds: amount,
  profit: amount,
  /** Only with the keeper's API token. */
  activeExecutions: z.number().int().optional(),
})

const eventSchema = z.object({
  id: z.number().int(),
  ts: z.string(),
  kind: z.string(),
  message: z.string(),
  data: z.record(z.string(), z.unknown()).optional(),
})

export const keeperStateSchema = z.object({
  mode: z.string(),
  operator: z.string(),
  keeperName: z.string(),
  updatedAt: z.string().nullable(),
  positions: z.array(positionSchema),
  /** Per lending pool, in the keeper's configured order (keepers before LENDING_POOLS leave it out). */
  pools: z.array(poolSchema).default([]),
  events: z.array(eventSchema),
  /** Only for a request with the keeper's API token (API_TOKEN); without it the keeper leaves them out. */
  executions: z.array(executionSchema).default([]),
  /** False when the keeper left its strategy details out (no token, or a wrong one). */
  strategyDetails: z.boolean().optional(),
})

export type KeeperState = z.infer<typeof keeperStateSchema>
export type KeeperPosition = KeeperState['positions'][number]
export type KeeperPool = KeeperState['pools'][number]
export type KeeperExecution = KeeperState['executions'][number]
export type KeeperProgress = NonNullable<KeeperExecution['progress']>
/** One line of a keeper's event log (/api/state `events`, /api/events data). */
export type KeeperEvent = z.infer<typeof eventSchema>

export { eventSchema as keeperEventSchema }

/** `base` + `path` without a doubled slash. */
export function apiUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`
}

/**
 * GET `<base>/api/state`, checked. With `token` (the keeper's API_TOKEN) it is sent as
 * `Authorization: Bearer <token>`, which the keeper asks before it shows its planned executions.
 *
 * @throws Error naming the keeper and what went wrong (unreachable, HTTP status, unexpected shape)
 */
export async function fetchKeeperState(
  base: string,
  init: { signal?: AbortSignal; fetch?: typeof fetch; token?: string | undefined } = {},
): Promise<KeeperState> {
  const get = init.fetch ?? fetch
  const headers: Record<string, string> = { accept: 'application/json' }
  if (init.token !== undefined && init.token !== '') headers.authorization = `Bearer ${init.token}`
  let res: Response
  try {
    res = await get(apiUrl(base, '/api/state'), { headers, ...(init.signal ? { signal: init.signal } : {}) })
  } catch (err) {
    throw new Error(`keeper ${base} is unreachable (${err instanceof Error ? err.message : String(err)})`)
  }
  if (!res.ok) throw new Error(`keeper ${base} answered HTTP ${res.status} to /api/state`)
  const parsed = keeperStateSchema.safeParse(await res.json())
  if (!parsed.success) {
    const first = parsed.error.issues[0]
    throw new Error(`keeper ${base} sent an /api/state this dashboard does not understand (${first ? `${first.path.join('.')}: ${first.message}` : 'bad shape'})`)
  }
  return parsed.data
}
