/**
 * The repository's import graphs: one over every TypeScript file of the project's folders, one
 * per Rust crate (sandbox/src and each contracts/<name>/src). node_modules, dist and target are
 * never entered.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, posix, relative, sep } from 'node:path'
import { circles, edgeCount, tsGraph, type Graph } from './importGraph.js'
import { rustCrateEdges } from './rustImports.js'

export const TS_ROOTS = ['src', 'sim', 'dashboard', 'benchmarks', 'scripts', 'packages', 'sandbox/ts', 'test']
const SKIP = new Set(['node_modules', 'dist', 'target', '.git'])

/** Files under `dir` whose name passes `keep`, as paths relative to `base` with `/`. */
function walk(base: string, dir: string, keep: (name: string) => boolean, out: string[] = []): string[] {
  if (!existsSync(join(base, dir))) return out
  for (const e of readdirSync(join(base, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`
    if (e.isDirectory()) {
      if (!SKIP.has(e.name)) walk(base, rel, keep, out)
    } else if (e.isFile() && keep(e.name)) out.push(rel)
  }
  return out
}

const read = (root: string, paths: string[]) => new Map(paths.sort().map((p) => [p, readFileSync(join(root, p), 'utf8')] as const))

export interface GraphCheck {
  name: string
  graph: Graph
  files: number
  edges: number
  circles: string[][]
}

function check(name: string, graph: Graph): GraphCheck {
  return { name, graph, files: graph.size, edges: edgeCount(graph), circles: circles(graph) }
}

/** The TypeScript graph of the repository at `root`. */
export function tsCheck(root: string): GraphCheck {
  const paths = TS_ROOTS.flatMap((d) => walk(root, d, (n) => /\.tsx?$/.test(n)))
  return check('TypeScript', tsGraph(read(root, paths)))
}

/** A Rust crate's graph: `srcDir` relative to `root` (e.g. sandbox/src); files named by repository path. */
export function crateCheck(root: string, srcDir: string): GraphCheck {
  const files = read(root, walk(root, srcDir, (n) => n.endsWith('.rs')))
  const underSrc = new Map([...files].map(([p, s]) => [p.slice(srcDir.length + 1), s] as const))
  const graph: Graph = new Map()
  const named = (p: string) => posix.normalize(`${srcDir}/${p}`)
  for (const [from, to] of rustCrateEdges(underSrc)) graph.set(named(from), new Set([...to].map(named)))
  return check(`Rust crate ${srcDir}`, graph)
}

/** The contracts' crates: contracts/<name>/src for each contract folder that has one. */
export function contractCrates(root: string): string[] {
  const dir = join(root, 'contracts')
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, 'src')))
    .map((e) => relative(root, join(dir, e.name, 'src')).split(sep).join('/'))
    .sort()
}

export const SANDBOX_CRATE = 'sandbox/src'
