/**
 * A Vite plugin that writes a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside
 * every built text file worth compressing, so the dashboard server sends them as they are
 * (@fastify/static `preCompressed`) instead of compressing on every request.
 */
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { extname, join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { Plugin } from 'vite'

const COMPRESSIBLE = new Set(['.js', '.css', '.html', '.svg', '.json', '.map', '.txt'])
/** Below this a compressed copy saves less than a network packet. */
export const MIN_BYTES = 1024

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

/** Writes the `.br` and `.gz` copies under `dir`; returns how many files it compressed. */
export function precompressDir(dir: string): number {
  let count = 0
  for (const path of filesUnder(dir)) {
    if (!COMPRESSIBLE.has(extname(path))) continue
    const raw = readFileSync(path)
    if (raw.length < MIN_BYTES) continue
    writeFileSync(`${path}.br`, brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }))
    writeFileSync(`${path}.gz`, gzipSync(raw, { level: 9 }))
    count++
  }
  return count
}

export function precompress(): Plugin {
  let outDir = ''
  return {
    name: 'dashboard-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir
    },
    closeBundle() {
      precompressDir(outDir)
    },
  }
}
