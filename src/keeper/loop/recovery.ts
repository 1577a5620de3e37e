import { ContractError } from '../../chain/index.js'
import { isMissingFunction } from '../clients/index.js'
import { bookReward } from './record.js'
import type { CycleDeps } from './types.js'

export type RecoveryOutcome =
  | { kind: 'none' }
  | { kind: 'unsupported'; reason: string }
  | { kind: 'no-usdc'; draw: bigint; held: string[] }
  | { kind: 'returned'; draw: bigint; returned: bigint; shortfall: bigint; sold: string[]; held: string[] }

/**
 * Stale-draw recovery finishes what a crash (or a failed step) left half-way, before any new work:
 * 1. read this keeper's outstanding draw (none: done);
 * 2. sell what it holds of the lending pools' reserves (collateral seized by a fill whose swap
 *    never ran) for USDC, with the usual slippage floor (`sellHeld` of each adapter that has it);
 * 3. return min(USDC on hand, draw) with return_proceeds. What is still owed after that is the
 *    shortfall: logged with its figures and shown on the API (`recovery` in /api/state).
 * No-op without USDC_CONTRACT, without a draw, or when the vault has no get_keeper_draw.
 * Recovery never draws: it only returns (so the registry's bond limit on new draws never stops
 * it). A closing return with gross profit pays the keeper its fee, booked as a reward.
 */
export async function recoverStaleDraw(
  deps: Pick<CycleDeps, 'vault' | 'keypair' | 'usdcBalance' | 'events' | 'logger' | 'state' | 'metrics' | 'adapters' | 'chain'> & {
    keeperAddress?: string
    draws?: CycleDeps['draws']
  },
): Promise<RecoveryOutcome> {
  if (!deps.usdcBalance) return { kind: 'unsupported', reason: 'USDC_CONTRACT not configured' }
  const me = deps.keypair.publicKey()
  const keeper = deps.keeperAddress ?? me
  let draw: bigint
  try {
    draw = await deps.vault.getKeeperDraw(keeper)
  } catch (err) {
    if (isMissingFunction(err)) return { kind: 'unsupported', reason: 'vault has no get_keeper_draw' }
    throw err
  }
  noteDraw(deps, draw)
  if (draw <= 0n) return { kind: 'none' }

  deps.logger.warn({ draw: draw.toString() }, 'outstanding draw found: finishing it')
  const sold: string[] = []
  const held: string[] = []
  for (const adapter of deps.adapters) {
    if (typeof adapter.sellHeld !== 'function') continue
    try {
      const r = await adapter.sellHeld(deps.chain, deps.keypair)
      sold.push(...r.sold)
      held.push(...r.held)
    } catch (err) {
      deps.logger.warn({ adapter: adapter.name(), err: err instanceof Error ? err.message : String(err) }, 'selling held collateral failed')
    }
  }
  if (sold.length > 0) deps.events.push('recovery', `sold held collateral for USDC: ${sold.join(', ')}`, { sold })

  const onHand = await deps.usdcBalance(me)
  const amount = onHand < draw ? onHand : draw
  if (amount <= 0n) {
    deps.logger.warn({ draw: draw.toString(), held }, 'outstanding draw but no USDC on hand to return')
    deps.events.push('recovery', `outstanding draw ${draw} but no USDC on hand`, { draw: draw.toString(), held })
    deps.state.recovery = { at: new Date().toISOString(), draw, returned: 0n, shortfall: draw, held }
    return { kind: 'no-usdc', draw, held }
  }
  try {
    if (deps.vault.returnProceedsWithFee !== undefined) bookReward(deps, (await deps.vault.returnProceedsWithFee(deps.keypair, amount, 0)).fee)
    else await deps.vault.returnProceeds(deps.keypair, amount, 0)
  } catch (err) {
    if (err instanceof ContractError) {
      deps.logger.warn({ code: err.code, draw: draw.toString() }, 'stale-draw return refused by the vault')
    }
    throw err
  }
  const shortfall = draw - amount
  const figures = { draw: draw.toString(), returned: amount.toString(), shortfall: shortfall.toString(), sold, held }
  if (shortfall > 0n) deps.logger.error(figures, 'stale draw partly returned: shortfall remains outstanding')
  else deps.logger.info(figures, 'stale draw returned')
  deps.events.push('recovery', `returned ${amount} of stale draw ${draw}${shortfall > 0n ? `; shortfall ${shortfall}` : ''}`, figures)
  deps.state.recovery = { at: new Date().toISOString(), draw, returned: amount, shortfall, held }
  noteDraw(deps, shortfall)
  return { kind: 'returned', draw, returned: amount, shortfall, sold, held }
}

/** The vault's record of the draw as recovery read or left it, onto the API and the metrics. */
function noteDraw(deps: Pick<CycleDeps, 'state' | 'metrics'> & { draws?: CycleDeps['draws'] | undefined }, amount: bigint): void {
  if (deps.draws !== undefined) return deps.draws.observe(amount)
  deps.state.outstandingDraw = amount
  deps.metrics.drawsOutstanding.set(Number(amount) / 1e7)
}
