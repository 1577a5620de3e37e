import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { BorrowerHintsFile, parseHints } from './hints.js'
import { randomAccount, randomContract } from './fakeLedger.test-util.js'

const dirs: string[] = []
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'hints-'))
  dirs.push(d)
  return d
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

const lines = (path: string) => readFileSync(path, 'utf8').split('\n')

describe('hints file format', () => {
  it('reads one address per line, skips comments and blank lines, keeps each address once', () => {
    const [a, b, c] = [randomAccount(), randomAccount(), randomContract()]
    const text = ['# borrowers seeded by hand', '', a, `  ${b}  # trailing comment`, '\t', a, `${c}\r`, '   # indented comment'].join('\n')
    expect(parseHints(text, 'hints.txt')).toEqual({ addresses: [a, b, c], problems: [] })
  })

  it('names every bad line by file:line and keeps the good ones', () => {
    const a = randomAccount()
    const muxed = 'MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAAAAAAAGZFQ'
    // A wrong checksum: the last character replaced by another one (a random address may end in X).
    const corrupted = `${a.slice(0, -1)}${a.endsWith('X') ? 'Y' : 'X'}`
    const text = [a, 'not-an-address', corrupted, `${a} ${a}`, muxed].join('\n')
    const parsed = parseHints(text, '/etc/keeper/hints.txt')
    expect(parsed.addresses).toEqual([a])
    expect(parsed.problems).toHaveLength(4)
    expect(parsed.problems[0]).toBe('/etc/keeper/hints.txt:2: "not-an-address" is not a Stellar account (G...) or contract (C...) address; line ignored')
    expect(parsed.problems[1]).toMatch(/^\/etc\/keeper\/hints\.txt:3: /)
    expect(parsed.problems[2]).toMatch(/^\/etc\/keeper\/hints\.txt:4: /)
    expect(parsed.problems[3]).toMatch(/^\/etc\/keeper\/hints\.txt:5: "MA7Q/)
  })
})

describe('hints file on disk', () => {
  it('a missing file is created; discovered borrowers are appended once each and read back after a restart', async () => {
    const path = join(tempDir(), 'hints.txt')
    const { hints, problems } = await BorrowerHintsFile.open(path)
    expect(problems).toEqual([])
    expect(existsSync(path)).toBe(true)
    expect(hints.addresses).toEqual([])

    const [a, b, c] = [randomAccount(), randomAccount(), randomAccount()]
    expect(await hints.record([a, b])).toEqual([a, b])
    expect(await hints.record([b, a, c, c])).toEqual([c])
    expect(await hints.record([])).toEqual([])
    expect(readFileSync(path, 'utf8')).toBe(`${a}\n${b}\n${c}\n`)

    const again = await BorrowerHintsFile.open(path)
    expect(again.hints.addresses).toEqual([a, b, c])
    expect(await again.hints.record([a, b, c])).toEqual([])
    expect(lines(path)).toHaveLength(4)
  })

  it('a hand-seeded file keeps its comments; a last line without a newline is not joined', async () => {
    const path = join(tempDir(), 'hints.txt')
    const [seeded, found] = [randomAccount(), randomAccount()]
    writeFileSync(path, `# seeded by the operator\n${seeded}`)
    const { hints } = await BorrowerHintsFile.open(path)
    expect(hints.has(seeded)).toBe(true)
    expect(await hints.record([seeded, found])).toEqual([found])
    expect(readFileSync(path, 'utf8')).toBe(`# seeded by the operator\n${seeded}\n${found}\n`)
  })

  it('concurrent records write each address once', async () => {
    const path = join(tempDir(), 'hints.txt')
    const { hints } = await BorrowerHintsFile.open(path)
    const users = Array.from({ length: 20 }, randomAccount)
    await Promise.all([hints.record(users), hints.record(users.slice(5)), hints.record(users.slice(0, 3))])
    expect(readFileSync(path, 'utf8').trimEnd().split('\n').sort()).toEqual([...users].sort())
  })

  it('an unreadable file or an impossible path is an error naming it', async () => {
    const dir = tempDir()
    await expect(BorrowerHintsFile.open(dir)).rejects.toThrow(`BORROWER_HINTS_FILE ${dir} cannot be read: EISDIR`)
    const nowhere = join(dir, 'no', 'such', 'dir', 'hints.txt')
    await expect(BorrowerHintsFile.open(nowhere)).rejects.toThrow(`BORROWER_HINTS_FILE ${nowhere} does not exist and cannot be created: ENOENT`)
  })

  it('a failed append names the file and is written by the next record', async () => {
    const path = join(tempDir(), 'hints.txt')
    const { hints } = await BorrowerHintsFile.open(path)
    const [a, b] = [randomAccount(), randomAccount()]
    rmSync(path)
    mkdirSync(path) // appending to a directory fails
    await expect(hints.record([a])).rejects.toThrow(`BORROWER_HINTS_FILE ${path}: appending 1 borrower(s) failed`)
    expect(hints.has(a)).toBe(false)
    rmSync(path, { recursive: true })
    expect(await hints.record([b])).toEqual([a, b])
    expect(parseHints(readFileSync(path, 'utf8'), path)).toEqual({ addresses: [a, b], problems: [] })
  })

  it('refuses to append something that is not an address', async () => {
    const { hints } = await BorrowerHintsFile.open(join(tempDir(), 'hints.txt'))
    await expect(hints.record(['G-not-valid'])).rejects.toThrow('not a borrower address: "G-not-valid"')
  })
})
