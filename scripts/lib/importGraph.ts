/**
 * Import graphs and their circles: a graph maps each file to the files it imports; a circle is a
 * strongly connected component of more than one file (Tarjan's algorithm), reported with one
 * cycle through it, file -> file.
 */
import { resolveTsSpecifier, tsSpecifiers } from './tsImports.js'

export type Graph = Map<string, Set<string>>

/** The TypeScript graph of `files` (repository path → text): relative imports between them. */
export function tsGraph(files: ReadonlyMap<string, string>): Graph {
  const has = (p: string) => files.has(p)
  const graph: Graph = new Map()
  for (const [path, source] of files) {
    const to = new Set<string>()
    for (const spec of tsSpecifiers(source)) {
      const target = resolveTsSpecifier(path, spec, has)
      if (target !== undefined && target !== path) to.add(target)
    }
    graph.set(path, to)
  }
  return graph
}

export function edgeCount(graph: Graph): number {
  let n = 0
  for (const to of graph.values()) n += to.size
  return n
}

/** Strongly connected components with more than one node, each sorted, smallest first (Tarjan, iterative). */
export function circles(graph: Graph): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: string[] = []
  const found: string[][] = []
  let next = 0
  const successors = (v: string) => [...(graph.get(v) ?? [])]
  for (const root of [...graph.keys()].sort()) {
    if (index.has(root)) continue
    const work: { v: string; out: string[]; i: number }[] = []
    const visit = (v: string) => {
      index.set(v, next)
      low.set(v, next)
      next++
      stack.push(v)
      onStack.add(v)
      work.push({ v, out: successors(v), i: 0 })
    }
    visit(root)
    while (work.length > 0) {
      const frame = work[work.length - 1]!
      if (frame.i < frame.out.length) {
        const w = frame.out[frame.i++]!
        if (!index.has(w)) visit(w)
        else if (onStack.has(w)) low.set(frame.v, Math.min(low.get(frame.v)!, index.get(w)!))
        continue
      }
      work.pop()
      const parent = work[work.length - 1]
      if (parent) low.set(parent.v, Math.min(low.get(parent.v)!, low.get(frame.v)!))
      if (low.get(frame.v) === index.get(frame.v)) {
        const component: string[] = []
        let w: string
        do {
          w = stack.pop()!
          onStack.delete(w)
          component.push(w)
        } while (w !== frame.v)
        if (component.length > 1) found.push(component.sort())
      }
    }
  }
  return found.sort((a, b) => (a[0]! < b[0]! ? -1 : 1))
}

/** A shortest cycle through the component's first file, staying inside the component: [a, b, …, a]. */
export function cycleThrough(graph: Graph, component: readonly string[]): string[] {
  const inside = new Set(component)
  const start = component[0]!
  const from = new Map<string, string>()
  const queue = [start]
  for (let q = 0; q < queue.length; q++) {
    const v = queue[q]!
    for (const w of graph.get(v) ?? []) {
      if (!inside.has(w)) continue
      if (w === start) {
        const path = [v]
        while (path[0] !== start) path.unshift(from.get(path[0]!)!)
        return [...path, start]
      }
      if (!from.has(w)) {
        from.set(w, v)
        queue.push(w)
      }
    }
  }
  return [start]
}

/** Lines for a graph's circles: one cycle per component, and the component's other files if any. */
export function describeCircles(graph: Graph, found: readonly string[][]): string[] {
  return found.map((component) => {
    const cycle = cycleThrough(graph, component)
    const rest = component.filter((f) => !cycle.includes(f))
    return `${cycle.join(' -> ')}${rest.length > 0 ? `  (same circle: ${rest.join(', ')})` : ''}`
  })
}
