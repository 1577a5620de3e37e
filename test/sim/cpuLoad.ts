/**
 * CPU load for the determinism tests and benchmark: one busy-looping Node process per core
 * (`node -e 'for(;;);'`), so the run under test gets its turn on a core only between theirs.
 * `stop` kills exactly the processes it started and waits for them to exit.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { availableParallelism } from 'node:os'

export interface CpuLoad {
  /** Burner processes started. */
  count: number
  stop(): Promise<void>
}

export function startCpuLoad(count = availableParallelism()): CpuLoad {
  const children: ChildProcess[] = Array.from({ length: count }, () => spawn(process.execPath, ['-e', 'for(;;);'], { stdio: 'ignore' }))
  return {
    count,
    async stop() {
      await Promise.all(
        children.map(
          (c) =>
            new Promise<void>((resolve) => {
              if (c.exitCode !== null || c.signalCode !== null) return resolve()
              c.once('exit', () => resolve())
              c.kill('SIGKILL')
            }),
        ),
      )
    },
  }
}

/** Runs `f` while every core is busy; the burners are killed afterwards, also when `f` throws. */
export async function withCpuLoad<T>(f: () => Promise<T>, count?: number): Promise<T> {
  const load = startCpuLoad(count)
  try {
    return await f()
  } finally {
    await load.stop()
  }
}
