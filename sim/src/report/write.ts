/**
 * The run directory's files: report.json (the data), timeseries.csv and report.html (both drawn
 * from it). Each is rendered from the report alone, so rewriting them from a saved report.json
 * gives the same bytes.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { timeseriesCsv } from './csv.js'
import { reportHtml } from './html.js'
import type { Report } from './types.js'

/** Paths of the files `writeRunOutputs` wrote. */
export interface RunOutputPaths {
  json: string
  csv: string
  html: string
}

/** report.json exactly as written: two-space indented, keys in the report's order, a final newline. */
export function reportJson(report: Report): string {
  return JSON.stringify(report, null, 2) + '\n'
}

/**
 * Writes `report.json`, `timeseries.csv` and `report.html` into `outDir` (created with its
 * parents when missing; existing files are replaced) and returns their paths.
 */
export async function writeRunOutputs(report: Report, outDir: string): Promise<RunOutputPaths> {
  await mkdir(outDir, { recursive: true })
  const paths: RunOutputPaths = {
    json: join(outDir, 'report.json'),
    csv: join(outDir, 'timeseries.csv'),
    html: join(outDir, 'report.html'),
  }
  await writeFile(paths.json, reportJson(report))
  await writeFile(paths.csv, timeseriesCsv(report))
  await writeFile(paths.html, reportHtml(report))
  return paths
}
