/**
 * A `fastForward(toLedger)` for adapters under test on a sandbox that closes ledgers only when
 * asked: several keepers may ask at once, so the requests run one at a time, each closing only
 * the ledgers still missing.
 */
import type { Sandbox } from '../../sandbox/ts/launch.js'

export function serialFastForward(sandbox: () => Sandbox): (toLedger: number) => Promise<unknown> {
  let forwarding: Promise<unknown> = Promise.resolve()
  return (to: number) => {
    forwarding = forwarding.then(async () => {
      const sb = sandbox()
      const latest = (await sb.server.getLatestLedger()).sequence
      if (latest < to) await sb.closeLedgers(to - latest)
    })
    return forwarding
  }
}
