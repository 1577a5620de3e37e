/**
 * A scratch project outside the repository that installs the packed SDK the way a user would:
 * its package-lock.json pins the peer dependencies to the repository's own locked versions
 * (entries copied from the root lock), then `npm install --prefer-offline <tarball>` adds the SDK.
 * npm checks the SDK's peer range against the locked peer: a range the repository's version does
 * not satisfy fails the install.
 *
 * The install takes what the npm cache holds and asks the registry for the rest. It cannot be
 * `--offline`: the peer check reads the peer's full packument, which the root install (served
 * from the lock) never fetches, so on a machine with a fresh npm cache an offline install fails
 * with ERESOLVE ("Found: @stellar/stellar-sdk@undefined").
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

export interface LockEntry {
  version?: string
  dependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
  [key: string]: unknown
}

export interface PackageLock {
  lockfileVersion: number
  packages: Record<string, LockEntry>
}

export interface Packed {
  tarball: string
  /** Bytes of the .tgz and of its contents. */
  size: number
  unpackedSize: number
  files: string[]
}

export interface Run {
  status: number | null
  output: string
  ms: number
}

export function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Run {
  const started = performance.now()
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  if (r.error) throw new Error(`${command} ${args.join(' ')}: ${r.error.message}`)
  return { status: r.status, output: `${r.stdout}${r.stderr}`, ms: Math.round(performance.now() - started) }
}

function mustRun(command: string, args: readonly string[], cwd: string, env?: NodeJS.ProcessEnv): Run {
  const r = run(command, args, cwd, env)
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} (in ${cwd}) exited ${r.status}:\n${r.output}`)
  return r
}

/** `npm pack` of `packageDir` into `destination`, without lifecycle scripts (the caller built it). */
export function packPackage(packageDir: string, destination: string): Packed & { ms: number } {
  const r = mustRun('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', destination], packageDir)
  const json = r.output.slice(r.output.indexOf('['), r.output.lastIndexOf(']') + 1)
  const [info] = JSON.parse(json) as Array<{ filename: string; size: number; unpackedSize: number; files: Array<{ path: string }> }>
  if (info === undefined) throw new Error(`npm pack printed no package:\n${r.output}`)
  return {
    tarball: join(destination, info.filename),
    size: info.size,
    unpackedSize: info.unpackedSize,
    files: info.files.map((f) => f.path),
    ms: r.ms,
  }
}

/** Lock key of `name` as Node would resolve it from the package at lock key `from` ('' = the root). */
function resolveInLock(lock: PackageLock, from: string, name: string): string | undefined {
  let base = from
  for (;;) {
    const key = `${base === '' ? '' : `${base}/`}node_modules/${name}`
    if (lock.packages[key] !== undefined) return key
    if (base === '') return undefined
    const i = base.lastIndexOf('/node_modules/')
    base = i < 0 ? '' : base.slice(0, i)
  }
}

/**
 * The lock entries of `roots` (top-level packages of `lock`) and everything they depend on,
 * keyed as in `lock`, without its dev/peer markers.
 */
export function lockClosure(lock: PackageLock, roots: readonly string[]): Record<string, LockEntry> {
  const out: Record<string, LockEntry> = {}
  const todo: Array<[string, string, boolean]> = roots.map((r) => ['', r, false])
  while (todo.length > 0) {
    const [from, name, optional] = todo.pop()!
    const key = resolveInLock(lock, from, name)
    if (key === undefined) {
      if (optional) continue
      throw new Error(`the lock has no ${name} reachable from ${from === '' ? 'the root' : from}`)
    }
    if (out[key] !== undefined) continue
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry } = lock.packages[key]!
    out[key] = entry
    for (const dep of Object.keys(entry.dependencies ?? {})) todo.push([key, dep, false])
    for (const dep of Object.keys(entry.optionalDependencies ?? {})) todo.push([key, dep, true])
  }
  return out
}

/**
 * Writes package.json and package-lock.json of a project depending on `peers` at the versions
 * `rootLock` holds (installed with the tarball by {@link installTarball}).
 */
export function createScratchProject(dir: string, rootLock: PackageLock, peers: readonly string[]): void {
  const closure = lockClosure(rootLock, peers)
  const dependencies = Object.fromEntries(peers.map((p) => [p, closure[`node_modules/${p}`]!.version!]))
  const manifest = { name: 'keeper-sdk-scratch', version: '0.0.0', private: true, type: 'module', dependencies }
  const lock = { name: manifest.name, lockfileVersion: 3, requires: true, packages: { '': { name: manifest.name, dependencies }, ...closure } }
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  writeFileSync(join(dir, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`)
}

/** `npm install <tarball>`: what a user does with the packed SDK (the locked peers come along). */
export function installTarball(dir: string, tarball: string): Run {
  return run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], dir)
}

/**
 * The packages npm installed in `dir` whose version differs from the one `lock` pins, as
 * `key: locked -> installed` (empty when the install honoured the lock).
 */
export function versionsOffLock(dir: string, lock: Record<string, LockEntry>): string[] {
  const installed = readJson<PackageLock>(join(dir, 'node_modules', '.package-lock.json')).packages
  return Object.entries(lock)
    .filter(([key, entry]) => key !== '' && installed[key]?.version !== entry.version)
    .map(([key, entry]) => `${key}: ${entry.version} -> ${installed[key]?.version ?? 'missing'}`)
}

/** The README's code blocks that start with `// file: <path>`, as { path, code }. */
export function readmeFiles(readme: string): Array<{ path: string; code: string }> {
  return [...readme.matchAll(/^```ts\n\/\/ file: (\S+)\n([\s\S]*?)^```$/gm)].map((m) => ({ path: m[1]!, code: m[2]! }))
}

export function writeFiles(dir: string, files: ReadonlyArray<{ path: string; code: string }>): void {
  for (const f of files) {
    mkdirSync(dirname(join(dir, f.path)), { recursive: true })
    writeFileSync(join(dir, f.path), f.code)
  }
}

export const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T
