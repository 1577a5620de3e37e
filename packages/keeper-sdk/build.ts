/**
 * Builds @pooled-liquidations/keeper-sdk into dist/ (run from anywhere: `npm run build` in this
 * folder, or `npx tsx packages/keeper-sdk/build.ts`):
 *
 * 1. esbuild bundles src/index.ts and src/example.ts (which re-export the repository's src/) into
 *    ESM: dist/index.js, dist/example.js and their shared chunk. The peer dependencies stay
 *    imports; everything else the entries reach is the project's own code, bundled. The
 *    project's modules have no import-time side effects, so whatever an entry does not use is
 *    dropped, whole modules included.
 * 2. The root's TypeScript emits declarations (`tsc -p tsconfig.json`, declaration +
 *    emitDeclarationOnly) into dist/types, a tree mirroring the repository;
 *    dist/index.d.ts and dist/example.d.ts re-export the entries from it.
 * 3. Checks: the bundle holds no third-party code and imports nothing but the peers and node:
 *    built-ins; every declaration imports only files inside dist/ or a peer.
 *
 * Exit 0 with a summary, 1 with one line per problem.
 */
import { build as esbuild, type Metafile, type Plugin } from 'esbuild'
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative, resolve, sep } from 'node:path'

export const PACKAGE_DIR = import.meta.dirname
const REPO_ROOT = resolve(PACKAGE_DIR, '..', '..')
const DIST = join(PACKAGE_DIR, 'dist')
const TYPES = join(DIST, 'types')
const ENTRIES = { index: 'src/index.ts', example: 'src/example.ts' } as const

/**
 * Modules of src/ the package does not ship although an index it re-exports from names them
 * (e.g. a module built on zod that an index re-exports): their code is dropped from the bundle as
 * unused, and their declarations and the re-export lines naming them are removed from dist/types.
 * None today.
 */
const NOT_SHIPPED: string[] = []

interface PackageJson {
  peerDependencies?: Record<string, string>
}

const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as PackageJson
/** The peer dependencies (package.json is the one place their ranges are written). */
export const PEERS = Object.keys(manifest.peerDependencies ?? {})

const isPeer = (spec: string) => PEERS.some((p) => spec === p || spec.startsWith(`${p}/`))
const toPosix = (p: string) => p.split(sep).join('/')

/** Marks the project's own modules side-effect free, so unused ones leave the bundle whole. */
const projectSourcesArePure: Plugin = {
  name: 'project-sources-are-pure',
  setup(b) {
    const srcDir = join(REPO_ROOT, 'src') + sep
    b.onResolve({ filter: /^\./ }, async (args) => {
      if (args.pluginData === 'inner' || args.kind === 'entry-point') return undefined
      const r = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'inner' })
      if (r.errors.length > 0 || !r.path.startsWith(srcDir)) return undefined
      return { path: r.path, sideEffects: false }
    })
  },
}

function bundleProblems(meta: Metafile): string[] {
  const problems: string[] = []
  // What the outputs hold (meta.inputs also lists modules parsed and then dropped).
  const bundled = new Set(Object.values(meta.outputs).flatMap((o) => Object.keys(o.inputs)))
  for (const input of bundled) {
    const path = toPosix(relative(REPO_ROOT, resolve(PACKAGE_DIR, input)))
    if (path.includes('node_modules/')) problems.push(`bundle: ${path} is third-party code; make its package a peer dependency (external) or a dependency`)
    if (NOT_SHIPPED.some((m) => path === `${m}.ts`)) problems.push(`bundle: ${path} is listed as not shipped but the entries use it`)
  }
  for (const [file, out] of Object.entries(meta.outputs)) {
    for (const imp of out.imports) {
      if (!imp.external) continue
      if (!isPeer(imp.path) && !imp.path.startsWith('node:')) problems.push(`bundle: ${file} imports ${imp.path}, which is neither a peer dependency nor a node: built-in`)
    }
  }
  return problems
}

function runTsc(): void {
  const require = createRequire(join(REPO_ROOT, 'package.json'))
  const tsc = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc')
  const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: PACKAGE_DIR, encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`tsc failed (exit ${r.status}):\n${r.stdout}${r.stderr}`)
}

function declarationFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) return declarationFiles(p)
    return p.endsWith('.d.ts') ? [p] : []
  })
}

/** Module specifiers a declaration file refers to: from '…', import('…'), import '…', /// <reference …>. */
export function specifiersOf(text: string): Array<{ spec: string; kind: 'module' | 'types' | 'path' }> {
  const out: Array<{ spec: string; kind: 'module' | 'types' | 'path' }> = []
  for (const m of text.matchAll(/^\/\/\/\s*<reference\s+(types|path)="([^"]+)"/gm)) out.push({ spec: m[2]!, kind: m[1] as 'types' | 'path' })
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '')
  for (const m of code.matchAll(/\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm)) {
    out.push({ spec: (m[1] ?? m[2] ?? m[3])!, kind: 'module' })
  }
  return out
}

/** The declaration file a relative specifier of `from` points at. */
const declarationOf = (from: string, spec: string) => resolve(dirname(from), spec.replace(/\.js$/, '.d.ts'))

/** Removes the NOT_SHIPPED declarations and the re-exports naming them. */
function shapeDeclarations(): string[] {
  const problems: string[] = []
  const dropped = new Set(NOT_SHIPPED.map((m) => join(TYPES, `${m}.d.ts`)))
  for (const file of dropped) rmSync(file, { force: true })
  for (const file of declarationFiles(TYPES)) {
    const text = readFileSync(file, 'utf8')
    const shaped = text.replace(/^(export|import)\b[^;]*?\bfrom\s*'(\.[^']+)';\n?/gms, (stmt, kind: string, spec: string) => {
      if (!dropped.has(declarationOf(file, spec))) return stmt
      if (kind === 'export') return ''
      problems.push(`types: ${toPosix(relative(DIST, file))} imports ${spec}, a module the package does not ship`)
      return stmt
    })
    if (shaped !== text) writeFileSync(file, shaped)
  }
  return problems
}

function declarationProblems(): string[] {
  const problems: string[] = []
  for (const file of declarationFiles(DIST)) {
    const name = toPosix(relative(DIST, file))
    for (const { spec, kind } of specifiersOf(readFileSync(file, 'utf8'))) {
      if (kind === 'path' || spec.startsWith('.')) {
        const target = kind === 'path' ? resolve(dirname(file), spec) : declarationOf(file, spec)
        if (!target.startsWith(DIST + sep)) problems.push(`types: ${name} refers to ${spec}, outside the package`)
        else if (!existsSync(target)) problems.push(`types: ${name} refers to ${spec}, which the build did not emit`)
      } else if (!isPeer(spec)) {
        problems.push(`types: ${name} needs ${kind === 'types' ? `the types of ${spec}` : spec}, which is not a peer dependency`)
      }
    }
  }
  return problems
}

function sizeOf(dir: string): number {
  return readdirSync(dir).reduce((sum, name) => {
    const p = join(dir, name)
    return sum + (statSync(p).isDirectory() ? sizeOf(p) : statSync(p).size)
  }, 0)
}

export interface BuildSummary {
  bundleMs: number
  declarationsMs: number
  totalMs: number
  /** Bytes of dist/*.js and dist/chunks (the code). */
  jsBytes: number
  /** Bytes of every .d.ts. */
  typesBytes: number
  declarationFiles: number
}

export async function buildKeeperSdk(): Promise<BuildSummary> {
  const started = performance.now()
  rmSync(DIST, { recursive: true, force: true })
  const result = await esbuild({
    absWorkingDir: PACKAGE_DIR,
    entryPoints: ENTRIES,
    outdir: 'dist',
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    external: PEERS.flatMap((p) => [p, `${p}/*`]),
    metafile: true,
    plugins: [projectSourcesArePure],
    logLevel: 'warning',
  })
  const bundled = performance.now()
  const problems = bundleProblems(result.metafile)

  runTsc()
  problems.push(...shapeDeclarations())
  for (const entry of Object.keys(ENTRIES)) {
    const target = toPosix(relative(DIST, join(TYPES, toPosix(relative(REPO_ROOT, PACKAGE_DIR)), 'src', `${entry}.js`)))
    writeFileSync(join(DIST, `${entry}.d.ts`), `export * from './${target}'\n`)
  }
  problems.push(...declarationProblems())
  if (problems.length > 0) throw new Error(`keeper-sdk build: ${problems.length} problem(s)\n${problems.join('\n')}`)

  const finished = performance.now()
  const types = declarationFiles(DIST)
  return {
    bundleMs: Math.round(bundled - started),
    declarationsMs: Math.round(finished - bundled),
    totalMs: Math.round(finished - started),
    jsBytes: sizeOf(DIST) - types.reduce((s, f) => s + statSync(f).size, 0),
    typesBytes: types.reduce((s, f) => s + statSync(f).size, 0),
    declarationFiles: types.length,
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === join(PACKAGE_DIR, 'build.ts')) {
  buildKeeperSdk().then(
    (s) => {
      console.log(
        `keeper-sdk built in ${s.totalMs} ms (bundle ${s.bundleMs} ms, declarations ${s.declarationsMs} ms): ` +
          `${(s.jsBytes / 1024).toFixed(1)} KB of JavaScript, ${s.declarationFiles} declaration files (${(s.typesBytes / 1024).toFixed(1)} KB)`,
      )
    },
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : String(err))
      process.exit(1)
    },
  )
}
