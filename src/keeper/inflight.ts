/**
 * The work a keeper process has started and not yet finished: what a clean shutdown waits for.
 */
export class InFlight {
  private readonly running = new Set<Promise<unknown>>()

  /** Counts `work` until it settles; returns it unchanged. */
  track<T>(work: Promise<T>): Promise<T> {
    this.running.add(work)
    void work.then(
      () => this.running.delete(work),
      () => this.running.delete(work),
    )
    return work
  }

  get size(): number {
    return this.running.size
  }

  /** Resolves once nothing tracked is running, including work started while it waited. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running])
  }
}

/** `work` finished within `graceMs`: true, or false when the wait gave up. */
export async function within(work: Promise<unknown>, graceMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const done = await Promise.race([
    work.then(() => true),
    new Promise<boolean>((r) => {
      timer = setTimeout(() => r(false), graceMs)
    }),
  ])
  if (timer !== undefined) clearTimeout(timer)
  return done
}
