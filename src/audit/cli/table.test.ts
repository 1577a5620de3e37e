import { describe, expect, it } from 'vitest'
import { fixtureSnapshot } from '../../../test/audit/snapshotFixture.js'
import { auditSnapshot } from '../audit.js'
import type { AuditReport } from '../types.js'
import { renderReport, verdict } from './table.js'

const ctx = { rpcUrl: 'http://127.0.0.1:8000/rpc', vault: 'CVAULT', registry: 'CREGISTRY' }

function broken(): AuditReport {
  const s = fixtureSnapshot()
  s.vaultUsdcBalance -= 5_0000000n
  return auditSnapshot(s)
}

describe('audit report as text', () => {
  it('has one ✓ row per invariant with its figures, and a verdict', () => {
    const report = auditSnapshot(fixtureSnapshot())
    const text = renderReport(report, ctx)
    const rows = text.split('\n').filter((l) => /^│ [✓✗⚠] │/.test(l))
    expect(rows.map((l) => l.slice(2, 3)).join('')).toBe('✓'.repeat(12))
    expect(text).toContain('Audit of vault CVAULT and registry CREGISTRY at ledger')
    expect(text).toMatch(/vaultUsdcBalance +\d+\.\d{7}/)
    expect(text.endsWith(`${verdict(report)}\n`)).toBe(true)
    expect(verdict(report)).toMatch(/^✓ all 12 invariants hold at ledger \d+$/)
    for (const line of text.split('\n')) expect([...line].length).toBeLessThanOrEqual(120)
  })

  it('marks a broken invariant ✗ and lists the accounts and amounts involved', () => {
    const report = broken()
    const text = renderReport(report, ctx, 160)
    const row1 = text.split('\n').find((l) => /^│ [✓✗⚠] │ 1 /.test(l))
    expect(row1?.slice(2, 3)).toBe('✗')
    expect(text).toMatch(/✗ 1 vault USDC = total_usdc - active_liq: /)
    expect(text).toMatch(/│ CVAULT +│ +-5\.0000000 │ shortfall/)
    expect(verdict(report)).toMatch(/^✗ 1 of 12 invariants broken at ledger \d+: 1 \(vault USDC = total_usdc - active_liq\)$/)
    for (const line of text.split('\n')) expect([...line].length).toBeLessThanOrEqual(160)
  })

  it('marks a warning ⚠ and counts it in the verdict without breaking', () => {
    const s = fixtureSnapshot()
    s.vaultUsdcBalance += 1n
    const report = auditSnapshot(s)
    expect(report.holds).toBe(true)
    expect(renderReport(report, ctx)).toMatch(/⚠ 1 vault USDC/)
    expect(verdict(report)).toMatch(/^✓ all 12 invariants hold at ledger \d+; 1 warning \(1\)$/)
  })
})
