/**
 * A sweep's aggregate.json (sim/src/sweep/aggregate.ts) from the text of a file, or what is wrong
 * with it in words: JSON, an aggregate at all, the schema version the dashboard reads, then the
 * parts the Research view draws (scenario, parameters, seeds, risk figures, points).
 */
import type { SweepAggregate } from '../../../sim/src/sweep/aggregate.js'

/** The aggregate schema version the dashboard reads (the type keeps it equal to sim's). */
export const AGGREGATE_VERSION: SweepAggregate['schemaVersion'] = 2

export type ParsedAggregate = { ok: true; aggregate: SweepAggregate } | { ok: false; problems: string[] }

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

export function parseAggregateText(text: string): ParsedAggregate {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (err) {
    return { ok: false, problems: [`The file is not JSON (${err instanceof Error ? err.message : String(err)}). Open the aggregate.json of a sweep.`] }
  }
  if (!isObject(json) || !('schemaVersion' in json))
    return { ok: false, problems: ['This is not a sweep aggregate: it has no schemaVersion. Open the aggregate.json of a sweep folder (`npm run sim -- sweep …`).'] }
  if (json['schemaVersion'] !== AGGREGATE_VERSION)
    return { ok: false, problems: [`This aggregate has schema version ${JSON.stringify(json['schemaVersion'])}; the dashboard reads version ${AGGREGATE_VERSION}.`] }
  const problems: string[] = []
  if (!isObject(json['scenario']) || typeof json['scenario']['name'] !== 'string') problems.push('scenario.name: expected a string')
  if (!Array.isArray(json['params'])) problems.push('params: expected an array')
  if (!isObject(json['seeds'])) problems.push('seeds: expected an object')
  if (!isObject(json['risk']) || !Array.isArray(json['risk']['figures'])) problems.push('risk.figures: expected an array')
  if (!Array.isArray(json['points'])) problems.push('points: expected an array')
  if (problems.length > 0) return { ok: false, problems: ['The file looks like an aggregate.json but does not have its shape:', ...problems] }
  return { ok: true, aggregate: json as unknown as SweepAggregate }
}
