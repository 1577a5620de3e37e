/**
 * The borrower hints file (BORROWER_HINTS_FILE): borrower addresses, one per line, that the keeper
 * scans whatever the RPC's event window still holds.
 *
 * Format: one Stellar account (G...) or contract (C...) address per line; `#` starts a comment
 * (a whole line or the rest of a line); blank lines are ignored. Operators may seed the file by
 * hand. The keeper reads it once at start and appends every borrower it discovers afterwards,
 * one line each, fsynced, never twice, so a restart after the retention window still knows them.
 */
import { constants } from 'node:fs'
import { open, readFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { StrKey } from '@stellar/stellar-sdk'

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

/** Parses the text of a hints file; `file` names it in the problems. */
export function parseHints(text: string, file: string): ParsedHints {
  const addresses: string[] = []
  const problems: string[] = []
  const seen = new Set<string>()
  const lines = text.split(/\r?\n/)
  for (const [i, raw] of lines.entries()) {
    const hash = raw.indexOf('#')
    const content = (hash >= 0 ? raw.slice(0, hash) : raw).trim()
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

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

/** Makes a new directory entry durable (best effort: not every platform can fsync a directory). */
async function syncDir(path: string): Promise<void> {
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

/**
 * An open hints file. `open` reads it (creating it when missing); `record` appends the addresses
 * it does not hold yet.
 */
export class BorrowerHintsFile {
  readonly path: string
  private readonly known: Set<string>
  /** Addresses a failed append left unwritten: written first by the next `record`. */
  private unwritten: string[] = []
  /** The file's last byte is not a newline (a hand-edited last line): the next append starts one. */
  private needsNewline: boolean
  private queue: Promise<unknown> = Promise.resolve()

  private constructor(path: string, known: readonly string[], needsNewline: boolean) {
    this.path = path
    this.known = new Set(known)
    this.needsNewline = needsNewline
  }

  /**
   * Reads the file. Missing: it is created empty (a path where it cannot be created is an error
   * naming it). Unreadable: an error naming it. Bad lines are returned as problems, not thrown.
   */
  static async open(path: string): Promise<{ hints: BorrowerHintsFile; problems: string[] }> {
    let text: string
    try {
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
    const needsNewline = text.length > 0 && !text.endsWith('\n')
    return { hints: new BorrowerHintsFile(path, parsed.addresses, needsNewline), problems: parsed.problems }
  }

  /** Every address the file holds (read at start or appended since). */
  get addresses(): string[] {
    return [...this.known]
  }

  has(address: string): boolean {
    return this.known.has(address)
  }

  /**
   * Appends the addresses the file does not hold yet, one line each, and fsyncs. Resolves with
   * the lines written. A failed write rejects; its addresses are written by the next call.
   * Calls run one after another.
   */
  record(addresses: readonly string[]): Promise<string[]> {
    const run = this.queue.then(() => this.append(addresses))
    this.queue = run.catch(() => undefined)
    return run
  }

  private async append(addresses: readonly string[]): Promise<string[]> {
    const fresh = new Set(this.unwritten)
    for (const a of addresses) {
      if (!isBorrowerAddress(a)) throw new Error(`not a borrower address: ${shown(a)}`)
      if (!this.known.has(a)) fresh.add(a)
    }
    const lines = [...fresh]
    if (lines.length === 0) return []
    this.unwritten = lines
    const text = (this.needsNewline ? '\n' : '') + lines.map((a) => `${a}\n`).join('')
    try {
      const fh = await open(this.path, 'a')
      try {
        await fh.writeFile(text, 'utf8')
        await fh.sync()
      } finally {
        await fh.close()
      }
    } catch (err) {
      // Part of a line may have been written: the retry starts on a new line (a blank line at worst).
      this.needsNewline = true
      throw new Error(`BORROWER_HINTS_FILE ${this.path}: appending ${lines.length} borrower(s) failed: ${errText(err)}`)
    }
    this.needsNewline = false
    this.unwritten = []
    for (const a of lines) this.known.add(a)
    return lines
  }
}
