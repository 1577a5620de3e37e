import { cleanup, fireEvent, render, screen } from '@solidjs/testing-library'
import { afterEach, describe, expect, it } from 'vitest'
import { reportFixture } from '../../../test/sim/reportFixture.js'
import { ResearchView } from './ResearchView.js'

afterEach(cleanup)

function choose(text: string, name: string) {
  const input = screen.getByTestId('research-file') as HTMLInputElement
  const file = new File([text], name, { type: 'application/json' })
  Object.defineProperty(input, 'files', { value: [file], configurable: true })
  fireEvent.change(input)
}

describe('ResearchView', () => {
  it('has a labelled file input', () => {
    render(() => <ResearchView />)
    expect(screen.getByLabelText(/open a report\.json file/i)).toBe(screen.getByTestId('research-file'))
  })

  it('draws the headline figures and every chart of a report', async () => {
    render(() => <ResearchView />)
    choose(JSON.stringify(reportFixture()), 'report.json')
    const charts = await screen.findAllByTestId('research-chart')
    expect(charts).toHaveLength(8)
    expect(screen.getByText('LP APY as the dashboard shows it').nextElementSibling?.textContent).toBe('0.12% cumulative (under 7 days the dashboard shows the cumulative return)')
    expect(screen.queryByTestId('research-error')).toBeNull()
  })

  it('lists every fill of an auction filled in parts, and what is left of each auction', async () => {
    render(() => <ResearchView />)
    const report = reportFixture()
    choose(JSON.stringify(report), 'report.json')
    await screen.findByTestId('report-auctions')
    const parts = screen.getByTestId(`report-auction-${report.auctions[1]!.id}`)
    expect([...parts.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['60 % @1205 beta (+20.00 USDC)', '100 % @1206 beta (+16.50 USDC)'])
    expect(parts.textContent).toContain('0 %')
    const expired = screen.getByTestId(`report-auction-${report.auctions[2]!.id}`)
    expect(expired.className).toContain('error')
    expect(expired.querySelectorAll('li')).toHaveLength(0)
    expect(screen.getByTestId(`report-auction-${report.auctions[3]!.id}`).textContent).toContain('75 %')
  })

  it('says in words why another file is not a report', async () => {
    render(() => <ResearchView />)
    choose('{"name":"package","version":"1.0.0"}', 'package.json')
    const error = await screen.findByTestId('research-error')
    expect(error.textContent).toContain('package.json:')
    expect(error.textContent).toContain('not a sim run report')
    expect(screen.queryAllByTestId('research-chart')).toHaveLength(0)
  })
})
