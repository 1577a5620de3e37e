/** Writes a sweep's aggregate files: aggregate.json, aggregate.csv and aggregate.html. */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { aggregateCsv, aggregateJson, type SweepAggregate } from './aggregate.js'
import { aggregateHtml } from './aggregateHtml.js'

export interface AggregatePaths {
  json: string
  csv: string
  html: string
}

/** Writes the three files into `outDir` (which must exist). */
export async function writeAggregate(a: SweepAggregate, outDir: string): Promise<AggregatePaths> {
  const paths = { json: join(outDir, 'aggregate.json'), csv: join(outDir, 'aggregate.csv'), html: join(outDir, 'aggregate.html') }
  await writeFile(paths.json, aggregateJson(a))
  await writeFile(paths.csv, aggregateCsv(a))
  await writeFile(paths.html, aggregateHtml(a))
  return paths
}
