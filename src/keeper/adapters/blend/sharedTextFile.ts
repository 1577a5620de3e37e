/**
 * Read-modify-write of a small text file that several processes (keepers on one host or one
 * shared volume) may rewrite, so that no writer loses what another wrote and no reader ever sees
 * a half-written file:
 *
 * - writers take turns through a lock file next to it (`<file>.lock`, created with O_EXCL, holding
 *   the writer's pid, host and start time): each one re-reads the file under the lock, applies its
 *   change to what it read, and only then writes;
 * - a write goes to a temporary file in the same directory, is fsynced, and is renamed over the
 *   file (atomic on POSIX file systems), then the directory is fsynced;
 * - a lock older than `staleMs` is taken to be left by a writer that died, and is removed.
 *
 * What this does not cover: a writer that holds the lock longer than `staleMs` (a process stopped
 * for that long mid-write), or two writers removing the same stale lock at the same moment; in
 * both cases two writers may overlap and the later rename drops the earlier one's change. The
 * directory must be writable (lock and temporary file), and the file must not be a single-file
 * bind mount (a rename over it fails).
 */
import { constants } from 'node:fs'
import { chmod, open, readFile, realpath, rename, stat, unlink } from 'node:fs/promises'
import { hostname } from 'node:os'
import { basename, dirname, join } from 'node:path'

export interface SharedFileOptions {
  /** A lock older than this is removed as left by a dead writer (ms; default 30 s). */
  staleMs?: number
  /** Give up waiting for the lock after this long (ms; default 10 s). */
  waitMs?: number
}

export const LOCK_STALE_MS = 30_000
export const LOCK_WAIT_MS = 10_000

/** The lock is still held by another writer after `waitMs`. */
export class FileLockedError extends Error {
  override name = 'FileLockedError'
  constructor(readonly lockPath: string) {
    super(`${lockPath} is held by another writer`)
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/** Makes a new directory entry durable (best effort: not every platform can fsync a directory). */
export async function syncDir(path: string): Promise<void> {
  try {
    const dir = await open(dirname(path), constants.O_RDONLY)
    try {
      await dir.sync()
    } finally {
      await dir.close()
    }
  } catch {
    // the file's own data is synced; only the directory entry's durability is left to the OS
  }
}

/** Takes the lock; resolves with the token written in it. */
async function acquire(lockPath: string, staleMs: number, waitMs: number): Promise<string> {
  const deadline = Date.now() + waitMs
  const token = `${process.pid}@${hostname()} ${new Date().toISOString()} ${Math.random().toString(36).slice(2)}\n`
  for (;;) {
    try {
      const fh = await open(lockPath, 'wx')
      try {
        await fh.writeFile(token, 'utf8')
      } finally {
        await fh.close()
      }
      return token
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    }
    try {
      const held = await stat(lockPath)
      if (Date.now() - held.mtimeMs > staleMs) {
        await unlink(lockPath).catch(() => undefined)
        continue
      }
    } catch {
      continue // released meanwhile
    }
    if (Date.now() > deadline) throw new FileLockedError(lockPath)
    await sleep(10 + Math.random() * 40)
  }
}

/** Removes the lock if it is still ours (a writer that took it over as stale keeps its own). */
async function release(lockPath: string, token: string): Promise<void> {
  const held = await readFile(lockPath, 'utf8').catch(() => undefined)
  if (held === token) await unlink(lockPath).catch(() => undefined)
}

/**
 * What identifies one version of a file: inode, size and modification time (a rename gives a new
 * inode, an edit in place a new time); undefined when it does not exist. Equal versions mean the
 * file has not been written since.
 */
export async function fileVersion(path: string): Promise<string | undefined> {
  try {
    const s = await stat(path, { bigint: true })
    return `${s.ino}:${s.size}:${s.mtimeNs}`
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
}

/** The file's text, '' when it does not exist. */
async function readOrEmpty(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return ''
    throw err
  }
}

/** Writes `text` to a temporary file next to `path` and renames it over `path`. */
async function replace(path: string, text: string): Promise<void> {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`)
  const mode = await stat(path).then(
    (s) => s.mode & 0o777,
    () => undefined,
  )
  try {
    const fh = await open(tmp, 'wx')
    try {
      await fh.writeFile(text, 'utf8')
      await fh.sync()
    } finally {
      await fh.close()
    }
    if (mode !== undefined) await chmod(tmp, mode)
    await rename(tmp, path)
  } catch (err) {
    await unlink(tmp).catch(() => undefined)
    throw err
  }
  await syncDir(path)
}

/**
 * Under the file's lock: reads the file ('' when missing), calls `change` with its text, and
 * writes what `change` returns in its place (nothing when it is the same text). A symbolic link
 * is followed: the file it points to is replaced. Resolves with the text before and after, and
 * the `version` (fileVersion) of the file holding `after`, taken under the lock.
 *
 * @throws FileLockedError when another writer holds the lock for longer than `waitMs`
 */
export async function rewriteShared(
  path: string,
  change: (text: string) => string,
  opts: SharedFileOptions = {},
): Promise<{ before: string; after: string; version: string | undefined }> {
  const target = await realpath(path).catch(() => path)
  const lockPath = `${target}.lock`
  const token = await acquire(lockPath, opts.staleMs ?? LOCK_STALE_MS, opts.waitMs ?? LOCK_WAIT_MS)
  try {
    const before = await readOrEmpty(target)
    const after = change(before)
    if (after !== before) await replace(target, after)
    return { before, after, version: await fileVersion(target) }
  } finally {
    await release(lockPath, token)
  }
}
