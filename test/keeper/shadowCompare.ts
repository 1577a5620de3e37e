/**
 * Helpers of the shadow-mode end-to-end suites (dryRun.e2e, multiPool.e2e): a keeper process's
 * API read with the test's token, the engine's key of a borrower's liquidation, and the check
 * that a shadow keeper's would-fill is the fill a live keeper made.
 */
import { expect } from 'vitest'
import type { Borrower } from '../../src/world/index.js'
import type { KeeperProcess } from './keeperProcess.js'

export const alive = (k: KeeperProcess) => k.proc.exitCode === null && k.proc.signalCode === null

/** GET `path` on the keeper's API, with `Authorization: Bearer <token>` unless `token` is undefined. */
export async function apiGet(k: KeeperProcess, path: string, token: string | undefined): Promise<Response> {
  return fetch(`http://127.0.0.1:${await k.port()}${path}`, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } })
}

/** /api/state of a running keeper (its stderr when it has exited). */
export async function apiState(k: KeeperProcess, token: string | undefined): Promise<any> {
  if (!alive(k)) throw new Error(`keeper exited: ${k.stderr().slice(-2000)}`)
  return (await apiGet(k, '/api/state', token)).json()
}

/** The engine's key of `b`'s liquidation: `blend:<pool>:user_liquidation:<address>`. */
export const keyOf = (b: Borrower) => `blend:${b.pool}:user_liquidation:${b.address}`

/** The execution of `b`'s liquidation among a keeper's executions. */
export const ofBorrower = (executions: any[], b: Borrower) => executions.find((e: any) => e.key === keyOf(b))

/**
 * What "the would-fill matches the live fill" means, per auction: the would-fill names the
 * auction (`<borrower>:<start ledger>`); the shadow keeper first planned the fill for the ledger
 * the live keeper first planned it for; the would-fill was valued for the ledger the live fill
 * landed in; both take the same percent; the capital differs by at most 0.01 %. Returns the line
 * the suite prints.
 */
export function expectWouldFillMatches(p: {
  borrower: Borrower
  auctionBlock: number
  shadowPlan: any
  shadowState: any
  live: KeeperProcess
  liveFill: any
}): string {
  const { borrower: b, liveFill: fill } = p
  const filledAt = fill.history.find((h: any) => h.stage === 'filled').ledger as number
  const percent = Number(/^filled (\d+) % at ledger/.exec(fill.note)?.[1])
  const would = p.shadowState.shadow.fills.find((f: any) => f.key === keyOf(b))
  const liveFirst = p.live.lines.find((l) => l.msg === 'execution planned' && l.key === keyOf(b))!.targetLedger
  expect(would.target).toBe(`${b.address}:${p.auctionBlock}`)
  expect(p.shadowPlan.targetLedger).toBe(liveFirst)
  expect(would.firstPlannedLedger).toBe(liveFirst)
  expect(would.fillLedger).toBe(filledAt)
  expect(would.percent).toBe(percent)
  const drew = BigInt(fill.result.drew)
  const diff = BigInt(would.drew) - drew
  expect(diff < 0n ? -diff : diff).toBeLessThanOrEqual(drew / 10_000n)
  return (
    `${b.address.slice(0, 6)}… in pool ${b.pool.slice(0, 6)}…: auction from ${p.auctionBlock}; shadow planned ${would.firstPlannedLedger}, would fill ${would.percent} % at ${would.fillLedger} ` +
    `drawing ${would.drew} (simulation ${would.simulation}: ${would.reason}); live planned ${liveFirst}, filled ${percent} % at ${filledAt} drawing ${fill.result.drew}, profit ${fill.result.profit}`
  )
}

/** Each borrower's execution on the keeper when every one of them is at `stage`, else undefined. */
export async function allAtStage(k: KeeperProcess, token: string | undefined, borrowers: readonly Borrower[], stage: string): Promise<any[] | undefined> {
  const s = await apiState(k, token)
  const found = borrowers.map((b) => ofBorrower(s.executions, b))
  return found.every((e) => e?.stage === stage) ? found : undefined
}

/** The shadow keeper's /api/state once it has booked a would-fill for every borrower, else undefined. */
export async function bookedAll(k: KeeperProcess, token: string | undefined, borrowers: readonly Borrower[]): Promise<any | undefined> {
  const s = await apiState(k, token)
  return borrowers.every((b) => s.shadow.fills.some((f: any) => f.key === keyOf(b))) ? s : undefined
}
