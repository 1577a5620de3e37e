import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import dotenv from 'dotenv'
import { ConfigError } from './config.js'

/**
 * Parses `.env` text with the dotenv package: `KEY=value` lines, `#` comments, optional `export `
 * prefix, single, double or backtick quotes (double quotes understand \n), multi-line values.
 */
export function parseDotEnv(text: string): Record<string, string> {
  return dotenv.parse(text)
}

/**
 * The environment the keeper runs with: `.env` in `cwd` (absent is fine), then the process
 * environment on top (a variable set in both wins from the environment). Nothing is written to
 * `process.env`.
 *
 * @throws ConfigError when `.env` exists but cannot be read.
 */
export function loadEnvironment(cwd: string, env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  const file = join(cwd, '.env')
  let fromFile: Record<string, string> = {}
  try {
    fromFile = parseDotEnv(readFileSync(file, 'utf8'))
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code !== 'ENOENT') throw new ConfigError([`cannot read ${file} (${code ?? (err as Error).message})`])
  }
  return { ...fromFile, ...env }
}

/**
 * Docker/compose secrets arrive as files: when KEEPER_SECRET is unset and KEEPER_SECRET_FILE
 * names a readable file, its trimmed content becomes KEEPER_SECRET. An unreadable file leaves
 * KEEPER_SECRET unset (reported as missing).
 */
export function resolveSecretFiles(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const file = env.KEEPER_SECRET_FILE?.trim()
  if ((env.KEEPER_SECRET ?? '').trim() !== '' || !file) return env
  try {
    return { ...env, KEEPER_SECRET: readFileSync(file, 'utf8').trim() }
  } catch {
    return env
  }
}
