/**
 * The modules of its own crate a Rust file depends on, read from its text. A file's module path
 * comes from its place under src/ (main.rs or lib.rs: the crate root; a.rs and a/mod.rs: a;
 * a/b.rs: a::b). Edges come from `use` items (groups included) and paths in code starting with
 * `crate::`, `super::` or `self::`, and in the crate root also `name::` for a `mod name;` it
 * declares. Each path goes to the longest prefix that names a module file. Comments, string and
 * character literals and visibility restrictions (`pub(in crate::a)`) are not read; inline
 * modules (`mod tests { use super::*; }`) are followed, so their `super` is the file's module.
 */
import { posix } from 'node:path'

/** The module path of a file at `rel` under src/, or undefined when it is no module file. */
export function rustModulePath(rel: string): string[] | undefined {
  if (!rel.endsWith('.rs')) return undefined
  const parts = rel.slice(0, -3).split('/')
  if (parts.length === 1 && (parts[0] === 'main' || parts[0] === 'lib')) return []
  if (parts[parts.length - 1] === 'mod') parts.pop()
  return parts
}

/** The text with comments, strings and character literals blanked (lifetimes kept). */
export function stripRust(s: string): string {
  let out = ''
  let i = 0
  while (i < s.length) {
    const c = s[i]!
    if (c === '/' && s[i + 1] === '/') {
      while (i < s.length && s[i] !== '\n') i++
    } else if (c === '/' && s[i + 1] === '*') {
      let depth = 1
      i += 2
      while (i < s.length && depth > 0) {
        if (s[i] === '/' && s[i + 1] === '*') (depth++, (i += 2))
        else if (s[i] === '*' && s[i + 1] === '/') (depth--, (i += 2))
        else i++
      }
      out += ' '
    } else if ((c === 'r' || (c === 'b' && s[i + 1] === 'r')) && /^b?r(#*)"/.test(s.slice(i, i + 260)) && !/[A-Za-z0-9_]/.test(s[i - 1] ?? '')) {
      const m = /^b?r(#*)"/.exec(s.slice(i))!
      const close = `"${m[1]}`
      const end = s.indexOf(close, i + m[0].length)
      i = end === -1 ? s.length : end + close.length
      out += '""'
    } else if (c === '"') {
      i++
      while (i < s.length && s[i] !== '"') i += s[i] === '\\' ? 2 : 1
      i++
      out += '""'
    } else if (c === "'") {
      const m = /^'(\\u\{[0-9a-fA-F]+\}|\\x[0-9a-fA-F]{2}|\\.|[^\\'\n])'/.exec(s.slice(i, i + 16))
      if (m) {
        i += m[0].length
        out += "' '"
      } else {
        out += c
        i++
      }
    } else {
      out += c
      i++
    }
  }
  return out
}

type Tok = string

function tokens(code: string): Tok[] {
  return code.match(/\$?[A-Za-z_][A-Za-z0-9_]*|::|[{}();,*<>=#\[\]!&.:]/g) ?? []
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/

/** The paths a `use` tree names, from the token after `use` to its `;`; `self` and `*` name the prefix. */
function useTree(t: Tok[], i: number, prefix: string[], out: string[][]): number {
  if (t[i] === '::') i++ // `use ::std::…`: an extern crate, never a module of this one
  if (t[i] === '{') {
    i++
    while (i < t.length && t[i] !== '}') {
      i = useTree(t, i, prefix, out)
      if (t[i] === ',') i++
    }
    return i + 1
  }
  if (t[i] === '*') {
    out.push(prefix)
    return i + 1
  }
  const path = [...prefix]
  while (i < t.length && IDENT.test(t[i]!)) {
    if (t[i] === 'self' && path.length > 0 && prefix.length === path.length && prefix.length > 0) {
      i++
      break
    }
    path.push(t[i]!)
    i++
    if (t[i] === '::') {
      i++
      if (t[i] === '{' || t[i] === '*') return useTree(t, i, path, out)
    } else break
  }
  if (t[i] === 'as') i += 2
  out.push(path)
  return i
}

/**
 * The module paths (crate-absolute, unresolved) `source` refers to: every `crate::`, `super::`,
 * `self::` path and, when `rootMods` is given (the crate root), `name::` for those names.
 */
export function rustPaths(source: string, module: string[], rootMods?: ReadonlySet<string>): string[][] {
  const code = stripRust(source).replace(/\bpub\s*\(\s*(?:crate|super|self|in\s+[^)]*)\)/g, 'pub')
  const t = tokens(code)
  const out: string[][] = []
  /** Inline modules open around the current token: name and the brace depth they opened at. */
  const inline: { name: string; depth: number }[] = []
  let depth = 0
  const here = () => [...module, ...inline.map((m) => m.name)]
  const absolute = (raw: string[]): string[] | undefined => {
    let base: string[]
    let k = 0
    if (raw[0] === 'crate') (base = []), (k = 1)
    else if (raw[0] === 'self') (base = here()), (k = 1)
    else if (raw[0] === 'super') {
      base = here()
      while (raw[k] === 'super') {
        if (base.length === 0) return undefined
        base = base.slice(0, -1)
        k++
      }
    } else if (rootMods !== undefined && rootMods.has(raw[0]!) && inline.length === 0) base = []
    else return undefined
    return [...base, ...raw.slice(k)]
  }
  for (let i = 0; i < t.length; i++) {
    const tok = t[i]!
    if (tok === '{') depth++
    else if (tok === '}') {
      depth--
      while (inline.length > 0 && inline[inline.length - 1]!.depth > depth) inline.pop()
    } else if (tok === 'mod' && IDENT.test(t[i + 1] ?? '') && t[i + 2] === '{') {
      inline.push({ name: t[i + 1]!, depth: depth + 1 })
    } else if (tok === 'use' && t[i - 1] !== '::' && t[i - 1] !== '.') {
      const paths: string[][] = []
      let j = useTree(t, i + 1, [], paths)
      while (j < t.length && t[j] !== ';') j++
      for (const p of paths) {
        const abs = p.length > 0 ? absolute(p) : undefined
        if (abs) out.push(abs)
      }
      i = j
    } else if (IDENT.test(tok) && t[i + 1] === '::' && t[i - 1] !== '::' && (tok === 'crate' || tok === 'super' || tok === 'self' || rootMods?.has(tok))) {
      const raw = [tok]
      let j = i + 1
      while (t[j] === '::' && IDENT.test(t[j + 1] ?? '')) {
        raw.push(t[j + 1]!)
        j += 2
      }
      const abs = absolute(raw)
      if (abs) out.push(abs)
      i = j - 1
    }
  }
  return out
}

/** The names `mod name;` declares in a file (not inline modules). */
export function declaredMods(source: string): Set<string> {
  const code = stripRust(source)
  return new Set([...code.matchAll(/\bmod\s+([A-Za-z_][A-Za-z0-9_]*)\s*;/g)].map((m) => m[1]!))
}

/** `#[path = "…"] mod name;` declarations of a file: module name and the path as written. */
export function pathMods(source: string): { name: string; path: string }[] {
  const re = /#\[path\s*=\s*"([^"]+)"\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\s*\([^)]*\))?\s+)?mod\s+([A-Za-z_][A-Za-z0-9_]*)\s*;/g
  return [...source.matchAll(re)].map((m) => ({ name: m[2]!, path: m[1]! }))
}

/**
 * A crate's module edges: `files` maps each file's path under src/ to its text; the result maps
 * each file to the files it depends on (self-edges left out). A module declared with
 * `#[path = "…"]` is the file the attribute names (relative to the declaring file's folder),
 * possibly outside src/ (then a `../` path, a leaf of the graph).
 */
export function rustCrateEdges(files: ReadonlyMap<string, string>): Map<string, Set<string>> {
  const moduleOf = new Map<string, string[]>()
  for (const rel of [...files.keys()].sort()) {
    const m = rustModulePath(rel)
    if (m !== undefined) moduleOf.set(rel, m)
  }
  const declared: { module: string[]; file: string }[] = []
  for (const [rel, source] of files) {
    const module = moduleOf.get(rel)
    if (module === undefined) continue
    for (const d of pathMods(source)) {
      const file = posix.normalize(posix.join(posix.dirname(rel), d.path))
      declared.push({ module: [...module, d.name], file })
      if (moduleOf.has(file)) moduleOf.set(file, [...module, d.name])
    }
  }
  const byModule = new Map<string, string>()
  for (const [rel, m] of moduleOf) if (!byModule.has(m.join('::'))) byModule.set(m.join('::'), rel)
  for (const d of declared) byModule.set(d.module.join('::'), d.file)
  const edges = new Map<string, Set<string>>()
  for (const [rel, source] of files) {
    const module = moduleOf.get(rel)
    if (module === undefined) continue
    const to = new Set<string>()
    const rootMods = module.length === 0 ? declaredMods(source) : undefined
    for (const path of rustPaths(source, module, rootMods)) {
      for (let n = path.length; n >= 0; n--) {
        const file = byModule.get(path.slice(0, n).join('::'))
        if (file !== undefined) {
          if (file !== rel) to.add(file)
          break
        }
      }
    }
    edges.set(rel, to)
  }
  return edges
}
