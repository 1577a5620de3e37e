import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Parses `.env` text: `KEY=value` lines, `#` comments, optional `export ` prefix, values in
 * single or double quotes (double quotes understand \n). Malformed lines are ignored.
 */
export function parseDotEnv(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim()
    if (line === '' || line.startsWith('#')) continue
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line)
    if (!m) continue
    const key = m[1]!
    let value = m[2]!
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) {
      value = value.slice(1, -1).replace(/\\n/g, '\n').replace(/\\"/g, '"')
    } else if (value.startsWith("'") && value.endsWith("'") && value.length >= 2) {
      value = value.slice(1, -1)
    } else {
      value = value.replace(/\s+#.*$/, '')
    }
    out[key] = value
  }
  return out
}

/**
 * The environment the keeper runs with: `.env` in `cwd` read best effort (absent or unreadable
 * is fine), then the process environment on top (a variable set in both wins from the
 * environment). Nothing is written to `process.env`.
 */
export function loadEnvironment(cwd: string, env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  let fromFile: Record<string, string> = {}
  try {
    fromFile = parseDotEnv(readFileSync(join(cwd, '.env'), 'utf8'))
  } catch {
    // Best effort by design: no .env means environment only.
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
