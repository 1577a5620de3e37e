/**
 * The HTTP API's settings: where it listens (API_HOST), which browser origins may read it
 * (API_CORS_ORIGINS), the bearer token that unlocks the strategy details (API_TOKEN), the event
 * streams one address may hold (API_SSE_PER_ADDRESS) and when /readyz says the keeper is not
 * working (READY_FAILED_CYCLES). Safe by default: loopback, no CORS, no strategy details.
 */
import { z } from 'zod'
import { numberIn, optional } from './fields.js'

export const DEFAULT_API_HOST = '127.0.0.1'
export const DEFAULT_SSE_PER_ADDRESS = 10
export const DEFAULT_READY_FAILED_CYCLES = 3
/** A token shorter than this is refused: it could be guessed. */
export const MIN_API_TOKEN_LENGTH = 16

/** `http(s)://host[:port]` with nothing after it (what a browser sends as Origin). */
function isOrigin(s: string): boolean {
  try {
    const u = new URL(s)
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === s
  } catch {
    return false
  }
}

export const apiFields = {
  API_HOST: optional.transform((v, ctx) => {
    if (v === undefined) return DEFAULT_API_HOST
    if (/^[A-Za-z0-9.:_-]+$/.test(v) || /^\[[0-9A-Fa-f:.]+\]$/.test(v)) return v.replace(/^\[(.*)\]$/, '$1')
    ctx.addIssue({ code: 'custom', message: `API_HOST must be an address or host name to bind (e.g. 127.0.0.1, 0.0.0.0, ::), got "${v}"` })
    return z.NEVER
  }),
  API_CORS_ORIGINS: optional.transform((v, ctx) => {
    const list = (v ?? '').split(/[\s,]+/).filter((s) => s !== '')
    for (const o of list) {
      if (o !== '*' && !isOrigin(o)) {
        ctx.addIssue({ code: 'custom', message: `API_CORS_ORIGINS entry must be * or an origin like https://dashboard.example.org (scheme, host, optional port; no path), got "${o}"` })
        return z.NEVER
      }
    }
    return list.includes('*') ? ['*'] : [...new Set(list)]
  }),
  API_TOKEN: optional.transform((v, ctx) => {
    if (v === undefined) return undefined
    if (v.length >= MIN_API_TOKEN_LENGTH && /^[\x21-\x7e]+$/.test(v)) return v
    // Never echo the value: it is a credential.
    ctx.addIssue({
      code: 'custom',
      message: `API_TOKEN must be at least ${MIN_API_TOKEN_LENGTH} printable characters without spaces (e.g. openssl rand -hex 32), got ${v.length} character(s)`,
    })
    return z.NEVER
  }),
  API_SSE_PER_ADDRESS: numberIn('API_SSE_PER_ADDRESS', 1, 100, DEFAULT_SSE_PER_ADDRESS, true, 'event streams one remote address may hold'),
  READY_FAILED_CYCLES: numberIn('READY_FAILED_CYCLES', 1, 1000, DEFAULT_READY_FAILED_CYCLES, true, 'consecutive failed poll cycles before /readyz answers 503'),
}

export interface ApiSettings {
  /** Address the API binds to (API_HOST, default 127.0.0.1: this machine only). */
  apiHost: string
  /** Browser origins allowed to read the API (API_CORS_ORIGINS; default none: no CORS header). */
  apiCorsOrigins: string[]
  /** Bearer token that unlocks the strategy details of /api/state (API_TOKEN; unset: never shown). */
  apiToken: string | undefined
  /** Concurrent /api/events streams one remote address may hold (API_SSE_PER_ADDRESS, default 10). */
  apiSsePerAddress: number
  /** Consecutive failed poll cycles after which /readyz answers 503 (READY_FAILED_CYCLES, default 3). */
  readyFailedCycles: number
}

export function apiSettings(c: {
  API_HOST: string
  API_CORS_ORIGINS: string[]
  API_TOKEN: string | undefined
  API_SSE_PER_ADDRESS: number
  READY_FAILED_CYCLES: number
}): ApiSettings {
  return {
    apiHost: c.API_HOST,
    apiCorsOrigins: c.API_CORS_ORIGINS,
    apiToken: c.API_TOKEN,
    apiSsePerAddress: c.API_SSE_PER_ADDRESS,
    readyFailedCycles: c.READY_FAILED_CYCLES,
  }
}
