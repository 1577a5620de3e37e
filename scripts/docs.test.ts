import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// The repository's Markdown cites files by paths a reader can follow from a fresh clone.
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const docs = execFileSync('git', ['ls-files', '*.md'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter((f) => f !== '' && !f.includes('node_modules/'))

describe('documentation paths', () => {
  it('cites no absolute path of a build machine', () => {
    const found: string[] = []
    for (const f of docs) {
      readFileSync(join(ROOT, f), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/(^|[\s`(\[])\/(work|home|Users|root)\/[\w.-]/.test(line)) found.push(`${f}:${i + 1}: ${line.trim()}`)
        })
    }
    expect(found).toEqual([])
  })

  it('links only to files that exist in the repository', () => {
    const broken: string[] = []
    for (const f of docs) {
      const text = readFileSync(join(ROOT, f), 'utf8')
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!.split('#')[0]!
        if (target === '' || /^[a-z]+:/i.test(target)) continue
        if (!existsSync(resolve(ROOT, dirname(f), target))) broken.push(`${f}: ${m[1]}`)
      }
    }
    expect(broken).toEqual([])
  })
})
