/**
 * The modules a TypeScript file imports, read from its text: static `import … from`, side-effect
 * `import '…'`, `import type`, `export … from` and dynamic `import('…')` with a literal. Comments
 * are skipped and string or template contents are never read as code. Relative specifiers are
 * resolved to files of the graph (the `.js` written for a `.ts`/`.tsx` file, index files); bare
 * package specifiers are not edges.
 */
import { posix } from 'node:path'

type Token = { kind: 'word' | 'punct'; text: string } | { kind: 'string'; text: string; literal: boolean }

const WORD = /[A-Za-z0-9_$]/
/** After these a `/` starts a regular expression, not a division. */
const REGEX_AFTER = new Set(['(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^', 'return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'new', 'delete', 'void', 'throw', 'yield', 'await'])

/** Index after the string literal opened by the quote at `i`. */
function skipQuoted(s: string, i: number): number {
  const q = s[i]
  for (let j = i + 1; j < s.length; j++) {
    if (s[j] === '\\') j++
    else if (s[j] === q || s[j] === '\n') return j + 1
  }
  return s.length
}

/** Index after the template literal opened at `i` (substitutions, nested templates included). */
function skipTemplate(s: string, i: number): number {
  for (let j = i + 1; j < s.length; j++) {
    if (s[j] === '\\') j++
    else if (s[j] === '`') return j + 1
    else if (s[j] === '$' && s[j + 1] === '{') {
      let depth = 1
      j += 2
      while (j < s.length && depth > 0) {
        const c = s[j]!
        if (c === '{') depth++
        else if (c === '}') depth--
        else if (c === "'" || c === '"') j = skipQuoted(s, j) - 1
        else if (c === '`') j = skipTemplate(s, j) - 1
        else if (c === '/' && s[j + 1] === '/') j = s.indexOf('\n', j) === -1 ? s.length : s.indexOf('\n', j)
        else if (c === '/' && s[j + 1] === '*') j = s.indexOf('*/', j + 2) === -1 ? s.length : s.indexOf('*/', j + 2) + 1
        j++
      }
      j--
    }
  }
  return s.length
}

/** Words, punctuation and string literals of `source`; comments and regular expressions dropped. */
export function tsTokens(source: string): Token[] {
  const out: Token[] = []
  const s = source
  let i = 0
  while (i < s.length) {
    const c = s[i]!
    if (c === '/' && s[i + 1] === '/') {
      const nl = s.indexOf('\n', i)
      i = nl === -1 ? s.length : nl
    } else if (c === '/' && s[i + 1] === '*') {
      const end = s.indexOf('*/', i + 2)
      i = end === -1 ? s.length : end + 2
    } else if (c === "'" || c === '"') {
      const end = skipQuoted(s, i)
      out.push({ kind: 'string', text: s.slice(i + 1, end - 1), literal: true })
      i = end
    } else if (c === '`') {
      const end = skipTemplate(s, i)
      const body = s.slice(i + 1, end - 1)
      out.push({ kind: 'string', text: body, literal: !body.includes('${') })
      i = end
    } else if (c === '/' && (out.length === 0 || REGEX_AFTER.has(out[out.length - 1]!.text))) {
      let j = i + 1
      let inClass = false
      for (; j < s.length && s[j] !== '\n'; j++) {
        if (s[j] === '\\') j++
        else if (s[j] === '[') inClass = true
        else if (s[j] === ']') inClass = false
        else if (s[j] === '/' && !inClass) break
      }
      i = j + 1
      while (i < s.length && WORD.test(s[i]!)) i++
    } else if (WORD.test(c)) {
      let j = i + 1
      while (j < s.length && WORD.test(s[j]!)) j++
      out.push({ kind: 'word', text: s.slice(i, j) })
      i = j
    } else if (/\s/.test(c)) i++
    else {
      out.push({ kind: 'punct', text: c })
      i++
    }
  }
  return out
}

/** Tokens that may stand between `import`/`export` and `from`. */
const CLAUSE = new Set(['{', '}', ',', '*', 'as', 'type', 'typeof'])
/** Tokens after which a clause may name a binding. */
const NAME_AFTER = new Set(['import', 'type', ',', '{', 'as'])

/** Every module specifier `source` imports or re-exports, in order of appearance. */
export function tsSpecifiers(source: string): string[] {
  const t = tsTokens(source)
  const out: string[] = []
  for (let i = 0; i < t.length; i++) {
    const tok = t[i]!
    if (tok.kind !== 'word' || (tok.text !== 'import' && tok.text !== 'export')) continue
    const prev = t[i - 1]
    if (prev !== undefined && prev.kind === 'punct' && prev.text === '.') continue
    const next = t[i + 1]
    if (tok.text === 'import' && next?.kind === 'punct' && next.text === '(') {
      const arg = t[i + 2]
      const close = t[i + 3]
      if (arg?.kind === 'string' && arg.literal && close?.text === ')') out.push(arg.text)
      continue
    }
    if (tok.text === 'import' && next?.kind === 'string') {
      out.push(next.text)
      continue
    }
    // import|export [type] clause from 'x'
    let j = i + 1
    let sawClause = false
    while (j < t.length) {
      const x = t[j]!
      if (x.kind === 'word' && x.text === 'from') break
      if (x.kind === 'string') break
      if (x.kind === 'punct' && !CLAUSE.has(x.text)) break
      // A name binds only where the clause expects one; anything else ends the statement.
      if (x.kind === 'word' && !CLAUSE.has(x.text) && !(NAME_AFTER.has(t[j - 1]!.text) && !(tok.text === 'export' && j === i + 1))) break
      sawClause = true
      j++
    }
    const from = t[j]
    const spec = t[j + 1]
    if (sawClause && from?.kind === 'word' && from.text === 'from' && spec?.kind === 'string' && spec.literal) out.push(spec.text)
  }
  return out
}

/**
 * The file of the graph a relative `specifier` written in `from` names, or undefined (a package,
 * a file outside the graph such as JSON or CSS). `has` says whether a repository path is a node.
 */
export function resolveTsSpecifier(from: string, specifier: string, has: (path: string) => boolean): string | undefined {
  if (!specifier.startsWith('./') && !specifier.startsWith('../') && specifier !== '.' && specifier !== '..') return undefined
  const base = posix.normalize(posix.join(posix.dirname(from), specifier))
  const stem = (ext: string) => base.slice(0, -ext.length)
  let candidates: string[]
  if (base.endsWith('.js')) candidates = [`${stem('.js')}.ts`, `${stem('.js')}.tsx`, base]
  else if (base.endsWith('.jsx')) candidates = [`${stem('.jsx')}.tsx`, base]
  else if (base.endsWith('.mjs')) candidates = [`${stem('.mjs')}.mts`, base]
  else if (base.endsWith('.ts') || base.endsWith('.tsx')) candidates = [base]
  else candidates = [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]
  return candidates.find(has)
}
