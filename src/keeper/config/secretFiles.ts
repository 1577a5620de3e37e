/**
 * The files that hold credentials (`.env` in the working directory, KEEPER_SECRET_FILE) must be
 * readable by their owner only. One that group or others may read (mode & 0o077) gets a warning,
 * or stops the keeper under STRICT_SECRETS=true.
 */
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { ConfigError } from './config.js'

export interface SecretFileProblem {
  file: string
  /** The file's permission bits, e.g. `0644`. */
  mode: string
  /** The one line that says it: `<file> is readable by group or others (mode 0644): chmod 600 it`. */
  message: string
}

/** The credential files to check: `.env` in `cwd` and KEEPER_SECRET_FILE, those that are set. */
export function secretFilesOf(cwd: string, env: Record<string, string | undefined>): string[] {
  const files = [join(cwd, '.env')]
  const secretFile = env.KEEPER_SECRET_FILE?.trim()
  if (secretFile) files.push(secretFile)
  return files
}

/** The files among `files` that group or others may access; a missing file is not a problem. */
export function exposedSecretFiles(files: readonly string[]): SecretFileProblem[] {
  const out: SecretFileProblem[] = []
  for (const file of files) {
    let mode: number
    try {
      mode = statSync(file).mode & 0o777
    } catch {
      continue
    }
    if ((mode & 0o077) === 0) continue
    const text = `0${mode.toString(8).padStart(3, '0')}`
    out.push({ file, mode: text, message: `${file} is readable by group or others (mode ${text}): chmod 600 it (owner only)` })
  }
  return out
}

/**
 * The problems of `files` as warnings to log; under `strict` (STRICT_SECRETS=true) a
 * ConfigError instead, one line per file, so the keeper does not start.
 *
 * @throws ConfigError under `strict` when a file is exposed.
 */
export function checkSecretFiles(files: readonly string[], strict: boolean): SecretFileProblem[] {
  const problems = exposedSecretFiles(files)
  if (strict && problems.length > 0) throw new ConfigError(problems.map((p) => `STRICT_SECRETS: ${p.message}`))
  return problems
}
