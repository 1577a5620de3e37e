/** A keeper's ISO time as `<time>`, on the ledger clock when it is known (logic/time.ts `keeperTimeText`). */
import { keeperTimeText, type ClockAnchor } from '../logic/time.js'

export function KeeperTime(props: { iso: string; anchor: ClockAnchor | undefined; ledger?: number | undefined }) {
  return <time datetime={props.iso}>{keeperTimeText(props.iso, props.anchor, props.ledger)}</time>
}
