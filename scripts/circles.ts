/**
 * Import circles in the repository: `npm run -s circles`.
 * Checks the TypeScript files and the Rust crates (sandbox, each contract); prints each circle
 * file -> file and exits 1, or prints what it checked and exits 0.
 */
import { join } from 'node:path'
import { describeCircles } from './lib/importGraph.js'
import { contractCrates, crateCheck, SANDBOX_CRATE, tsCheck, type GraphCheck } from './lib/repoImports.js'

const root = join(import.meta.dirname, '..')
const checks: GraphCheck[] = [tsCheck(root), crateCheck(root, SANDBOX_CRATE), ...contractCrates(root).map((c) => crateCheck(root, c))]
const bad = checks.filter((c) => c.circles.length > 0)
for (const c of bad) {
  console.log(`${c.name}: ${c.circles.length} import circle(s)`)
  for (const line of describeCircles(c.graph, c.circles)) console.log(`  ${line}`)
}
const files = checks.reduce((n, c) => n + c.files, 0)
const edges = checks.reduce((n, c) => n + c.edges, 0)
if (bad.length > 0) process.exit(1)
console.log(`no import circles: ${files} files, ${edges} edges (${checks[0]!.files} TypeScript files, ${checks.length - 1} Rust crates)`)
