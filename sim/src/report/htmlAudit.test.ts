import { describe, expect, it } from 'vitest'
import { reportFixture } from '../../../test/sim/reportFixture.js'
import { auditTable } from './htmlTables.js'

/** The section's text as a reader sees it: tags dropped, character references decoded. */
function text(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)))
    .replace(/\s+/g, ' ')
    .trim()
}

describe('the invariant audit section', () => {
  it('opens with a mark and the verdict, not an object', () => {
    const holds = reportFixture()
    holds.audit = { ...holds.audit, holds: true }
    const html = auditTable(holds)
    expect(html).not.toContain('[object Object]')
    expect(html.split('\n')[0]).toBe('<p><span class="ok">✓</span> The audit holds.</p>')
    expect(text(html)).toMatch(/^✓ The audit holds\./)
  })

  it('says when the audit does not hold', () => {
    const broken = reportFixture()
    broken.audit = { ...broken.audit, holds: false }
    const html = auditTable(broken)
    expect(html).not.toContain('[object Object]')
    expect(text(html)).toMatch(/^✗ The audit does not hold\./)
  })
})
