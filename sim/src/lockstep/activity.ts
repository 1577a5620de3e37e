/**
 * Knowing when every agent has done all it can before the next ledger closes.
 *
 * Every chain call an agent makes goes through a SimRpc, which counts it here while it runs.
 * Calls that can only finish after a close (waiting for a pending transaction's result) are not
 * counted. Between calls an agent only computes (promise continuations run before the next
 * macrotask), so once no call has been running or started across a few event-loop turns,
 * nothing can move before the next close.
 */
export class Activity {
  private running = 0
  private started = 0

  begin(): void {
    this.running++
    this.started++
  }

  end(): void {
    this.running--
  }

  /** Calls running now (test and diagnostics). */
  get inFlight(): number {
    return this.running
  }

  /** Resolves once no call has run or started for `turns` consecutive event-loop turns. */
  async quiet(turns = 3): Promise<void> {
    let calm = 0
    let seen = this.started
    while (calm < turns) {
      await new Promise<void>((r) => setImmediate(r))
      if (this.running === 0 && this.started === seen) calm++
      else calm = 0
      seen = this.started
    }
  }
}
