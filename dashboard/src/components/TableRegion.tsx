/**
 * A table's scroll box: the table scrolls sideways inside its card, never the page. The box is a
 * labelled, focusable region, so a keyboard can scroll it too.
 */
import type { JSX } from 'solid-js'

export function TableRegion(props: { label: string; children: JSX.Element; testId?: string }) {
  return (
    <div class="table-scroll" role="region" aria-label={props.label} tabindex="0" data-testid={props.testId}>
      {props.children}
    </div>
  )
}
