/**
 * What Research opens: a run's report.json (checked, with its headline figures and charts) or a
 * sweep's aggregate.json (checked), from text read from a file or fetched. The schema, chart
 * builders and headline figures are imported on first use (a separate chunk).
 */
import type { HeadlineFigure } from '../../../sim/src/report/headline.js'
import type { Report } from '../../../sim/src/report/types.js'
import type { SweepAggregate } from '../../../sim/src/sweep/aggregate.js'
import type { ReportChart } from './reportCharts.js'

export interface OpenedReport {
  kind: 'run'
  source: string
  report: Report
  figures: HeadlineFigure[]
  charts: ReportChart[]
}

export interface OpenedSweep {
  kind: 'sweep'
  source: string
  aggregate: SweepAggregate
}

export type Opened = OpenedReport | OpenedSweep

/** A report from text: parsed, checked, its headline figures and charts derived. */
export async function openReport(text: string, source: string): Promise<OpenedReport | { problems: string[] }> {
  const [{ parseReportText }, { reportCharts }, { headlineFigures }] = await Promise.all([
    import('./reportSchema.js'),
    import('./reportCharts.js'),
    import('../../../sim/src/report/headline.js'),
  ])
  const parsed = parseReportText(text)
  if (!parsed.ok) return { problems: parsed.problems }
  return { kind: 'run', source, report: parsed.report, figures: headlineFigures(parsed.report), charts: reportCharts(parsed.report) }
}

/** A sweep's aggregate from text, checked. */
export async function openAggregate(text: string, source: string): Promise<OpenedSweep | { problems: string[] }> {
  const { parseAggregateText } = await import('./aggregateCheck.js')
  const parsed = parseAggregateText(text)
  if (!parsed.ok) return { problems: parsed.problems }
  return { kind: 'sweep', source, aggregate: parsed.aggregate }
}

/** The text at `url`, or an error saying in words why not. */
export async function fetchText(url: string): Promise<string> {
  let res: Response
  try {
    res = await fetch(url)
  } catch (err) {
    throw new Error(`Could not fetch ${url}: ${err instanceof Error ? err.message : String(err)}.`)
  }
  if (!res.ok) {
    const body = await res.json().catch(() => undefined) as { message?: unknown } | undefined
    const why = typeof body?.message === 'string' ? ` (${body.message})` : ''
    throw new Error(`Could not fetch ${url}: the server answered HTTP ${res.status}${why}.`)
  }
  return res.text()
}
