/**
 * The keys a scenario's mapping at a path may have, read from the zod schema (for "did you mean"
 * on an unknown key). Wrappers (optional, default, pipes, preprocess) are looked through; a union
 * offers the keys of all its options.
 */
import type { z } from 'zod'

interface Def {
  type: string
  shape?: Record<string, z.ZodType>
  innerType?: z.ZodType
  in?: z.ZodType
  out?: z.ZodType
  options?: z.ZodType[]
  element?: z.ZodType
  valueType?: z.ZodType
}

const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def

/** What a wrapper, pipe or union stands for (the schemas to look through); undefined for any other kind. */
function through(def: Def): z.ZodType[] | undefined {
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return [def.innerType!]
    case 'pipe':
      return [def.in!, def.out!]
    case 'union':
      return def.options!
    default:
      return undefined
  }
}

/** The object schemas `schema` may be (through wrappers and unions). */
function objects(schema: z.ZodType, depth = 0): Def[] {
  if (depth > 20) return []
  const def = defOf(schema)
  if (def.type === 'object') return [def]
  return through(def)?.flatMap((s) => objects(s, depth + 1)) ?? []
}

/** Schemas reached by one step of `path` from `schema`. */
function step(schema: z.ZodType, part: string | number, depth = 0): z.ZodType[] {
  if (depth > 20) return []
  const def = defOf(schema)
  switch (def.type) {
    case 'object':
      return def.shape![String(part)] ? [def.shape![String(part)]!] : []
    case 'array':
      return [def.element!]
    case 'record':
      return [def.valueType!]
    default:
      return through(def)?.flatMap((s) => step(s, part, depth + 1)) ?? []
  }
}

/** Every key the mapping at `path` may hold, per the schema (empty when none is known). */
export function keysAt(schema: z.ZodType, path: readonly (string | number)[]): string[] {
  let at = [schema]
  for (const part of path) at = at.flatMap((s) => step(s, part))
  return [...new Set(at.flatMap((s) => objects(s)).flatMap((d) => Object.keys(d.shape!)))]
}
