/**
 * A depositor's hour in the dashboard, in Debian's chromium, on a desktop (1280×900) and a phone
 * (390×844): the live log opens with the keeper's history, scans out of the way; the sandbox
 * wallet says its steps and offers more test USDC; "1,000" is refused in the hint's words; the fee
 * quoted is a ceiling and the fee charged follows; the transaction page has its close time and
 * USDC amounts; on a phone each history row shows its amount and link and the views row shows
 * where it scrolls; Positions & auctions is named and lists what the vault booked; an empty
 * Research says how to make a run without naming the server's folder.
 */
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../sandbox/ts/launch.js'
import { addr, i128, invoke, read, u64 } from '../../src/chain/index.js'
import { registerKeeper } from '../../src/world/service.js'
import { launchChromium } from '../../test/browser/chromium.js'
import { startDashboardWorld, type DashboardWorld } from './world.js'

const UNIT = 10_000_000n
const SCREENSHOTS = join(REPO_ROOT, 'target', 'screenshots')
const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1280, height: 900 }

let env: DashboardWorld
let browser: Browser
let page: Page
let account: string
let depositHash = ''
let feeCharged = ''

/** An element's text, '' when it is not (or no longer) on the page. */
const text = async (testId: string) => (await page.getByTestId(testId).first().textContent({ timeout: 2_000 }).catch(() => '')) ?? ''
/** "0.0117815" of "up to 0.0117815 XLM" as stroops. */
const stroops = (s: string) => BigInt((/(\d+)\.(\d{7})/.exec(s) ?? ['', '0', '0']).slice(1).join(''))
const usdcOf = async () => BigInt(String(await read(env.world.chain, env.world.usdc.contract, 'balance', [addr(account)])))

async function view(id: string): Promise<void> {
  await page.goto(`${env.url}#/${id}`)
}

/** The element's box lies inside the viewport's width, and it is shown. */
async function inSight(locator: ReturnType<Page['locator']>): Promise<boolean> {
  await locator.scrollIntoViewIfNeeded()
  const box = await locator.boundingBox()
  const width = page.viewportSize()!.width
  return box !== null && box.width > 0 && box.x >= 0 && box.x + box.width <= width + 0.5
}

beforeAll(async () => {
  env = await startDashboardWorld({ runs: 'empty', keepers: 2 })
  browser = await launchChromium()
  page = await browser.newPage({ viewport: DESKTOP })
  page.setDefaultTimeout(30_000)
  page.on('pageerror', (e) => process.stderr.write(`[page error] ${e.message}\n`))
}, 600_000)

afterAll(async () => {
  await browser?.close()
  await env?.stop()
})

describe('a depositor in the dashboard', () => {
  it('opens the live log with the keeper’s recent history, routine scans hidden until asked for', async () => {
    const opened = Date.now()
    await view('log')
    // the keeper's start, from before the page was opened, is in the log at once
    await page.locator('[data-testid="log-line"][data-kind="lifecycle"]').first().waitFor({ timeout: 15_000 })
    expect(await page.locator('[data-testid="log-line"][data-kind="scan"]').count()).toBe(0)
    await expect.poll(() => text('log-count'), { timeout: 15_000 }).toMatch(/; [1-9]\d* routine scan line\(s\) hidden/)
    await page.getByTestId('log-routine').click()
    await page.locator('[data-testid="log-line"][data-kind="scan"]').first().waitFor({ timeout: 15_000 })
    const first = Date.parse((await page.getByTestId('log-line').first().locator('time').getAttribute('datetime')) ?? '')
    expect(first).toBeLessThan(opened)
    await page.screenshot({ path: join(SCREENSHOTS, 'depositor-log.png'), fullPage: true })
  }, 60_000)

  it('connects the sandbox wallet step by step, then offers more test USDC', async () => {
    await view('position')
    await page.getByTestId('wallet-connect-sandbox').click()
    await expect.poll(() => text('wallet-progress'), { timeout: 30_000 }).toMatch(/^Step [1-3] of 3: .+ \d+ s$/)
    const address = page.getByTestId('wallet-address')
    await expect.poll(async () => (await address.getAttribute('data-address')) ?? '', { timeout: 90_000 }).toMatch(/^G[A-Z2-7]{55}$/)
    account = (await address.getAttribute('data-address'))!
    await expect.poll(usdcOf, { timeout: 60_000 }).toBeGreaterThan(0n)
    const before = await usdcOf()
    await page.getByTestId('test-usdc').click()
    await expect.poll(() => text('test-usdc-status'), { timeout: 60_000 }).toMatch(/^Received 10,000\.0000000 test USDC; the wallet holds [\d,]+\.\d{7} USDC\.$/)
    expect(await usdcOf()).toBe(before + 10_000n * UNIT)
  }, 180_000)

  it('refuses “1,000” in the words of the hint under the field', async () => {
    expect(await text('deposit-hint')).toBe('Digits and at most one “.” for the decimals (up to 7), no “,” or spaces: 1000 or 0.5.')
    await page.getByTestId('deposit-amount').fill('1,000')
    await expect.poll(() => text('deposit-preview')).toBe('Type the amount without “,”: 1000 for a thousand, 1.5 for one and a half (not “1,000”).')
    await page.getByTestId('deposit-submit').click()
    await expect.poll(() => text('write-error')).toMatch(/^Type the amount without “,”/)
    expect(await page.getByTestId('write-confirm').count()).toBe(0)
  })

  it('quotes the fee as a ceiling before signing and shows the fee charged after', async () => {
    await page.getByTestId('deposit-amount').fill('100')
    await page.getByTestId('deposit-submit').click()
    await page.getByTestId('write-confirm').waitFor({ timeout: 30_000 })
    const quoted = await text('write-fee')
    expect(quoted).toMatch(/^up to \d+\.\d{7} XLM$/)
    expect(await text('write-fee-note')).toMatch(/^The most this transaction can cost/)
    await page.getByTestId('write-confirm').click()
    await expect.poll(() => text('write-status'), { timeout: 60_000 }).toMatch(/ledger \d+/)
    feeCharged = await text('write-fee-charged')
    expect(feeCharged).toMatch(/^Fee charged: \d+\.\d{7} XLM$/)
    expect(stroops(feeCharged)).toBeLessThanOrEqual(stroops(quoted))
    depositHash = ((await page.getByTestId('write-hash').getAttribute('href')) ?? '').replace('#/tx/', '')
    expect(depositHash).toMatch(/^[0-9a-f]{64}$/)
  }, 120_000)

  it('shows the transaction with its close time, the fee charged and USDC amounts, the raw units in the titles', async () => {
    await view(`tx/${depositHash}`)
    await expect.poll(() => text('tx-status'), { timeout: 30_000 }).toBe('Succeeded')
    expect(await text('tx-closed')).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/)
    expect(`Fee charged: ${await text('tx-fee')}`).toBe(feeCharged)
    const call = await text('tx-operation')
    expect(call).toMatch(/^deposit\(G[A-Z2-7]{55}, 100\.0000000 USDC\) on contract C/)
    expect(await page.getByTestId('tx-operation').locator('[data-raw="1000000000"]').getAttribute('title')).toBe('raw: 1000000000')
    const events = (await page.getByTestId('tx-event').allTextContents()).join('\n')
    expect(events).toContain('100.0000000 USDC')
    // no amount in raw base units where a person reads it
    expect(events).not.toMatch(/(^|[^\w.])\d{8,}(?![\w.])/)
    await page.screenshot({ path: join(SCREENSHOTS, 'depositor-transaction.png'), fullPage: true })
  })

  it('on a phone, each history row shows its amount and its transaction link', async () => {
    await page.setViewportSize(PHONE)
    await view('position')
    const row = page.getByTestId('history-row').first()
    await row.waitFor({ timeout: 30_000 })
    expect(await row.getByTestId('history-amount').textContent()).toMatch(/100\.0000000/)
    expect(await inSight(row.getByTestId('history-amount'))).toBe(true)
    expect(await inSight(row.getByTestId('history-hash'))).toBe(true)
    expect(await row.getByTestId('history-hash').getAttribute('href')).toBe(`#/tx/${depositHash}`)
    const { scroll, inner } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }))
    expect(scroll).toBeLessThanOrEqual(inner)
    await page.screenshot({ path: join(SCREENSHOTS, 'depositor-phone-history.png'), fullPage: true })
  })

  it('on a phone, the views row marks the edge it scrolls to and keeps the current view in sight; on a desktop every view shows in full', async () => {
    for (const id of ['auctions', 'settings', 'vault']) {
      await view(id)
      const link = page.locator(`header nav a[data-view="${id}"]`)
      await expect.poll(async () => {
        const box = await link.boundingBox()
        return box !== null && box.x >= 0 && box.x + box.width <= PHONE.width
      }).toBe(true)
      const nav = page.getByTestId('views-nav')
      const marks = [await nav.getAttribute('data-more-left'), await nav.getAttribute('data-more-right')]
      expect(marks.some((m) => m !== null), `${id}: no sign of the views out of sight`).toBe(true)
    }
    expect(await page.locator('header nav a[data-view="auctions"]').innerText()).toBe('Auctions')
    await page.screenshot({ path: join(SCREENSHOTS, 'depositor-phone-nav.png') })
    await page.setViewportSize(DESKTOP)
    await view('vault')
    const links = page.locator('header nav a')
    for (let i = 0; i < (await links.count()); i++) expect(await inSight(links.nth(i))).toBe(true)
    expect(await page.locator('header nav a[data-view="auctions"]').innerText()).toBe('Positions & auctions')
    const nav = page.getByTestId('views-nav')
    expect([await nav.getAttribute('data-more-left'), await nav.getAttribute('data-more-right')]).toEqual([null, null])
  })

  it('says how to make a sim run when Research has none, without the server’s folder', async () => {
    await view('research')
    const empty = page.getByTestId('research-runs')
    await expect.poll(async () => (await empty.textContent()) ?? '', { timeout: 30_000 }).toMatch(/^No sim runs or sweeps yet\./)
    expect(await text('research-run-command')).toBe('npm run sim -- run crash-30 --seed 7')
    const body = (await page.locator('main').textContent()) ?? ''
    expect(body).not.toContain(env.runsDir)
    expect(body).not.toContain(tmpdir())
  })

  it('names Positions & auctions and lists the liquidations the vault books, on a desktop and a phone', async () => {
    await page.setViewportSize(DESKTOP)
    await view('auctions')
    await page.getByRole('heading', { level: 2, name: 'Positions & auctions' }).waitFor({ timeout: 30_000 })
    await page.getByTestId('booked-empty').waitFor({ timeout: 30_000 })
    // A second keeper books a two-step liquidation on chain: it draws 50 USDC of the deposit and
    // returns 55 (a gross profit of 5: 4.5 for the depositors, 0.5 the keeper's 10 % fee).
    const { chain, service } = env.world
    const keeper = env.world.keepers[1]!
    await registerKeeper(chain, keeper, service!.registry, 'e2e-returner')
    await invoke(chain, keeper, service!.vault, 'draw', [addr(keeper.publicKey()), i128(50n * UNIT)])
    await invoke(chain, keeper, service!.vault, 'return_proceeds', [addr(keeper.publicKey()), i128(55n * UNIT), u64(0n)])
    const row = page.getByTestId('booked-row').first()
    await row.waitFor({ timeout: 60_000 })
    expect(await row.getAttribute('data-kind')).toBe('return')
    expect(await row.getByTestId('booked-profit').textContent()).toBe('4.5000000')
    expect(await row.textContent()).toContain('50.0000000')
    expect(await text('booked-summary')).toMatch(/^1 fill\(s\) booked: 4\.5000000 USDC of profit for depositors, 0\.5000000 USDC of keeper fees/)
    await page.screenshot({ path: join(SCREENSHOTS, 'depositor-booked.png'), fullPage: true })
    await page.setViewportSize(PHONE)
    await view('auctions')
    await page.getByRole('heading', { level: 2, name: 'Positions & auctions' }).waitFor({ timeout: 30_000 })
    const phoneRow = page.getByTestId('booked-row').first()
    await phoneRow.waitFor({ timeout: 30_000 })
    expect(await inSight(phoneRow.getByTestId('booked-profit'))).toBe(true)
    expect(await inSight(phoneRow.getByTestId('booked-hash'))).toBe(true)
    await page.screenshot({ path: join(SCREENSHOTS, 'depositor-phone-booked.png'), fullPage: true })
    // its transaction, in USDC
    await phoneRow.getByTestId('booked-hash').click()
    await expect.poll(() => text('tx-operation'), { timeout: 30_000 }).toMatch(/^return_proceeds\(G[A-Z2-7]{55}, 55\.0000000 USDC, 0\) on contract C/)
  }, 240_000)
})
