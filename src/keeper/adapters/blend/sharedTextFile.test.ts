import { chmodSync, existsSync, lstatSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDirs } from '../../../../test/fs/tempDirs.js'
import { FileLockedError, rewriteShared } from './sharedTextFile.js'

const tempDir = tempDirs('shared-file-')

describe('rewriteShared', () => {
  it('replaces the file by a rename: a reader of the old file sees all of it, never a mix', async () => {
    const path = join(tempDir(), 'f.txt')
    writeFileSync(path, 'old\n')
    chmodSync(path, 0o640)
    const reader = await open(path, 'r')
    try {
      expect(await rewriteShared(path, (t) => `${t}new\n`)).toMatchObject({ before: 'old\n', after: 'old\nnew\n' })
      expect((await reader.readFile('utf8')).toString()).toBe('old\n')
    } finally {
      await reader.close()
    }
    expect(readFileSync(path, 'utf8')).toBe('old\nnew\n')
    expect(statSync(path).mode & 0o777).toBe(0o640)
  })

  it('writes nothing when the text does not change, and creates a missing file', async () => {
    const dir = tempDir()
    const path = join(dir, 'f.txt')
    expect(await rewriteShared(path, (t) => t)).toEqual({ before: '', after: '', version: undefined })
    expect(existsSync(path)).toBe(false)
    await rewriteShared(path, () => 'a\n')
    expect(readFileSync(path, 'utf8')).toBe('a\n')
    expect(readdirSync(dir)).toEqual(['f.txt'])
  })

  it('follows a symbolic link: the file it points to is replaced, the link stays', async () => {
    const dir = tempDir()
    const target = join(dir, 'real.txt')
    const link = join(dir, 'link.txt')
    writeFileSync(target, 'a\n')
    symlinkSync(target, link)
    await rewriteShared(link, (t) => `${t}b\n`)
    expect(lstatSync(link).isSymbolicLink()).toBe(true)
    expect(readFileSync(target, 'utf8')).toBe('a\nb\n')
  })

  it('a change that throws leaves the file as it was and releases the lock', async () => {
    const path = join(tempDir(), 'f.txt')
    writeFileSync(path, 'a\n')
    await expect(
      rewriteShared(path, () => {
        throw new Error('no')
      }),
    ).rejects.toThrow('no')
    expect(readFileSync(path, 'utf8')).toBe('a\n')
    expect(existsSync(`${path}.lock`)).toBe(false)
  })

  it('gives up after waitMs on a live lock, and never removes a lock another writer took over', async () => {
    const path = join(tempDir(), 'f.txt')
    writeFileSync(`${path}.lock`, 'someone\n')
    await expect(rewriteShared(path, () => 'x', { waitMs: 80 })).rejects.toBeInstanceOf(FileLockedError)
    rmSync(`${path}.lock`)

    // while this writer holds the lock, another one replaces it (as if it had found it stale)
    await rewriteShared(path, (t) => {
      writeFileSync(`${path}.lock`, 'the other writer\n')
      return `${t}mine\n`
    })
    expect(readFileSync(`${path}.lock`, 'utf8')).toBe('the other writer\n')
    expect(readFileSync(path, 'utf8')).toBe('mine\n')
  })
})
