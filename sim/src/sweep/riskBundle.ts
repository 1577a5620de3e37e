/**
 * riskCharts.ts as a plain ES2017 script for aggregate.html: bundled once per process by
 * esbuild into an IIFE that defines the global `AggregateRisk` (its exports), so the page's
 * script draws the charts with the very functions the dashboard imports. The output depends
 * only on the sources and the esbuild version: the same aggregate still gives the same page.
 */
import { buildSync } from 'esbuild'
import { fileURLToPath } from 'node:url'

/** The global the bundle defines. */
export const RISK_GLOBAL = 'AggregateRisk'

let cached: string | undefined

/** The bundled source (no source map, no comments that could close the script element). */
export function riskChartsSource(): string {
  if (cached !== undefined) return cached
  const out = buildSync({
    entryPoints: [fileURLToPath(new URL('./riskCharts.ts', import.meta.url))],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: RISK_GLOBAL,
    target: 'es2017',
    platform: 'browser',
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'silent',
  })
  const source = out.outputFiles[0]!.text
  if (/<\/script|<!--/i.test(source)) throw new Error('the risk charts bundle contains "</script" or "<!--" and cannot be inlined as is')
  cached = source
  return source
}
