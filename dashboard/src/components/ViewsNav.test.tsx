import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, render, screen } from '@solidjs/testing-library'
import { createSignal } from 'solid-js'
import { ViewsNav, overflowSides } from './ViewsNav.js'

afterEach(cleanup)

const views = [
  { id: 'vault', title: 'Vault', short: 'Vault' },
  { id: 'auctions', title: 'Positions & auctions', short: 'Auctions' },
]

describe('ViewsNav', () => {
  it('says which edges of a scrolling row hide views', () => {
    expect(overflowSides(0, 390, 390)).toEqual({ left: false, right: false })
    expect(overflowSides(0, 390, 520)).toEqual({ left: false, right: true })
    expect(overflowSides(60, 390, 520)).toEqual({ left: true, right: true })
    expect(overflowSides(130, 390, 520)).toEqual({ left: true, right: false })
  })

  it('names every link by its full title, marks the current view, and carries the short name for phones', () => {
    const [current, setCurrent] = createSignal('vault')
    render(() => <ViewsNav views={views} current={current} />)
    const auctions = screen.getByRole('link', { name: 'Positions & auctions' })
    expect(auctions.getAttribute('href')).toBe('#/auctions')
    expect(auctions.querySelector('.label-short')!.textContent).toBe('Auctions')
    expect(screen.getByRole('link', { name: 'Vault' }).getAttribute('aria-current')).toBe('page')
    setCurrent('auctions')
    expect(auctions.getAttribute('aria-current')).toBe('page')
    expect(screen.getByTestId('views-nav').hasAttribute('data-more-right')).toBe(false)
  })
})
