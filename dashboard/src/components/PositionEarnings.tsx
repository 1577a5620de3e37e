/**
 * Earnings so far and the return, first on "My position", each with what it means in words:
 * earnings = the shares' value now − net deposits; the return = the share price over the current
 * holding (APY from 7 days on, cumulative before).
 */
import { Show } from 'solid-js'
import { formatAmount } from '../logic/amounts.js'
import type { AccountEarnings } from '../stores/accountFigures.js'
import type { AccountReturn } from '../logic/earnings.js'

const MISSING = '—'

export function PositionEarnings(props: { earnings: AccountEarnings | undefined; ret: AccountReturn | undefined; connected: boolean }) {
  const e = () => props.earnings
  return (
    <dl class="figures position-earnings">
      <div>
        <dt>Earnings so far</dt>
        <dd>
          <span data-testid="position-earnings" classList={{ gain: (e()?.figure.amount ?? 0n) > 0n && !e()?.figure.rounding, loss: (e()?.figure.amount ?? 0n) < 0n && !e()?.figure.rounding }}>
            {e()?.figure.text ?? MISSING}
          </span>
        </dd>
        <dd class="explain">
          <Show when={e()} fallback={props.connected ? 'Nothing deposited yet.' : 'Connect a wallet to see your earnings.'}>
            {(x) => (
              <>
                What your shares would pay now ({formatAmount(x().value)} USDC) minus what you put in net ({formatAmount(x().deposited)} deposited −{' '}
                {formatAmount(x().withdrawn)} withdrawn
                {x().fromEvents ? ', from your deposits and withdrawals below' : ', from the vault’s record of your totals: this node no longer keeps your oldest events'}).
                <Show when={x().figure.rounding && x().figure.amount !== 0n}>
                  {' '}
                  The exact difference, {formatAmount(x().figure.amount)} USDC, is the share math rounding to the vault’s side by a few
                  stroops (under 0.000001 USDC), not a gain or a loss.
                </Show>
              </>
            )}
          </Show>
        </dd>
      </div>
      <div>
        <dt>{props.ret?.apy.kind === 'annualized' ? 'Your APY' : 'Your return'}</dt>
        <dd>
          <span data-testid="position-apy">{props.ret?.apy.text ?? MISSING}</span>
        </dd>
        <dd class="explain">{props.ret?.period ?? (props.connected ? 'Reading the share-price history…' : 'Connect a wallet to see your return.')}</dd>
      </div>
    </dl>
  )
}
