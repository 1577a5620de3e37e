/**
 * The views' navigation. On a desktop every view's full name, wrapping as needed; on a phone
 * (below 600 px) short names in one row that scrolls sideways, with an arrow and a fade at the
 * edge that has more (`data-more-left` / `data-more-right`), and the current view scrolled into
 * sight, so no view is hidden without a sign of it.
 */
import { For, createEffect, createSignal, onCleanup, onMount, type Accessor } from 'solid-js'

export interface ViewLink {
  id: string
  /** The full name, e.g. "Positions & auctions". */
  title: string
  /** The name on a phone, e.g. "Auctions". */
  short: string
}

/** Which sides of a scrolling row hold links out of sight (1 px of slack for rounding). */
export function overflowSides(scrollLeft: number, clientWidth: number, scrollWidth: number): { left: boolean; right: boolean } {
  return { left: scrollLeft > 1, right: scrollLeft + clientWidth < scrollWidth - 1 }
}

export function ViewsNav(props: { views: readonly ViewLink[]; current: Accessor<string> }) {
  let nav!: HTMLElement
  const [more, setMore] = createSignal({ left: false, right: false }, { equals: (a, b) => a.left === b.left && a.right === b.right })
  const update = () => setMore(overflowSides(nav.scrollLeft, nav.clientWidth, nav.scrollWidth))

  onMount(() => {
    update()
    window.addEventListener('resize', update)
    onCleanup(() => window.removeEventListener('resize', update))
  })
  // The current view's link in sight (on a desktop nothing scrolls, so nothing moves).
  createEffect(() => {
    const id = props.current()
    const link = [...nav.querySelectorAll<HTMLElement>('a[data-view]')].find((a) => a.dataset.view === id)
    if (link !== undefined && nav.scrollWidth > nav.clientWidth) {
      nav.scrollLeft = Math.max(0, link.offsetLeft - (nav.clientWidth - link.offsetWidth) / 2)
    }
    update()
  })

  return (
    <div class="views-nav" data-more-left={more().left ? '' : undefined} data-more-right={more().right ? '' : undefined} data-testid="views-nav">
      <nav aria-label="Views" ref={nav} onScroll={update}>
        <For each={props.views}>
          {(v) => (
            <a href={`#/${v.id}`} data-view={v.id} aria-label={v.title} aria-current={props.current() === v.id ? 'page' : undefined}>
              <span class="label-long">{v.title}</span>
              <span class="label-short">{v.short}</span>
            </a>
          )}
        </For>
      </nav>
    </div>
  )
}
