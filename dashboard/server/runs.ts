/**
 * The sim runs and sweeps of `--runs DIR` (runsScan.ts) over HTTP:
 *
 *   GET /api/runs                       → { dir, exists, entries: RunEntry[] } (newest first)
 *   GET /api/runs/<id>/report.json      → a listed run's report
 *   GET /api/runs/<id>/aggregate.json   → a listed sweep's aggregate
 *
 * Only the files of listed folders are served: an id with `..`, `.`, an empty segment, a
 * backslash or a NUL is refused (400), one not listed is not found (404), and a file whose real
 * path (symbolic links resolved) leaves DIR is not found either.
 */
import type { FastifyInstance, FastifyReply } from 'fastify'
import { createReadStream } from 'node:fs'
import { realpath } from 'node:fs/promises'
import { STATUS_CODES } from 'node:http'
import { join, relative, isAbsolute } from 'node:path'
import { entryFile, type RunEntry } from '../src/logic/runsApi.js'
import { scanRuns } from './runsScan.js'

export const RUNS_PATH = '/api/runs'

function refuse(reply: FastifyReply, statusCode: number, message: string) {
  return reply.code(statusCode).send({ error: STATUS_CODES[statusCode] ?? 'Error', statusCode, message })
}

/** `<id>/<file>` of a request path → the id's segments and the file name, or what is wrong with it. */
export function parseRunPath(rest: string): { id: string; file: string } | { problem: string } {
  let segments: string[]
  try {
    segments = rest.split('/').map(decodeURIComponent)
  } catch {
    return { problem: 'the path is not valid URL encoding' }
  }
  if (segments.length < 2) return { problem: 'give /api/runs/<id>/report.json or /api/runs/<id>/aggregate.json' }
  const bad = segments.find((s) => s === '' || s === '.' || s === '..' || s.includes('\\') || s.includes('/') || s.includes('\0'))
  if (bad !== undefined) return { problem: `the path may not hold ${bad === '' ? 'an empty segment (or start with /)' : JSON.stringify(bad)}: ids are folders inside the runs folder` }
  const file = segments.pop()!
  if (file !== 'report.json' && file !== 'aggregate.json') return { problem: `only report.json (a run) and aggregate.json (a sweep) are served, not ${JSON.stringify(file)}` }
  return { id: segments.join('/'), file }
}

/** Registers the routes on `app` for the runs folder `dir`. */
export function registerRunsRoutes(app: FastifyInstance, dir: string): void {
  app.get(RUNS_PATH, async (_req, reply) => {
    reply.header('cache-control', 'no-store')
    return scanRuns(dir)
  })

  app.get(`${RUNS_PATH}/*`, async (req, reply) => {
    const rest = (req.raw.url ?? '').split('?')[0]!.slice(RUNS_PATH.length + 1)
    const parsed = parseRunPath(rest)
    if ('problem' in parsed) return refuse(reply, 400, parsed.problem)
    const listing = await scanRuns(dir)
    const entry: RunEntry | undefined = listing.entries.find((e) => e.id === parsed.id && entryFile(e.kind) === parsed.file)
    if (entry === undefined) return refuse(reply, 404, `no ${parsed.file === 'report.json' ? 'run' : 'sweep'} ${JSON.stringify(parsed.id)} under ${dir}`)
    const path = join(dir, ...parsed.id.split('/'), parsed.file)
    const [root, real] = await Promise.all([realpath(dir), realpath(path).catch(() => undefined)])
    const inside = real !== undefined && !relative(root, real).startsWith('..') && !isAbsolute(relative(root, real))
    if (!inside) return refuse(reply, 404, `${parsed.id}/${parsed.file} is not inside ${dir}`)
    reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8')
    return reply.send(createReadStream(real))
  })
}
