/**
 * report.html in a real browser: no page errors and every remaining canvas drawn. Needs
 * /usr/bin/chromium and the playwright-core package; the test is skipped (with the reason)
 * where either is missing — nothing is installed for it.
 */
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, it, expect } from 'vitest'
import { emptyReportFixture, reportFixture } from '../../../test/sim/reportFixture.js'
import { reportHtml } from './html.js'
import type { Report } from './types.js'

const CHROMIUM = '/usr/bin/chromium'

/** The part of playwright-core's API used here (the package is optional, so not imported by type). */
interface Page {
  on(event: 'pageerror', fn: (error: Error) => void): void
  on(event: 'console', fn: (message: { type(): string; text(): string }) => void): void
  goto(url: string, options: { waitUntil: 'load' }): Promise<unknown>
  evaluate<T>(fn: () => T): Promise<T>
}
interface Browser {
  newPage(): Promise<Page>
  close(): Promise<void>
}
interface Playwright {
  chromium: { launch(options: { executablePath: string; headless: boolean }): Promise<Browser> }
}

/** playwright-core when importable and chromium installed, else why not. */
async function loadPlaywright(): Promise<Playwright | string> {
  if (!existsSync(CHROMIUM)) return `${CHROMIUM} does not exist`
  const name = 'playwright-core'
  try {
    return (await import(/* @vite-ignore */ name)) as Playwright
  } catch {
    return 'playwright-core is not installed'
  }
}

const dirs: string[] = []
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

async function open(report: Report, ctx: { skip: (note?: string) => never }) {
  const pw = await loadPlaywright()
  if (typeof pw === 'string') ctx.skip(`browser check skipped: ${pw}`)
  const dir = await mkdtemp(join(tmpdir(), 'report-html-'))
  dirs.push(dir)
  const file = join(dir, 'report.html')
  await writeFile(file, reportHtml(report))
  const browser = await (pw as Playwright).chromium.launch({ executablePath: CHROMIUM, headless: true })
  try {
    const page = await browser.newPage()
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text())
    })
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' })
    // every canvas still on the page (those without data were replaced by a note) has pixels
    const canvases = await page.evaluate(() =>
      Array.from(document.querySelectorAll('canvas')).map((c) => {
        const ctx = c.getContext('2d')
        const pixels = c.width > 0 && c.height > 0 && ctx ? ctx.getImageData(0, 0, c.width, c.height).data : new Uint8ClampedArray()
        let painted = 0
        for (let i = 3; i < pixels.length; i += 4) if (pixels[i]! > 0) painted++
        return { id: c.id, width: c.width, painted }
      }),
    )
    const notes = await page.evaluate(() => document.querySelectorAll('#charts .note').length)
    return { errors, canvases, notes }
  } finally {
    await browser.close()
  }
}

describe('report.html in chromium', () => {
  it('loads a full run without page errors and draws every chart', async (ctx) => {
    const { errors, canvases, notes } = await open(reportFixture(), ctx)
    expect(errors).toEqual([])
    expect(notes).toBe(0)
    expect(canvases).toHaveLength(9)
    for (const c of canvases) expect(c.painted, c.id).toBeGreaterThan(0)
  })

  it('loads a run with no data without page errors', async (ctx) => {
    const { errors, canvases, notes } = await open(emptyReportFixture(), ctx)
    expect(errors).toEqual([])
    expect(notes).toBe(7)
    expect(canvases.map((c) => c.id)).toEqual(['chart-keepers'])
    for (const c of canvases) expect(c.painted, c.id).toBeGreaterThan(0)
  })

  it('loads a run with points but no auctions and no fills without page errors', async (ctx) => {
    const r = reportFixture()
    r.auctions = []
    r.keepers = r.keepers.map((k) => ({ ...k, wins: 0, losses: 0, profit: 0, winRate: 0 }))
    const { errors, canvases, notes } = await open(r, ctx)
    expect(errors).toEqual([])
    expect(notes).toBe(1)
    expect(canvases).toHaveLength(8)
    for (const c of canvases) expect(c.painted, c.id).toBeGreaterThan(0)
  })
})
