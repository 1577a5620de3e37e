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

/** The object schemas `schema` may be (through wrappers and unions). */
function objects(schema: z.ZodType, depth = 0): Def[] {
  if (depth > 20) return []
  const def = defOf(schema)
  switch (def.type) {
    case 'object':
      return [def]
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return objects(def.innerType!, depth + 1)
    case 'pipe':
      return [...objects(def.in!, depth + 1), ...objects(def.out!, depth + 1)]
    case 'union':
      return def.options!.flatMap((o) => objects(o, depth + 1))
    default:
      return []
  }
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
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return step(def.innerType!, part, depth + 1)
    case 'pipe':
      return [...step(def.in!, part, depth + 1), ...step(def.out!, part, depth + 1)]
    case 'union':
      return def.options!.flatMap((o) => step(o, part, depth + 1))
    default:
      return []
  }
}

/** Every key the mapping at `path` may hold, per the schema (empty when none is known). */
export function keysAt(schema: z.ZodType, path: readonly (string | number)[]): string[] {
  let at = [schema]
  for (const part of path) at = at.flatMap((s) => step(s, part))
  return [...new Set(at.flatMap((s) => objects(s)).flatMap((d) => Object.keys(d.shape!)))]
}
