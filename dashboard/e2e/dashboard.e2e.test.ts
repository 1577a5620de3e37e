/**
 * The dashboard in Debian's chromium against a sandbox world and a running keeper: a depositor,
 * an operator and a researcher use it as they would, and every figure is checked against the
 * core's math and the contracts' own records. Each view's screenshot goes to target/screenshots/.
 */
import { mkdirSync } from 'node:fs'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../sandbox/ts/launch.js'
import { addr, read } from '../../src/chain/index.js'
import { freeAssets, lockedProfit, sharesForDeposit } from '../../src/core/index.js'
import { RegistryContract } from '../../src/keeper/clients/registry.js'
import { VaultContract } from '../../src/keeper/clients/vault.js'
import { launchChromium } from '../../test/browser/chromium.js'
import { reportJson } from '../../sim/src/report/write.js'
import { reportFixture } from '../../test/sim/reportFixture.js'
import { DEPOSIT_CAP, WITHDRAW_COOLDOWN_SECONDS, startDashboardWorld, type DashboardWorld } from './world.js'

const UNIT = 10_000_000n
const SCREENSHOTS = join(REPO_ROOT, 'target', 'screenshots')

/** 7-decimal fixed point as the page prints exact amounts ("100.0000000", thousands separated). */
const exact = (v: bigint) => `${v / UNIT}.${(v % UNIT).toString().padStart(7, '0')}`
const digits = (text: string) => text.replace(/[^0-9]/g, '')

let env: DashboardWorld
let browser: Browser
let page: Page
let account: string
let depositHash = ''

async function screenshot(name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true })
}

async function view(id: string): Promise<void> {
  await page.goto(`${env.url}#/${id}`)
}

const headerHeight = () => page.evaluate(() => Math.round(document.querySelector('header.top')!.getBoundingClientRect().height))

/** Runs the write flow: the submit button, then the fee/effect confirmation, then inclusion. */
async function write(submitTestId: string): Promise<void> {
  await page.getByTestId(submitTestId).click()
  await page.getByTestId('write-confirm').click({ timeout: 30_000 })
  await expect.poll(async () => (await page.getByTestId('write-status').textContent()) ?? '', { timeout: 60_000 }).toMatch(/ledger \d+/)
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true })
  env = await startDashboardWorld()
  browser = await launchChromium()
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  page.on('pageerror', (e) => process.stderr.write(`[page error] ${e.message}\n`))
}, 600_000)

afterAll(async () => {
  await browser?.close()
  await env?.stop()
})

describe('dashboard in chromium', () => {
  it('shows the vault with an em-dash APY while it has no share-price history', async () => {
    await view('vault')
    await expect.poll(async () => (await page.getByTestId('vault-tvl').textContent()) ?? '', { timeout: 30_000 }).toMatch(/\d/)
    expect((await page.getByTestId('vault-apy').textContent())?.trim()).toBe('—')
    // The vault's settings and the profit lock: the deployment's 10 % keeper fee, nothing locked yet.
    await expect.poll(async () => (await page.getByTestId('vault-keeper-fee').textContent()) ?? '', { timeout: 30_000 }).toBe('10.00% (1000 bps)')
    expect(await page.getByTestId('vault-locked-profit').textContent()).toBe('0.0000000 USDC')
    expect(await page.getByTestId('vault-locked-until').textContent()).toMatch(/^nothing locked \(booked profit unlocks over /)
    await screenshot('vault-empty')
  })

  it('connects the sandbox wallet (friendbot XLM, a USDC trustline, faucet USDC)', async () => {
    const headerBefore = await headerHeight()
    await page.getByTestId('wallet-connect-sandbox').click()
    const address = page.getByTestId('wallet-address')
    await expect.poll(async () => (await address.getAttribute('data-address')) ?? '', { timeout: 60_000 }).toMatch(/^G[A-Z2-7]{55}$/)
    account = (await address.getAttribute('data-address'))!
    // the header keeps its height, and focus moves to the connected wallet's controls
    expect(await headerHeight()).toBe(headerBefore)
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('wallet-disconnect')
    const vault = new VaultContract(env.world.chain, env.world.service!.vault)
    const usdcOf = async () => BigInt(String(await read(env.world.chain, env.world.usdc.contract, 'balance', [addr(account)])))
    await expect.poll(usdcOf, { timeout: 60_000 }).toBeGreaterThan(1_000n * UNIT)
    expect((await vault.getDepositor(account)).shares).toBe(0n)
  })

  it('deposits 100 USDC: the shares shown equal the core preview and the vault record', async () => {
    const vault = new VaultContract(env.world.chain, env.world.service!.vault)
    const before = await vault.getState()
    // Priced on free assets, as the vault prices it: total_usdc less the profit still locked.
    const { closeTime } = await env.world.chain.server.getLatestLedger()
    const free = freeAssets(before.totalUsdc, lockedProfit(before, BigInt(closeTime)))
    const preview = sharesForDeposit({ amount: 100n * UNIT, totalUsdc: free, totalShares: before.totalShares }).shares
    await view('position')
    await page.getByTestId('deposit-amount').fill('100')
    await expect.poll(async () => digits((await page.getByTestId('deposit-preview').textContent()) ?? '')).toContain(digits(exact(preview)))
    await write('deposit-submit')
    expect((await vault.getDepositor(account)).shares).toBe(preview)
    await expect.poll(async () => digits((await page.getByTestId('position-shares').textContent()) ?? ''), { timeout: 30_000 }).toBe(digits(exact(preview)))
    // the field is emptied and focus rests on the write's status, which names the transaction
    expect(await page.getByTestId('deposit-amount').inputValue()).toBe('')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('write-status')
    depositHash = ((await page.getByTestId('write-hash').getAttribute('href')) ?? '').replace('#/tx/', '')
    expect(depositHash).toMatch(/^[0-9a-f]{64}$/)
    await screenshot('position')
  })

  it('lists the deposit in the account’s history with its transaction, whose page the dashboard shows', async () => {
    const row = page.getByTestId('history-row').first()
    await row.waitFor({ timeout: 30_000 })
    expect(await row.getAttribute('data-kind')).toBe('deposit')
    expect(await row.textContent()).toMatch(/100\.00/)
    const link = row.getByTestId('history-hash')
    expect(await link.getAttribute('href')).toBe(`#/tx/${depositHash}`)
    expect(await page.getByTestId('position-earnings').textContent()).toMatch(/USDC/)
    await link.click()
    await expect.poll(async () => (await page.getByTestId('tx-status').textContent()) ?? '', { timeout: 30_000 }).toMatch(/Succeeded/)
    expect(await page.getByTestId('tx-hash').textContent()).toContain(depositHash)
    expect(await page.getByTestId('tx-operation').textContent()).toMatch(/deposit/)
    await screenshot('transaction')
  })

  it('refuses, before any signature, a deposit over the wallet’s USDC and one over the cap, in words', async () => {
    await view('position')
    const held = BigInt(String(await read(env.world.chain, env.world.usdc.contract, 'balance', [addr(account)])))
    await page.getByTestId('deposit-amount').fill(String(held / UNIT + 1n))
    await expect.poll(async () => (await page.getByTestId('deposit-refused').textContent()) ?? '', { timeout: 30_000 }).toMatch(/You hold [\d,.]+ USDC; this deposit needs [\d,.]+\./)
    expect(await page.getByTestId('deposit-submit').isDisabled()).toBe(true)
    await page.getByTestId('deposit-amount').fill(String((DEPOSIT_CAP / UNIT) + 1n))
    await expect.poll(async () => (await page.getByTestId('deposit-refused').textContent()) ?? '').toMatch(/over its deposit cap: it can take [\d,.]+ USDC more\./)
    expect(await page.getByTestId('deposit-submit').isDisabled()).toBe(true)
    expect(await page.getByTestId('write-confirm').count()).toBe(0)
    await page.getByTestId('deposit-amount').fill('')
  })

  it('withdraws once the cooldown has passed (sandbox clock advanced)', async () => {
    const vault = new VaultContract(env.world.chain, env.world.service!.vault)
    const shares = (await vault.getDepositor(account)).shares
    await env.sandbox.advanceTime(WITHDRAW_COOLDOWN_SECONDS + 60)
    await env.sandbox.closeLedgers(1).catch(() => undefined)
    await view('position')
    await expect.poll(async () => (await page.getByTestId('cooldown').textContent()) ?? '', { timeout: 30_000 }).toMatch(/ready/i)
    await page.getByTestId('withdraw-shares').fill(exact(shares))
    await write('withdraw-submit')
    expect((await vault.getDepositor(account)).shares).toBe(0n)
    await expect.poll(async () => digits((await page.getByTestId('position-shares').textContent()) ?? ''), { timeout: 30_000 }).toMatch(/^0+$/)
  })

  it('reads the APY as cumulative with under 7 days of history', async () => {
    await view('vault')
    await expect.poll(async () => (await page.getByTestId('vault-apy').textContent()) ?? '', { timeout: 30_000 }).toMatch(/cumulative/)
    await screenshot('vault')
  })

  it('registers the wallet as a keeper, lists it, then deregisters it', async () => {
    const registry = new RegistryContract(env.world.chain, env.world.service!.registry)
    await view('keepers')
    await page.getByTestId('register-name').fill('browser-keeper')
    await write('register-submit')
    expect((await registry.getKeepers()).map((k) => k.operator)).toContain(account)
    await page.getByTestId(`keeper-row-${account}`).waitFor({ timeout: 30_000 })
    // Its bond is the minimum stake, and the two-step draw limit what that covers after the slash penalty.
    const mine = (await registry.getKeepers()).find((k) => k.operator === account)!
    const rowText = (await page.getByTestId(`keeper-row-${account}`).textContent()) ?? ''
    expect(digits(rowText)).toContain(digits(exact(mine.stake)))
    expect(digits(rowText)).toContain(digits(exact(mine.drawLimit)))
    expect(await page.getByTestId('keepers-fee').textContent()).toMatch(/^Keeper fee: 10\.00% \(1000 bps\)/)
    await screenshot('keepers')
    await write('deregister-submit')
    expect((await registry.getKeepers()).map((k) => k.operator)).not.toContain(account)
    await page.getByTestId(`keeper-row-${account}`).waitFor({ state: 'detached', timeout: 30_000 })
  })

  it('streams the keeper’s events into the live log', async () => {
    await view('log')
    // routine scans are hidden by default; they are what a keeper sends most, so show them here
    await page.getByTestId('log-routine').click()
    await page.getByTestId('log-line').first().waitFor({ timeout: 60_000 })
    expect(await page.getByTestId('log-line').count()).toBeGreaterThan(0)
    await screenshot('log')
  })

  it('shows the keeper’s borrowers with their health factors', async () => {
    await view('auctions')
    await page.locator('[data-testid^="borrower-row-"]').first().waitFor({ timeout: 60_000 })
    // the page's ?keeperToken= is the keeper's API_TOKEN: its planned executions are not hidden
    expect(await page.getByTestId('keeper-plans-hidden').count()).toBe(0)
    await screenshot('auctions-borrowers')
  })

  it('opens a sim run’s report.json in Research and draws its charts', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'dashboard-report-')), 'report.json')
    await writeFile(file, reportJson(reportFixture()))
    await view('research')
    await page.getByTestId('research-file').setInputFiles(file)
    await page.getByTestId('research-chart').first().waitFor({ timeout: 30_000 })
    expect(await page.getByTestId('research-error').count()).toBe(0)
    // an auction filled in two parts lists both, with percent, ledger, filler and profit
    const parts = page.getByTestId('report-auctions').locator('li')
    expect(await parts.allTextContents()).toContain('60 % @1205 beta (+20.00 USDC)')
    await screenshot('research')
  })

  it('lists the server’s sim runs and sweeps in Research and opens a sweep as its heatmap and interval table', async () => {
    await view('research')
    const rows = page.getByTestId('research-run-row')
    await rows.first().waitFor({ timeout: 30_000 })
    expect(await rows.count()).toBe(2)
    const sweep = page.locator('[data-testid="research-run-row"][data-kind="sweep"]')
    expect(await sweep.textContent()).toMatch(/4 grid points × 2 seeds/)
    await sweep.getByTestId('research-open').click()
    await page.getByTestId('sweep-heatmap').waitFor({ timeout: 30_000 })
    // one row per grid point, each with its interval; the deep link reopens the same sweep
    await expect.poll(async () => page.getByTestId('sweep-ci-table').locator('tbody tr').count(), { timeout: 30_000 }).toBe(4)
    expect(page.url()).toMatch(/#\/research\?sweep=sweeps%2Fkeepers|#\/research\?sweep=sweeps\/keepers/)
    await screenshot('research-sweep')
    await page.reload()
    await page.getByTestId('sweep-heatmap').waitFor({ timeout: 30_000 })
    await view('research')
    await page.locator('[data-testid="research-run-row"][data-kind="run"]').getByTestId('research-open').click()
    await page.getByTestId('research-chart').first().waitFor({ timeout: 30_000 })
    expect(await page.getByTestId('research-error').count()).toBe(0)
  })

  it('charts an open auction’s lot value against its bid cost once a price drop makes a borrower liquidatable', async () => {
    const collateral = env.world.collaterals[0]!
    await env.world.setPrice(collateral.code, (env.world.price(collateral.code) * 75n) / 100n)
    await view('auctions')
    await page.locator('[data-testid^="auction-row-"]').first().waitFor({ timeout: 120_000 })
    await page.getByTestId('auction-chart').first().waitFor({ timeout: 120_000 })
    // what is left of the auction, as the keeper's progress reports it
    const row = page.locator('[data-testid^="auction-row-"]').first()
    await row.getByText(/% of the lot left/).waitFor({ timeout: 60_000 })
    expect(await row.textContent()).toMatch(/\d+\.\d % of the lot left/)
    await screenshot('auctions')
  })

  it('the keeper answers the dashboard’s origin only, and lists its planned executions only with its token', async () => {
    const state = `http://127.0.0.1:${env.keeper.port}/api/state`
    const mine = await fetch(state, { headers: { origin: env.origin, authorization: `Bearer ${env.apiToken}` } })
    expect(mine.headers.get('access-control-allow-origin')).toBe(env.origin)
    expect(((await mine.json()) as { executions: unknown[] }).executions.length).toBeGreaterThan(0)
    const other = await fetch(state, { headers: { origin: 'http://127.0.0.1:1' } })
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
    const hidden = (await other.json()) as { strategyDetails?: boolean; executions?: unknown }
    expect(hidden.strategyDetails).toBe(false)
    expect(hidden.executions).toBeUndefined()
  })

  it('lays out every view on a phone (390×844) and a desktop (1280×900) without a sideways page scroll', async () => {
    const views = ['vault', 'position', 'keepers', 'auctions', 'log', 'research', 'settings', `tx/${depositHash}`]
    for (const vp of [{ name: 'phone', width: 390, height: 844 }, { name: 'desktop', width: 1280, height: 900 }]) {
      await page.setViewportSize({ width: vp.width, height: vp.height })
      for (const id of views) {
        await view(id)
        await page.locator('main section').first().waitFor({ timeout: 30_000 })
        await page.waitForLoadState('networkidle').catch(() => undefined)
        const { scroll, inner } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }))
        expect(scroll, `${id} at ${vp.width}px scrolls sideways`).toBeLessThanOrEqual(inner)
        await screenshot(`${vp.name}-${id.startsWith('tx/') ? 'transaction' : id}`)
      }
      // every control a finger or a mouse aims at is at least 44 px tall
      const small = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('header a, header button, main button, main input, main select')]
          .filter((el) => el.getClientRects().length > 0 && el.getBoundingClientRect().height < 44)
          .map((el) => el.outerHTML.slice(0, 80)),
      )
      expect(small, `targets under 44 px at ${vp.width}px`).toEqual([])
      if (vp.name === 'phone') expect(await headerHeight()).toBeLessThanOrEqual(120)
    }
  })
})
