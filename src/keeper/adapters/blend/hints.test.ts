import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDirs } from '../../../../test/fs/tempDirs.js'
import { BorrowerHintsFile, mergeHints, parseHints } from './hints.js'
import { randomAccount, randomContract } from './fakeLedger.test-util.js'

const tempDir = tempDirs('hints-')

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
  it('a missing file is created; discovered borrowers are added once each and read back after a restart', async () => {
    const path = join(tempDir(), 'hints.txt')
    const { hints, problems } = await BorrowerHintsFile.open(path)
    expect(problems).toEqual([])
    expect(existsSync(path)).toBe(true)
    expect(hints.addresses).toEqual([])

    const [a, b, c] = [randomAccount(), randomAccount(), randomAccount()]
    expect(await hints.record([a, b])).toEqual({ added: [a, b], pruned: [] })
    expect(await hints.record([b, a, c, c])).toEqual({ added: [c], pruned: [] })
    expect(await hints.record([])).toEqual({ added: [], pruned: [] })
    expect(readFileSync(path, 'utf8')).toBe(`${a}\n${b}\n${c}\n`)

    const again = await BorrowerHintsFile.open(path)
    expect(again.hints.addresses).toEqual([a, b, c])
    expect(await again.hints.record([a, b, c])).toEqual({ added: [], pruned: [] })
    expect(lines(path)).toHaveLength(4)
  })

  it('a hand-seeded file keeps its comments; a last line without a newline is not joined', async () => {
    const path = join(tempDir(), 'hints.txt')
    const [seeded, found] = [randomAccount(), randomAccount()]
    writeFileSync(path, `# seeded by the operator\n${seeded}`)
    const { hints } = await BorrowerHintsFile.open(path)
    expect(hints.has(seeded)).toBe(true)
    expect(await hints.record([seeded, found])).toEqual({ added: [found], pruned: [] })
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

  it('a failed write names the file and is made by the next record', async () => {
    const path = join(tempDir(), 'hints.txt')
    const { hints } = await BorrowerHintsFile.open(path)
    const [a, b] = [randomAccount(), randomAccount()]
    rmSync(path)
    mkdirSync(path) // a directory cannot be read as the file
    await expect(hints.record([a])).rejects.toThrow(`BORROWER_HINTS_FILE ${path}: writing failed (1 borrower(s) to add, 0 to remove): EISDIR`)
    expect(hints.has(a)).toBe(false)
    expect(existsSync(`${path}.lock`)).toBe(false)
    rmSync(path, { recursive: true })
    expect(await hints.record([b])).toEqual({ added: [a, b], pruned: [] })
    expect(parseHints(readFileSync(path, 'utf8'), path)).toEqual({ addresses: [a, b], problems: [] })
  })

  it('refuses to append something that is not an address', async () => {
    const { hints } = await BorrowerHintsFile.open(join(tempDir(), 'hints.txt'))
    await expect(hints.record(['G-not-valid'])).rejects.toThrow('not a borrower address: "G-not-valid"')
  })
})

describe('mergeHints', () => {
  it('drops the lines of pruned addresses, keeps comments and bad lines, adds what is missing once', () => {
    const [a, b, c, d] = [randomAccount(), randomAccount(), randomAccount(), randomContract()]
    const text = `# seeded\n${a}  # repaid later\nnot-an-address\n${b}`
    expect(mergeHints(text, [c, b, c, d], new Set([a]))).toEqual({ text: `# seeded\nnot-an-address\n${b}\n${c}\n${d}\n`, added: [c, d], pruned: [a] })
    // a borrower both discovered and repaid is not added; an address the file lacks is not "pruned"
    expect(mergeHints(`${b}\n`, [a], new Set([a, c]))).toEqual({ text: `${b}\n`, added: [], pruned: [] })
    expect(mergeHints(`${a}\n`, [], new Set([a]))).toEqual({ text: '', added: [], pruned: [a] })
    expect(mergeHints(`x\r\n${a}\r\n`, [], new Set([a])).text).toBe('x\r\n')
  })
})

describe('hints file shared by keepers', () => {
  it('a repaid borrower is pruned when the file is rewritten, and another keeper does not write it back', async () => {
    const path = join(tempDir(), 'hints.txt')
    const [repaid, owing, found] = [randomAccount(), randomAccount(), randomAccount()]
    writeFileSync(path, `# seeded by hand\n${repaid}\n${owing}\n`)
    const one = (await BorrowerHintsFile.open(path)).hints
    const two = (await BorrowerHintsFile.open(path)).hints

    expect(await one.record([], [repaid])).toEqual({ added: [], pruned: [repaid] })
    expect(readFileSync(path, 'utf8')).toBe(`# seeded by hand\n${owing}\n`)
    expect(one.has(repaid)).toBe(false)
    // nothing to change: the file is not touched (the second report of the same repayment is a no-op)
    const before = statSync(path).mtimeMs
    expect(await one.record([owing], [repaid])).toEqual({ added: [], pruned: [] })
    expect(statSync(path).mtimeMs).toBe(before)

    // the second keeper read the file before the prune: adding its own discovery keeps the prune
    expect(two.has(repaid)).toBe(true)
    expect(await two.record([found])).toEqual({ added: [found], pruned: [] })
    expect(readFileSync(path, 'utf8')).toBe(`# seeded by hand\n${owing}\n${found}\n`)
    expect(two.has(repaid)).toBe(false)
    // and the first keeper's next write keeps the second's discovery
    const later = randomAccount()
    await one.record([later])
    expect(parseHints(readFileSync(path, 'utf8'), path).addresses).toEqual([owing, found, later])
  })

  it('a borrower another keeper pruned is written back by a keeper that sees it borrow again', async () => {
    const path = join(tempDir(), 'hints.txt')
    const x = randomAccount()
    writeFileSync(path, `${x}\n`)
    const one = (await BorrowerHintsFile.open(path)).hints
    const two = (await BorrowerHintsFile.open(path)).hints
    expect(await two.record([], [x])).toEqual({ added: [], pruned: [x] })
    expect(readFileSync(path, 'utf8')).toBe('')
    // the first keeper read the file when it still held x; x borrows again and its scan names it
    expect(one.has(x)).toBe(true)
    expect(await one.record([x])).toEqual({ added: [x], pruned: [] })
    expect(readFileSync(path, 'utf8')).toBe(`${x}\n`)
    // a line removed by hand is noticed too
    writeFileSync(path, '# emptied by hand\n')
    expect(await one.record([x])).toEqual({ added: [x], pruned: [] })
    expect(readFileSync(path, 'utf8')).toBe(`# emptied by hand\n${x}\n`)
  })

  it('two keepers writing at the same time both keep everything either discovered', async () => {
    const dir = tempDir()
    const path = join(dir, 'hints.txt')
    const one = (await BorrowerHintsFile.open(path)).hints
    const two = (await BorrowerHintsFile.open(path)).hints
    const mine = Array.from({ length: 30 }, randomAccount)
    const theirs = Array.from({ length: 30 }, randomAccount)
    // interleaved: each keeper records one borrower at a time, both at once
    await Promise.all([
      (async () => {
        for (const a of mine) await one.record([a])
      })(),
      (async () => {
        for (const a of theirs) await two.record([a])
      })(),
    ])
    const parsed = parseHints(readFileSync(path, 'utf8'), path)
    expect(parsed.problems).toEqual([])
    expect([...parsed.addresses].sort()).toEqual([...mine, ...theirs].sort())
    // no lock or temporary file is left behind
    expect(readdirSync(dir)).toEqual(['hints.txt'])
  })

  it('waits for a lock another writer holds, removes a stale one, and retries after giving up', async () => {
    const path = join(tempDir(), 'hints.txt')
    const [a, b] = [randomAccount(), randomAccount()]
    const { hints } = await BorrowerHintsFile.open(path, { staleMs: 60_000, waitMs: 150 })
    // held by a live writer for longer than waitMs: the write fails, the borrower waits for the next one
    writeFileSync(`${path}.lock`, 'another keeper\n')
    await expect(hints.record([a])).rejects.toThrow(`BORROWER_HINTS_FILE ${path}: writing failed (1 borrower(s) to add, 0 to remove): ${path}.lock is held by another writer`)
    expect(readFileSync(path, 'utf8')).toBe('')
    // released while the next write waits: it goes through
    const released = new Promise((r) => setTimeout(r, 50)).then(() => rmSync(`${path}.lock`))
    writeFileSync(`${path}.lock`, 'another keeper\n')
    expect(await hints.record([b])).toEqual({ added: [a, b], pruned: [] })
    await released
    // a lock left by a writer that died long ago is removed
    writeFileSync(`${path}.lock`, 'a dead keeper\n')
    const old = new Date(Date.now() - 120_000)
    utimesSync(`${path}.lock`, old, old)
    const c = randomAccount()
    expect(await hints.record([c])).toEqual({ added: [c], pruned: [] })
    expect(existsSync(`${path}.lock`)).toBe(false)
  })
})
