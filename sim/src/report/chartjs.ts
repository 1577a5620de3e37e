/**
 * Chart.js's UMD build, read once from node_modules, for inlining into report.html: the report
 * must open offline, from a file, years later, so nothing is fetched from a CDN.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

let cached: string | undefined

/**
 * The source of `chart.js/dist/chart.umd.min.js` (it defines the global `Chart`), with its
 * source-map comment removed (the map is not shipped with the report). Chart.js's package
 * exports do not expose `dist/`, so the file is found next to the package's main entry.
 * Throws if the source contains `</script` or `<!--`, which would break out of (or confuse)
 * the inline script element.
 */
export function chartJsSource(): string {
  if (cached !== undefined) return cached
  const main = createRequire(import.meta.url).resolve('chart.js')
  const source = readFileSync(join(dirname(main), 'chart.umd.min.js'), 'utf8').replace(/\n?\/\/# sourceMappingURL=\S+\s*$/, '\n')
  if (/<\/script|<!--/i.test(source)) throw new Error('chart.umd.min.js contains "</script" or "<!--" and cannot be inlined as is')
  cached = source
  return source
}
