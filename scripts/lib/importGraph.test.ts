import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { circles, cycleThrough, describeCircles, tsGraph, type Graph } from './importGraph.js'
import { contractCrates, crateCheck, SANDBOX_CRATE, tsCheck, type GraphCheck } from './repoImports.js'
import { rustCrateEdges, rustModulePath, stripRust } from './rustImports.js'
import { resolveTsSpecifier, tsSpecifiers } from './tsImports.js'

const ROOT = join(import.meta.dirname, '..', '..')
const graphOf = (edges: Record<string, string[]>): Graph => new Map(Object.entries(edges).map(([k, v]) => [k, new Set(v)]))
const sorted = (g: Graph) => Object.fromEntries([...g].map(([k, v]) => [k, [...v].sort()]))
const report = (checks: GraphCheck[]) => checks.flatMap((c) => describeCircles(c.graph, c.circles).map((l) => `${c.name}: ${l}`)).join('\n')

describe('the repository', () => {
  it('has no import circle in its TypeScript files or the contracts', () => {
    const checks = [tsCheck(ROOT), ...contractCrates(ROOT).map((c) => crateCheck(ROOT, c))]
    expect(checks[0]!.files).toBeGreaterThan(100)
    expect(checks.length).toBeGreaterThan(1)
    expect(report(checks)).toBe('')
  })

  it('sandbox crate has no import circle', () => {
    const check = crateCheck(ROOT, SANDBOX_CRATE)
    expect(check.files).toBeGreaterThan(10)
    expect(report([check])).toBe('')
  })
})

describe('TypeScript imports', () => {
  it('reads static, type, side-effect, re-export and literal dynamic imports, not comments or strings', () => {
    const source = [
      "import a, { b as c, type D } from './one.js'",
      'import type { E } from "./two.js"',
      "import * as ns from './three.js'",
      "import './side.js'",
      "export * from './four.js'",
      "export * as five from './five.js'",
      "export { x, y as z } from './six.js'",
      "export type { T } from './seven.js'",
      'export { local }',
      'export const from = 1',
      `const q = 'import { no } from "./string.js"'`,
      "// import { no } from './comment.js'",
      "/* export * from './block.js' */",
      "const t = `import x from './template.js' ${'a'}`",
      "const r = /import x from '.\\/regex.js'/g",
      "const m = await import('./dynamic.js')",
      'const n = await import(`./computed-${x}.js`)',
      'const u = import.meta.url',
      "import { readFileSync } from 'node:fs'",
    ].join('\n')
    expect(tsSpecifiers(source)).toEqual(['./one.js', './two.js', './three.js', './side.js', './four.js', './five.js', './six.js', './seven.js', './dynamic.js', 'node:fs'])
  })

  it('resolves relative specifiers to files of the graph: .js to .ts or .tsx, folders to their index', () => {
    const files = new Set(['src/a.ts', 'src/view.tsx', 'src/lib/index.ts', 'src/data.json'])
    const has = (p: string) => files.has(p)
    expect(resolveTsSpecifier('src/b.ts', './a.js', has)).toBe('src/a.ts')
    expect(resolveTsSpecifier('src/b.ts', './view.js', has)).toBe('src/view.tsx')
    expect(resolveTsSpecifier('src/b.ts', './view', has)).toBe('src/view.tsx')
    expect(resolveTsSpecifier('src/x/b.ts', '../lib/index.js', has)).toBe('src/lib/index.ts')
    expect(resolveTsSpecifier('src/x/b.ts', '../lib', has)).toBe('src/lib/index.ts')
    expect(resolveTsSpecifier('src/b.ts', './data.json', has)).toBeUndefined()
    expect(resolveTsSpecifier('src/b.ts', 'vitest', has)).toBeUndefined()
  })

  it('finds a circle, test files included, and no edge for packages', () => {
    const files = new Map([
      ['src/a.ts', "import { b } from './b.js'\nimport 'vitest'"],
      ['src/b.ts', "export { c } from './lib/index.js'"],
      ['src/lib/index.ts', "export const c = () => import('../a.test.js')"],
      ['src/a.test.ts', "import type { A } from './a.js'"],
      ['src/leaf.ts', "import { a } from './a.js'"],
    ])
    const g = tsGraph(files)
    expect(sorted(g)).toEqual({
      'src/a.ts': ['src/b.ts'],
      'src/b.ts': ['src/lib/index.ts'],
      'src/lib/index.ts': ['src/a.test.ts'],
      'src/a.test.ts': ['src/a.ts'],
      'src/leaf.ts': ['src/a.ts'],
    })
    expect(circles(g)).toEqual([['src/a.test.ts', 'src/a.ts', 'src/b.ts', 'src/lib/index.ts']])
    expect(describeCircles(g, circles(g))).toEqual(['src/a.test.ts -> src/a.ts -> src/b.ts -> src/lib/index.ts -> src/a.test.ts'])
  })
})

describe('Rust module paths', () => {
  it('come from the file location', () => {
    expect(rustModulePath('main.rs')).toEqual([])
    expect(rustModulePath('lib.rs')).toEqual([])
    expect(rustModulePath('a.rs')).toEqual(['a'])
    expect(rustModulePath('a/mod.rs')).toEqual(['a'])
    expect(rustModulePath('a/b.rs')).toEqual(['a', 'b'])
    expect(rustModulePath('notes.txt')).toBeUndefined()
  })

  it('blank comments, strings and characters but keep lifetimes', () => {
    const out = stripRust(`let s = "crate::a::X"; // crate::b\n/* crate::c /* nested */ crate::d */ let c = '"'; fn f<'a>(x: &'a str) {} r#"crate::e"#`)
    expect(out).not.toMatch(/crate::/)
    expect(out).toContain("<'a>")
  })
})

describe('Rust crate edges', () => {
  const crate = new Map([
    [
      'main.rs',
      [
        'mod a;',
        'mod b;',
        'mod c;',
        'mod d;',
        'use a::Thing;', // a root `name::` path
        'fn main() { b::run(); }',
      ].join('\n'),
    ],
    [
      'a/mod.rs',
      [
        'pub mod inner;',
        'use crate::{b::{self, Y}, c::deep::Z};', // groups, self in a group
        '// use crate::d::Hidden;',
        'const S: &str = "crate::d::Hidden";',
        'pub(in crate::d) fn v() {}', // a visibility restriction is no edge
      ].join('\n'),
    ],
    ['a/inner.rs', 'use super::super::c::Q;\nfn f() { self::g(); }\nfn g() {}'],
    ['b.rs', 'pub fn run() { crate::a::inner::f(); }\n#[cfg(test)]\nmod tests {\n    use super::*;\n}'],
    ['c.rs', 'pub mod deep { pub struct Z; }\npub struct Q;'],
    ['d.rs', '#[path = "d_tests.rs"]\nmod tests;'],
    ['d_tests.rs', 'use super::*;\nuse crate::b::run;'],
  ])

  it('go to the longest prefix naming a module file; mod declarations, comments and strings are no edges', () => {
    expect(sorted(rustCrateEdges(crate))).toEqual({
      'main.rs': ['a/mod.rs', 'b.rs'],
      'a/mod.rs': ['b.rs', 'c.rs'],
      'a/inner.rs': ['c.rs'],
      'b.rs': ['a/inner.rs'],
      'c.rs': [],
      'd.rs': [],
      'd_tests.rs': ['b.rs', 'd.rs'],
    })
  })

  it('make a circle when a module uses one that uses it back', () => {
    expect(circles(rustCrateEdges(crate))).toEqual([])
    const withBack = rustCrateEdges(new Map(crate).set('c.rs', 'use crate::a::X;\npub struct Q;'))
    const found = circles(withBack)
    expect(found).toEqual([['a/inner.rs', 'a/mod.rs', 'b.rs', 'c.rs']])
    expect(describeCircles(withBack, found)).toEqual(['a/inner.rs -> c.rs -> a/mod.rs -> b.rs -> a/inner.rs'])
  })
})

describe('circles', () => {
  it('reports each strongly connected component of more than one node, ignoring acyclic parts', () => {
    const g = graphOf({ a: ['b'], b: ['c'], c: ['a', 'd'], d: [], e: ['f'], f: ['e'], g: ['a'] })
    expect(circles(g)).toEqual([
      ['a', 'b', 'c'],
      ['e', 'f'],
    ])
    expect(cycleThrough(g, ['a', 'b', 'c'])).toEqual(['a', 'b', 'c', 'a'])
    expect(circles(graphOf({ a: ['b'], b: [] }))).toEqual([])
  })
})
