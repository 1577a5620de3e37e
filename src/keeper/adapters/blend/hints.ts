/**
 * The borrower hints file (BORROWER_HINTS_FILE): borrower addresses, one per line, that the keeper
 * scans whatever the RPC's event window still holds.
 *
 * Format: one Stellar account (G...) or contract (C...) address per line; `#` starts a comment
 * (a whole line or the rest of a line); blank lines are ignored. Operators may seed the file by
 * hand. The keeper reads it once at start; afterwards it adds every borrower it discovers, one
 * line each, never twice, and removes the lines of borrowers that have repaid, so a restart after
 * the retention window still knows everyone who may owe something.
 *
 * Several keepers may share one file: every change is made under the file's lock to the file as
 * it is then, and written in place of it atomically (sharedTextFile.ts). A keeper adds only what
 * it discovered and removes only what it saw repaid, so it keeps what the others wrote.
 */
import { open, readFile } from 'node:fs/promises'
import { StrKey } from '@stellar/stellar-sdk'
import { fileVersion, rewriteShared, syncDir, type SharedFileOptions } from './sharedTextFile.js'

/** A Soroban address a Blend position can belong to: an account or a contract. */
export function isBorrowerAddress(s: string): boolean {
  return StrKey.isValidEd25519PublicKey(s) || StrKey.isValidContract(s)
}

export interface ParsedHints {
  /** Valid addresses in file order, each once. */
  addresses: string[]
  /** One message per bad line, `file:line: ...`. */
  problems: string[]
}

function shown(text: string): string {
  return JSON.stringify(text.length > 70 ? `${text.slice(0, 67)}...` : text)
}

/** A line's content: what precedes its comment, trimmed. */
function contentOf(line: string): string {
  const hash = line.indexOf('#')
  return (hash >= 0 ? line.slice(0, hash) : line).trim()
}

/** Parses the text of a hints file; `file` names it in the problems. */
export function parseHints(text: string, file: string): ParsedHints {
  const addresses: string[] = []
  const problems: string[] = []
  const seen = new Set<string>()
  const lines = text.split(/\r?\n/)
  for (const [i, raw] of lines.entries()) {
    const content = contentOf(raw)
    if (content === '') continue
    if (!isBorrowerAddress(content)) {
      problems.push(`${file}:${i + 1}: ${shown(content)} is not a Stellar account (G...) or contract (C...) address; line ignored`)
      continue
    }
    if (seen.has(content)) continue
    seen.add(content)
    addresses.push(content)
  }
  return { addresses, problems }
}

/** The change one write made to the file. */
export interface HintsUpdate {
  /** Lines added, one address each. */
  added: string[]
  /** Addresses whose lines were removed. */
  pruned: string[]
}

/**
 * The text of a hints file after a change: `text` without the lines naming an address of `prune`,
 * then one line for each address of `add` it does not hold. Comments, blank lines and bad lines
 * stay as they were; a last line without a newline gets one. Unchanged text when nothing is to do.
 */
export function mergeHints(text: string, add: readonly string[], prune: ReadonlySet<string>): HintsUpdate & { text: string } {
  const lines = text === '' ? [] : text.split('\n')
  if (lines.at(-1) === '') lines.pop()
  const kept: string[] = []
  const present = new Set<string>()
  const pruned = new Set<string>()
  for (const line of lines) {
    const content = contentOf(line)
    if (prune.has(content)) {
      pruned.add(content)
      continue
    }
    kept.push(line)
    if (content !== '') present.add(content)
  }
  const added = [...new Set(add)].filter((a) => !present.has(a) && !prune.has(a))
  if (added.length === 0 && pruned.size === 0) return { text, added, pruned: [] }
  const out = [...kept, ...added]
  return { text: out.length === 0 ? '' : `${out.join('\n')}\n`, added, pruned: [...pruned] }
}

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

/**
 * An open hints file. `open` reads it (creating it when missing); `record` adds the borrowers a
 * scan discovered and removes those it saw repaid.
 */
export class BorrowerHintsFile {
  readonly path: string
  /** The addresses of the file as this keeper last read or wrote it. */
  private known: Set<string>
  /** The version (fileVersion) of the file `known` was taken from. */
  private version: string | undefined
  /** Addresses a failed write left out: added first by the next `record`. */
  private unwritten: string[] = []
  private queue: Promise<unknown> = Promise.resolve()

  private constructor(
    path: string,
    known: readonly string[],
    version: string | undefined,
    private readonly options: SharedFileOptions,
  ) {
    this.path = path
    this.known = new Set(known)
    this.version = version
  }

  /**
   * Reads the file. Missing: it is created empty (a path where it cannot be created is an error
   * naming it). Unreadable: an error naming it. Bad lines are returned as problems, not thrown.
   */
  static async open(path: string, options: SharedFileOptions = {}): Promise<{ hints: BorrowerHintsFile; problems: string[] }> {
    let text: string
    // Taken before the read: a write in between makes the next `record` read the file again.
    let version: string | undefined
    try {
      version = await fileVersion(path)
      text = await readFile(path, 'utf8')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new Error(`BORROWER_HINTS_FILE ${path} cannot be read: ${errText(err)}`)
      }
      try {
        const fh = await open(path, 'a')
        await fh.sync()
        await fh.close()
        await syncDir(path)
      } catch (createErr) {
        throw new Error(`BORROWER_HINTS_FILE ${path} does not exist and cannot be created: ${errText(createErr)}`)
      }
      text = ''
    }
    const parsed = parseHints(text, path)
    return { hints: new BorrowerHintsFile(path, parsed.addresses, version, options), problems: parsed.problems }
  }

  /** Every address the file holds, as this keeper last read or wrote it. */
  get addresses(): string[] {
    return [...this.known]
  }

  has(address: string): boolean {
    return this.known.has(address)
  }

  /**
   * Brings the file up to date with one scan: adds the `discovered` borrowers it does not hold and
   * removes the `repaid` ones (no liabilities left) it holds; a borrower in both is not added.
   * While the file is as this keeper last saw it (same fileVersion) and nothing is to change, it
   * is not even read. Otherwise the file is re-read under its lock, changed, and replaced
   * atomically (what other keepers wrote meanwhile stays), or left alone when the change is
   * already there. Resolves with the change made. A failed write rejects; its additions are made
   * by the next call, its removals by the next call that reports them repaid again. Calls run
   * one after another.
   */
  record(discovered: readonly string[], repaid: readonly string[] = []): Promise<HintsUpdate> {
    const run = this.queue.then(() => this.write(discovered, repaid))
    this.queue = run.catch(() => undefined)
    return run
  }

  private async write(discovered: readonly string[], repaid: readonly string[]): Promise<HintsUpdate> {
    for (const a of [...discovered, ...repaid]) {
      if (!isBorrowerAddress(a)) throw new Error(`not a borrower address: ${shown(a)}`)
    }
    const gone = new Set(repaid)
    const wanted = [...new Set([...this.unwritten, ...discovered])].filter((a) => !gone.has(a))
    // Written by someone else since this keeper last saw it (a keeper sharing the file, a hand
    // edit): what this keeper knows of it may be wrong, so everything is checked against it.
    const current = await fileVersion(this.path).catch(() => undefined)
    const seen = current !== undefined && current === this.version
    const add = seen ? wanted.filter((a) => !this.known.has(a)) : wanted
    const prune = seen ? new Set([...gone].filter((a) => this.known.has(a))) : gone
    if (add.length === 0 && prune.size === 0) return { added: [], pruned: [] }
    this.unwritten = add
    let merged: ReturnType<typeof mergeHints> | undefined
    let version: string | undefined
    try {
      ;({ version } = await rewriteShared(this.path, (text) => (merged = mergeHints(text, add, prune)).text, this.options))
    } catch (err) {
      throw new Error(`BORROWER_HINTS_FILE ${this.path}: writing failed (${add.length} borrower(s) to add, ${prune.size} to remove): ${errText(err)}`)
    }
    this.unwritten = []
    this.known = new Set(parseHints(merged!.text, this.path).addresses)
    this.version = version
    return { added: merged!.added, pruned: merged!.pruned }
  }
}
