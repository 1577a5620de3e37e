import { ContractError } from '../../chain/index.js'
import { isMissingFunction } from '../clients/index.js'
import type { CycleDeps } from './types.js'

export type RecoveryOutcome =
  | { kind: 'none' }
  | { kind: 'unsupported'; reason: string }
  | { kind: 'no-usdc'; draw: bigint }
  | { kind: 'returned'; draw: bigint; returned: bigint }

/**
 * Stale-draw recovery: a draw this keeper still owes the vault (left by a crash or a failed
 * task) is paid back from the USDC on hand, capped at the draw, before any new work. No-op
 * without USDC_CONTRACT, without a draw, or when the vault has no get_keeper_draw.
 */
export async function recoverStaleDraw(
  deps: Pick<CycleDeps, 'vault' | 'keypair' | 'usdcBalance' | 'events' | 'logger' | 'state' | 'metrics'>,
): Promise<RecoveryOutcome> {
  if (!deps.usdcBalance) return { kind: 'unsupported', reason: 'USDC_CONTRACT not configured' }
  const me = deps.keypair.publicKey()
  let draw: bigint
  try {
    draw = await deps.vault.getKeeperDraw(me)
  } catch (err) {
    if (isMissingFunction(err)) return { kind: 'unsupported', reason: 'vault has no get_keeper_draw' }
    throw err
  }
  deps.state.outstandingDraw = draw
  deps.metrics.drawsOutstanding.set(Number(draw) / 1e7)
  if (draw <= 0n) return { kind: 'none' }

  const onHand = await deps.usdcBalance(me)
  const amount = onHand < draw ? onHand : draw
  if (amount <= 0n) {
    deps.logger.warn({ draw: draw.toString() }, 'outstanding draw but no USDC on hand to return')
    deps.events.push('recovery', `outstanding draw ${draw} but no USDC on hand`, { draw: draw.toString() })
    return { kind: 'no-usdc', draw }
  }
  try {
    await deps.vault.returnProceeds(deps.keypair, amount, 0)
  } catch (err) {
    if (err instanceof ContractError) {
      deps.logger.warn({ code: err.code, draw: draw.toString() }, 'stale-draw return refused by the vault')
    }
    throw err
  }
  deps.logger.info({ draw: draw.toString(), returned: amount.toString() }, 'stale draw returned')
  deps.events.push('recovery', `returned ${amount} of stale draw ${draw}`, {
    draw: draw.toString(),
    returned: amount.toString(),
  })
  deps.state.outstandingDraw = 0n
  deps.metrics.drawsOutstanding.set(0)
  return { kind: 'returned', draw, returned: amount }
}
