import { describe, expect, it } from 'vitest'
import { fetchKeeperState } from './keeperApi.js'

const base = { mode: 'liquidating', operator: 'GABC', keeperName: 'k1', updatedAt: null, positions: [], events: [] }

function stub(body: unknown) {
  const seen: Record<string, string>[] = []
  const fetch = (async (_url: string, init?: RequestInit) => {
    seen.push({ ...(init?.headers as Record<string, string>) })
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })
  }) as typeof globalThis.fetch
  return { fetch, seen }
}

describe('fetchKeeperState', () => {
  it('sends the keeper API token as a bearer token when one is set, and nothing otherwise', async () => {
    const s = stub({ ...base, executions: [], strategyDetails: true })
    await fetchKeeperState('http://127.0.0.1:8080', { fetch: s.fetch, token: 'tok-0123456789abcdef' })
    await fetchKeeperState('http://127.0.0.1:8080', { fetch: s.fetch })
    expect(s.seen[0]!.authorization).toBe('Bearer tok-0123456789abcdef')
    expect(s.seen[1]).not.toHaveProperty('authorization')
  })

  it('reads a state without planned executions (a keeper asked without its token)', async () => {
    const s = stub({ ...base, strategyDetails: false })
    const state = await fetchKeeperState('http://127.0.0.1:8080', { fetch: s.fetch })
    expect(state.executions).toEqual([])
    expect(state.strategyDetails).toBe(false)
  })
})
