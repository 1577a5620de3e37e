/**
 * Builds the dashboard app (Vite's JS API with dashboard/vite.config.ts) into target/dashboard,
 * unless that build is newer than every file it is made from.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const DASHBOARD_OUT = join(REPO_ROOT, 'target', 'dashboard')
export const VITE_CONFIG = join(REPO_ROOT, 'dashboard', 'vite.config.ts')

/** What the app is built from: its sources and static files, its Vite config and plugin, the shared src/chain, the packages. */
const INPUTS = ['dashboard/src', 'dashboard/public', 'dashboard/index.html', 'dashboard/vite.config.ts', 'dashboard/server/precompress.ts', 'src/chain', 'package.json', 'package-lock.json']

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0
  const st = statSync(path)
  if (!st.isDirectory()) return st.mtimeMs
  let newest = st.mtimeMs
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)))
  return newest
}

/** Whether target/dashboard/index.html exists and is newer than every input. */
export function isBuildFresh(outDir = DASHBOARD_OUT): boolean {
  const index = join(outDir, 'index.html')
  if (!existsSync(index)) return false
  const built = statSync(index).mtimeMs
  return INPUTS.every((p) => newestMtime(join(REPO_ROOT, p)) <= built)
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * One build at a time per checkout (tests and the demo may start servers in parallel processes;
 * Vite empties the output folder first): a lock directory next to the output, taken over when it
 * is older than two minutes (a build that died).
 */
async function withBuildLock<T>(outDir: string, f: () => Promise<T>): Promise<T> {
  const lock = `${outDir}.build-lock`
  mkdirSync(dirname(lock), { recursive: true })
  for (;;) {
    try {
      mkdirSync(lock)
      break
    } catch {
      try {
        if (Date.now() - statSync(lock).mtimeMs > 120_000) rmSync(lock, { recursive: true, force: true })
      } catch {
        // it went away in between: try again
      }
      await sleep(200)
    }
  }
  try {
    return await f()
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

export interface BuildOptions {
  /** Build even when the output is up to date. */
  force?: boolean
  log?: (line: string) => void
}

/** Builds the app into target/dashboard when it is stale (or `force`); true when it built. */
export async function ensureDashboardBuilt(opts: BuildOptions = {}): Promise<boolean> {
  if (!opts.force && isBuildFresh()) return false
  return withBuildLock(DASHBOARD_OUT, async () => {
    // Another process may have built it while this one waited for the lock.
    if (!opts.force && isBuildFresh()) return false
    opts.log?.('building the dashboard (vite build) into target/dashboard')
    const started = Date.now()
    const { build } = await import('vite')
    await build({ configFile: VITE_CONFIG, logLevel: 'warn', mode: 'production' })
    opts.log?.(`dashboard built in ${((Date.now() - started) / 1000).toFixed(1)} s`)
    return true
  })
}
