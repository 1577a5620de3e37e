/**
 * The UMD builds of Chart.js and its chartjs-chart-matrix plugin, read once from node_modules,
 * for inlining into report.html and aggregate.html: the pages must open offline, from a file,
 * years later, so nothing is fetched from a CDN.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const cached = new Map<string, string>()

/**
 * The source of `file` in the directory of package `pkg`'s main entry (the packages' exports do
 * not expose their dist/ builds), with its source-map comment removed (the map is not shipped).
 * Throws if the source contains `</script` or `<!--`, which would break out of (or confuse) the
 * inline script element.
 */
function umdSource(pkg: string, file: string): string {
  const hit = cached.get(file)
  if (hit !== undefined) return hit
  const main = createRequire(import.meta.url).resolve(pkg)
  const source = readFileSync(join(dirname(main), file), 'utf8').replace(/\n?\/\/# sourceMappingURL=\S+\s*$/, '\n')
  if (/<\/script|<!--/i.test(source)) throw new Error(`${file} contains "</script" or "<!--" and cannot be inlined as is`)
  cached.set(file, source)
  return source
}

/** `chart.js/dist/chart.umd.min.js`: defines the global `Chart`. */
export function chartJsSource(): string {
  return umdSource('chart.js', 'chart.umd.min.js')
}

/** `chartjs-chart-matrix/dist/chartjs-chart-matrix.min.js`: registers the `matrix` chart type on the global `Chart` (inline it after Chart.js). */
export function chartJsMatrixSource(): string {
  return umdSource('chartjs-chart-matrix', 'chartjs-chart-matrix.min.js')
}
