/**
 * chartjs-chart-matrix's UMD build, read once from node_modules, for inlining into
 * aggregate.html after Chart.js (it registers the `matrix` chart type on the global `Chart`).
 * Inlined, like Chart.js itself (chartjs.ts), so the page opens offline with nothing fetched.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

let cached: string | undefined

/**
 * The source of `chartjs-chart-matrix/dist/chartjs-chart-matrix.min.js` without its
 * source-map comment. The package's exports do not expose that file, so it is found next to
 * the package's CommonJS entry (the same dist/ directory). Throws if the source contains
 * `</script` or `<!--`, which would break out of the inline script element.
 */
export function chartJsMatrixSource(): string {
  if (cached !== undefined) return cached
  const main = createRequire(import.meta.url).resolve('chartjs-chart-matrix')
  const source = readFileSync(join(dirname(main), 'chartjs-chart-matrix.min.js'), 'utf8').replace(/\n?\/\/# sourceMappingURL=\S+\s*$/, '\n')
  if (/<\/script|<!--/i.test(source)) throw new Error('chartjs-chart-matrix.min.js contains "</script" or "<!--" and cannot be inlined as is')
  cached = source
  return source
}
