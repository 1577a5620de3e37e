import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../../test/keeper/vaultWorld.js'
import { CONFIG_KEYS } from './config.js'

// Every setting the configuration reads is documented twice: a line of deploy/keeper.env.example
// (`KEY=default` or `#KEY=...`) and a row of the settings table in src/keeper/README.md, with its
// default. A new setting without both fails here.
const text = (p: string) => readFileSync(join(REPO_ROOT, p), 'utf8')

function exampleKeys(): string[] {
  return text('deploy/keeper.env.example')
    .split('\n')
    .map((l) => /^#?([A-Z][A-Z0-9_]*)=/.exec(l)?.[1])
    .filter((k): k is string => k !== undefined)
}

/** The rows of the table under `## Configuration`: key → default cell. */
function readmeRows(): Map<string, string> {
  const readme = text('src/keeper/README.md')
  const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1))
  const rows = new Map<string, string>()
  for (const line of section.split('\n')) {
    const m = /^\| `([A-Z][A-Z0-9_]*)` \| ([^|]*) \|/.exec(line)
    if (m) rows.set(m[1]!, m[2]!.trim())
  }
  return rows
}

describe('settings documentation', () => {
  it('the parser reads the settings this test knows of (a sanity check on CONFIG_KEYS)', () => {
    for (const k of ['KEEPER_SECRET', 'API_HOST', 'API_TOKEN', 'STRICT_SECRETS', 'KEEPER_SECRET_FILE', 'DEPLOYMENTS_FILE']) expect(CONFIG_KEYS).toContain(k)
  })

  it('deploy/keeper.env.example has every setting the parser reads, and nothing else', () => {
    const keys = new Set(exampleKeys())
    expect(CONFIG_KEYS.filter((k) => !keys.has(k)), 'missing from keeper.env.example').toEqual([])
    expect([...keys].filter((k) => !CONFIG_KEYS.includes(k)), 'in keeper.env.example but not read').toEqual([])
  })

  it('the README settings table has a row with a default for every setting, and no other', () => {
    const rows = readmeRows()
    expect(CONFIG_KEYS.filter((k) => !rows.has(k)), 'missing from the README table').toEqual([])
    expect([...rows.keys()].filter((k) => !CONFIG_KEYS.includes(k)), 'in the README table but not read').toEqual([])
    expect([...rows].filter(([, dflt]) => dflt === ''), 'rows without a default').toEqual([])
  })

  it('a setting the example file sets is set to the default the README gives', () => {
    const rows = readmeRows()
    const set = text('deploy/keeper.env.example')
      .split('\n')
      .map((l) => /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null)
    const wrong: string[] = []
    for (const [, key, value] of set) {
      const dflt = rows.get(key!) ?? ''
      const code = /^`([^`]*)`/.exec(dflt)?.[1]
      // An empty value stands for an empty or unset default; otherwise the README's code value.
      if (value === '' ? code !== undefined && !/^(empty|—)/.test(dflt) : code !== value) {
        if (key === 'DEPLOYMENTS_FILE') continue // an example of a path, not a default
        wrong.push(`${key}=${value} (README: ${dflt})`)
      }
    }
    expect(wrong).toEqual([])
  })
})
