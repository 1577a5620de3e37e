import { cleanup, render, screen, within } from '@solidjs/testing-library'
import { afterEach, describe, expect, it } from 'vitest'
import { reportFixture } from '../../../test/sim/reportFixture.js'
import type { ReportSource as Source } from '../../../sim/src/record/source.js'
import { parseReport } from '../logic/reportSchema.js'
import { ReportSource } from './ReportSource.js'

const POOL = 'CPOOL' + 'P'.repeat(47) + 'WXYZ'

function source(): Source {
  return {
    kind: 'snapshot',
    file: 'snapshots/upstream.json',
    sha256: 'ab'.repeat(32),
    ledger: 1234567,
    networkPassphrase: 'Test SDF Network ; September 2015',
    pool: POOL,
    oracle: 'CORACLE',
    oracleCode: null,
    backstop: 'CBACKSTOP',
    borrowerSources: { events: 2, hints: 1 },
    start: {
      reserves: [{ asset: 'CUSDC', code: 'USDC', price: 1, supplied: 100, borrowed: 50, utilisation: 0.5, cFactor: 0.95, lFactor: 0.95 }],
      borrowers: [
        { address: 'GA', healthFactor: 0.9, collateral: 1, liabilities: 1 },
        { address: 'GB', healthFactor: 1.5, collateral: 3, liabilities: 2 },
        { address: 'GC', healthFactor: 2, collateral: 4, liabilities: 2 },
      ],
      liquidatable: 1,
    },
  }
}

afterEach(cleanup)

describe('ReportSource', () => {
  it('is kept by the report schema, and absent from a report without it', () => {
    const r = parseReport(JSON.parse(JSON.stringify({ ...reportFixture(), source: source() })))
    if (!r.ok) expect.unreachable(r.problems.join('\n'))
    else expect(r.report.source).toEqual(source())
    const plain = parseReport(JSON.parse(JSON.stringify(reportFixture())))
    expect(plain.ok && plain.report.source).toBeUndefined()
    const broken = parseReport({ ...reportFixture(), source: { ...source(), kind: 'copy' } })
    expect(broken.ok).toBe(false)
  })

  it('names a snapshot, its ledger, the pool shortened, the borrowers and how many were liquidatable', () => {
    render(() => <ReportSource source={source()} />)
    const block = screen.getByRole('region', { name: 'Source' })
    const value = (term: string) => within(block).getByText(term).nextElementSibling?.textContent
    expect(value('Started from')).toBe('Snapshot')
    expect(value('Snapshot file')).toBe('snapshots/upstream.json')
    expect(value('Ledger')).toBe('1,234,567')
    expect(within(block).getByText('CPOOLP…WXYZ').getAttribute('title')).toBe(POOL)
    expect(value('Borrowers')).toBe('3 (events 2, hints 1)')
    expect(value('Liquidatable at the start')).toBe('1')
  })

  it('names a fork by its upstream', () => {
    const { file: _file, sha256: _sha256, ...common } = source()
    render(() => <ReportSource source={{ ...common, kind: 'fork', url: 'https://rpc.example.org' }} />)
    const block = screen.getByRole('region', { name: 'Source' })
    expect(within(block).getByText('Upstream RPC').nextElementSibling?.textContent).toBe('https://rpc.example.org')
    expect(within(block).getByText('Fork of a live pool')).toBeTruthy()
  })
})
