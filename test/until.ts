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

/**
 * Polls `probe` every 250 ms until it returns a value; a probe that throws is tried again (the
 * last error is named on timeout). `fail`, checked before each try, ends the wait at once with
 * its reason (a daemon that exited).
 */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, fail?: () => string | undefined): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let last: unknown
  for (;;) {
    const failed = fail?.()
    if (failed !== undefined) throw new Error(`waiting for ${what}: ${failed}`)
    try {
      const v = await probe()
      if (v !== undefined) return v
    } catch (err) {
      last = err
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`)
    await sleep(250)
  }
}
