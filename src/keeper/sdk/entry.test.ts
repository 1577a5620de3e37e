import { describe, expect, it } from 'vitest'
import { createRoundTripAdapter } from 'stellar-pooled-liquidations/keeper-sdk/example'
import { makeResult, sortTasksByPriority, taskPriority } from 'stellar-pooled-liquidations/keeper-sdk'

describe('package entry', () => {
  it('resolves the adapter SDK and the example adapter by package name', async () => {
    expect(taskPriority(0.3)).toBe(10)
    expect(sortTasksByPriority([{ priority: 1 }, { priority: 4 }])[0]!.priority).toBe(4)
    expect(makeResult({ drew: 5n, proceeds: 7n, responseTimeMs: 1 }).profit).toBe(2n)
    const adapter = createRoundTripAdapter({ jobs: () => [{ priority: 4, amount: 3n }] })
    expect(adapter.name()).toBe('round-trip')
    const calls: string[] = []
    const [task] = await adapter.getTasks(undefined as never)
    const result = await adapter.execute(undefined as never, undefined as never, task!, {
      draw: async (a) => void calls.push(`draw ${a}`),
      returnProceeds: async (a) => {
        calls.push(`return ${a}`)
        return 0n
      },
    })
    expect(calls).toEqual(['draw 3', 'return 3'])
    expect(result).toMatchObject({ drew: 3n, proceeds: 3n, profit: 0n, note: 'round trip' })
  })
})
