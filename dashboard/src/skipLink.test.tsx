import { cleanup, fireEvent, render, screen } from '@solidjs/testing-library'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { App } from './App.js'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('App shell', () => {
  it('starts with a skip link that focuses the main region without changing the route', () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{}', { status: 404 })))
    location.hash = '#/keepers'
    render(() => <App />)
    const focusable = document.querySelectorAll('a[href], button, input, select, [tabindex]:not([tabindex="-1"])')
    const skip = screen.getByRole('link', { name: 'Skip to content' })
    expect(focusable[0]).toBe(skip)
    const main = document.getElementById('content')!
    expect(main.tagName).toBe('MAIN')
    expect(main.getAttribute('tabindex')).toBe('-1')
    fireEvent.click(skip)
    expect(document.activeElement).toBe(main)
    expect(location.hash).toBe('#/keepers')
  })
})
