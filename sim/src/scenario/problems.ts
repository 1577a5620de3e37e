/**
 * A scenario's problems and where they are: the line and column of the offending key or value in
 * the file, or the `--set name=value` it came from. Zod's issues are reworded here to say what is
 * wrong with the value given.
 */
import { isMap, isNode, isScalar, type Document, type LineCounter } from 'yaml'
import type { z } from 'zod'
import { didYouMean } from './suggest.js'
import { keysAt } from './schemaKeys.js'

export type PathPart = string | number

export interface Problem {
  path: PathPart[]
  message: string
  /** Point at the key itself (an unknown or misplaced key) rather than its value. */
  at?: 'key' | 'value'
}

/** Where overrides came from: a `--set` (or `--snapshot` / `--fork-url`) on the command line. */
export interface Origin {
  path: string
  origin: string
}

export interface Source {
  doc: Document
  lines: LineCounter
}

const joined = (path: readonly PathPart[]) => (path.length === 0 ? '(top level)' : path.map(String).join('.'))

/** `got …` for a value a problem is about. */
export function shown(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v)
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'a list'
  if (typeof v === 'object') return 'a mapping'
  return String(v)
}

const negative = (v: unknown) => (typeof v === 'number' && v < 0) || (typeof v === 'string' && /^\s*-/.test(v))

/** Zod's issue reworded (per-parse error map: a schema's own messages win). */
export function issueMessage(iss: z.core.$ZodRawIssue): string | undefined {
  const got = `got ${shown(iss.input)}`
  switch (iss.code) {
    case 'too_small': {
      const min = Number(iss.minimum)
      if (iss.origin === 'number') {
        if (min === 0 && iss.inclusive) return `must not be negative, ${got}`
        if (min === 0) return negative(iss.input) ? `must be greater than 0 (not negative), ${got}` : `must be greater than 0, ${got}`
        return iss.inclusive ? `must be at least ${min}, ${got}` : `must be greater than ${min}, ${got}`
      }
      if (iss.origin === 'array') return `needs at least ${min} entr${min === 1 ? 'y' : 'ies'}`
      if (iss.origin === 'string') return min === 1 ? 'must not be empty' : `needs at least ${min} characters`
      return undefined
    }
    case 'too_big':
      if (iss.origin === 'number') return iss.inclusive ? `must be at most ${Number(iss.maximum)}, ${got}` : `must be less than ${Number(iss.maximum)}, ${got}`
      if (iss.origin === 'array') return `takes at most ${Number(iss.maximum)} entries`
      return undefined
    case 'invalid_type':
      if (iss.input === undefined) return `missing: expected ${iss.expected === 'int' ? 'a whole number' : `a ${iss.expected}`}`
      if (iss.expected === 'int') return typeof iss.input === 'number' ? `must be a whole number, ${got}` : `expected a whole number, ${got}`
      if (iss.expected === 'object') return `expected a mapping (key: value lines), ${got}`
      if (iss.expected === 'array') return `expected a list, ${got}`
      return `expected a ${iss.expected}, ${got}`
    default:
      return undefined
  }
}

/** A zod issue as problems: one per unknown key, at the key, with "did you mean". */
export function fromIssue(issue: z.core.$ZodIssue, schema: z.ZodType): Problem[] {
  const path = issue.path.filter((p): p is PathPart => typeof p !== 'symbol')
  if (issue.code === 'unrecognized_keys') {
    const known = keysAt(schema, path)
    return issue.keys.map((key) => {
      const hint = didYouMean(key, known) || (known.length > 0 ? ` (the keys here: ${known.join(', ')})` : '')
      return { path: [...path, key], at: 'key' as const, message: `unknown key${hint}` }
    })
  }
  return [{ path, message: issue.message }]
}

/** The node at `path` in the file (the key's node with `key`), or undefined when the file has none. */
function nodeAt(doc: Document, path: readonly PathPart[], key: boolean): { range?: [number, number, number] | null } | undefined {
  if (key && path.length > 0) {
    const parent = doc.getIn(path.slice(0, -1), true)
    if (isMap(parent)) {
      const last = String(path[path.length - 1])
      const pair = parent.items.find((p) => (isScalar(p.key) ? String(p.key.value) : String(p.key)) === last)
      if (pair !== undefined && isNode(pair.key)) return pair.key
    }
  }
  const node = doc.getIn(path, true)
  return isNode(node) ? node : undefined
}

/** `line L, column C` of the deepest node on `path` that the file holds (a missing field points at its parent). */
function position(src: Source, path: readonly PathPart[], key: boolean): { line: number; col: number } {
  for (let n = path.length; n >= 0; n--) {
    const node = nodeAt(src.doc, path.slice(0, n), key && n === path.length)
    if (node?.range) return src.lines.linePos(node.range[0])
  }
  return { line: 1, col: 1 }
}

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}.`)

/** One line per problem, in file order (line, column), then those of the command line. */
export function describe(problems: readonly Problem[], src: Source | undefined, origins: readonly Origin[] = []): string[] {
  const placed = problems.map((p) => {
    const dotted = joined(p.path)
    const text = `${dotted}: ${p.message}`
    // The value (or the section holding it) came from the command line.
    const set = origins.find((o) => p.path.length > 0 && under(dotted, o.path)) ?? (src && nodeAt(src.doc, p.path, p.at === 'key') === undefined ? origins.find((o) => under(o.path, dotted)) : undefined)
    if (set !== undefined) return { line: Infinity, col: origins.indexOf(set), text: `${set.origin}: ${text}` }
    if (src === undefined) return { line: Infinity, col: -1, text }
    const { line, col } = position(src, p.path, p.at === 'key')
    return { line, col, text: `line ${line}, column ${col}: ${text}` }
  })
  return placed
    .map((p, i) => ({ ...p, i }))
    .sort((a, b) => (a.line === b.line ? 0 : a.line - b.line) || a.col - b.col || a.i - b.i)
    .map((p) => p.text)
}
