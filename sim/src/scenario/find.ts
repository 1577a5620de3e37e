/** A scenario named on the command line: a file, or the name of a shipped one (sim/scenarios). */
import { readdirSync, statSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { nearest } from './suggest.js'

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/**
 * The scenario file `arg` names: a file (relative to the working folder), else, for a bare name
 * (no folder), `<shipped>/<name>.yaml` (a `.yaml` or `.yml` ending may be given). Neither: one
 * line saying so, with the nearest shipped name when one is near.
 */
export function findScenario(arg: string, shipped: string): string | { missing: string } {
  const direct = resolve(arg)
  if (isFile(direct)) return direct
  const name = basename(arg).replace(/\.ya?ml$/, '')
  const named = join(shipped, `${name}.yaml`)
  if (!arg.includes('/') && isFile(named)) return named
  const names = readdirSync(shipped).filter((f) => f.endsWith('.yaml')).map((f) => f.slice(0, -'.yaml'.length))
  const near = nearest(name, names)
  const hint = near === undefined ? ' (npm run sim -- list shows the shipped ones)' : `; did you mean ${near}?`
  return { missing: arg.includes('/') ? `no scenario file ${arg}${hint}` : `no scenario file ${arg} here and no shipped scenario named ${name}${hint}` }
}
