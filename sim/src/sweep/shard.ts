/**
 * Splitting a sweep over machines: `--shard i/N` takes the jobs whose index is i modulo N.
 * Shards are numbered from 0 (0/N … (N−1)/N), like a Kubernetes Indexed Job's
 * JOB_COMPLETION_INDEX, so N machines running 0/N to (N−1)/N cover every job exactly once.
 * Round-robin (rather than contiguous blocks) spreads every grid point over all shards, so slow
 * corners of the grid do not all land on one machine.
 */
import { SweepError, type SweepJob } from './grid.js'

export interface Shard {
  /** 0-based. */
  index: number
  count: number
}

/** Parses `i/N` (0 <= i < N, N >= 1). */
export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text)
  if (!m) throw new SweepError(`--shard ${text}: expected i/N, e.g. 0/4 (shards are numbered from 0)`)
  const index = Number(m[1])
  const count = Number(m[2])
  if (count < 1) throw new SweepError(`--shard ${text}: N must be at least 1`)
  if (index >= count) throw new SweepError(`--shard ${text}: shards are numbered from 0, so i must be below N (0/${count} … ${count - 1}/${count})`)
  return { index, count }
}

export function formatShard(shard: Shard): string {
  return `${shard.index}/${shard.count}`
}

/** The jobs of one shard, in job order; every job when `shard` is undefined. */
export function selectShard<T extends Pick<SweepJob, 'index'>>(jobs: readonly T[], shard: Shard | undefined): T[] {
  if (shard === undefined) return [...jobs]
  return jobs.filter((j) => j.index % shard.count === shard.index)
}
