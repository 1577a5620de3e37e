/** Polling helpers for end-to-end tests that wait on a daemon or a node in wall time. */

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Polls `f` every 250 ms until it gives a value; throws naming `what` after `timeoutMs`. */
export async function until<T>(what: string, f: () => Promise<T | undefined> | T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = await f()
    if (v !== undefined) return v
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(250)
  }
}
