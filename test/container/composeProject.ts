/**
 * deploy/docker-compose.yml set up as its header comment tells an operator, in a temporary
 * directory instead of deploy/: keeper.env from keeper.env.example with the chain's values, the
 * secret file owned by the image's uid (65532) with mode 400. The copy of the compose file
 * differs from the original only in the build context (the repository, as an absolute path)
 * and the host port (a free one instead of 8080, on the same address).
 */
import { chownSync, chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { REPO_ROOT } from '../../sandbox/ts/launch.js'

export const COMPOSE_FILE = join(REPO_ROOT, 'deploy', 'docker-compose.yml')
/** The published port line of the compose file, exactly. */
export const PUBLISHED_PORT = '- "127.0.0.1:8080:8080"'

/**
 * keeper.env.example with `settings` applied: a line `KEY=…` or `#KEY=…` whose key is in
 * `settings` becomes `KEY=value`; `commentOut` keys are commented out; the rest is kept.
 */
export function keeperEnvFromExample(settings: Record<string, string>, commentOut: string[] = []): string {
  const example = readFileSync(join(REPO_ROOT, 'deploy', 'keeper.env.example'), 'utf8')
  const seen = new Set<string>()
  const lines = example.split('\n').map((line) => {
    const m = /^#?([A-Z][A-Z0-9_]*)=/.exec(line)
    const key = m?.[1]
    if (key === undefined) return line
    if (commentOut.includes(key)) return line.startsWith('#') ? line : `#${line}`
    if (key in settings && !seen.has(key)) {
      seen.add(key)
      return `${key}=${settings[key]}`
    }
    return line
  })
  for (const [k, v] of Object.entries(settings)) if (!seen.has(k)) lines.push(`${k}=${v}`)
  return lines.join('\n')
}

export interface ComposeProject {
  dir: string
  file: string
  hostPort: number
}

export function writeComposeProject(p: { env: string; secret: string; hostPort: number }): ComposeProject {
  const original = readFileSync(COMPOSE_FILE, 'utf8')
  if (!original.includes('context: ..\n')) throw new Error('deploy/docker-compose.yml: no "context: .." line')
  if (!original.includes(PUBLISHED_PORT)) throw new Error(`deploy/docker-compose.yml: no ${PUBLISHED_PORT} line`)
  const dir = mkdtempSync(join(tmpdir(), 'keeper-compose-'))
  const file = join(dir, 'docker-compose.yml')
  writeFileSync(
    file,
    original.replace('context: ..\n', `context: ${REPO_ROOT}\n`).replace(PUBLISHED_PORT, `- "127.0.0.1:${p.hostPort}:8080"`),
  )
  writeFileSync(join(dir, 'keeper.env'), p.env, { mode: 0o600 })
  mkdirSync(join(dir, 'secrets'))
  const secret = join(dir, 'secrets', 'keeper_secret')
  writeFileSync(secret, p.secret)
  chownSync(secret, 65532, 65532)
  chmodSync(secret, 0o400)
  return { dir, file, hostPort: p.hostPort }
}
