import { cleanup, fireEvent, render, screen, waitFor } from '@solidjs/testing-library'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Address } from './Address.js'
import { TableRegion } from './TableRegion.js'

const FULL = 'GDFYZR' + 'A'.repeat(46) + '3WCX'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

describe('Address', () => {
  it('shows the short form, the full address in its title and accessible name', () => {
    render(() => <Address address={FULL} label="Operator" />)
    expect(screen.getByText('GDFYZR…3WCX').getAttribute('title')).toBe(FULL)
    expect(screen.getByRole('group').getAttribute('aria-label')).toBe(`Operator ${FULL}`)
    expect(screen.getByRole('button').getAttribute('aria-label')).toBe('Copy address GDFYZR…3WCX')
  })

  it('copies the full address and says so for a moment', async () => {
    const writeText = vi.fn(async () => undefined)
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } })
    render(() => <Address address={FULL} />)
    const button = screen.getByRole('button')
    fireEvent.click(button)
    await waitFor(() => expect(button.textContent).toBe('Copied'))
    expect(writeText).toHaveBeenCalledWith(FULL)
    expect(button.getAttribute('aria-label')).toBe('Copied address GDFYZR…3WCX')
    expect(screen.getByRole('status').textContent).toBe('Address copied')
    await waitFor(() => expect(button.textContent).toBe('Copy'), { timeout: 3000 })
  })

  it('says so when the browser refuses the clipboard', async () => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText: async () => Promise.reject(new Error('denied')) } })
    render(() => <Address address={FULL} />)
    fireEvent.click(screen.getByRole('button'))
    await waitFor(() => expect(screen.getByRole('button').textContent).toBe('Not copied'))
  })
})

describe('TableRegion', () => {
  it('is a labelled, keyboard-focusable scroll region around its table', () => {
    render(() => (
      <TableRegion label="Keepers table">
        <table>
          <tbody>
            <tr>
              <td>x</td>
            </tr>
          </tbody>
        </table>
      </TableRegion>
    ))
    const region = screen.getByRole('region', { name: 'Keepers table' })
    expect(region.getAttribute('tabindex')).toBe('0')
    expect(region.classList.contains('table-scroll')).toBe(true)
    expect(region.querySelector('table')).toBeTruthy()
  })
})
