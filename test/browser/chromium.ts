/**
 * Debian's chromium driven by playwright-core, for browser tests. `npm test` installs the
 * browser (scripts/setup.sh browser), so a missing one is an error, not a skip.
 * CHROMIUM_PATH points at another build when set.
 */
import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`no browser at ${CHROMIUM_PATH}: run bash scripts/setup.sh browser (installs Debian's chromium) or set CHROMIUM_PATH`)
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true })
}
