/**
 * aggregate.html in the tests: a small sweep's aggregate built from hand-made summaries, and
 * the page's scripts (inlined Chart.js, chartjs-chart-matrix, the page scripts) run in a VM
 * against a stand-in document whose canvases accept any 2D-context call.
 */
import vm from 'node:vm'
import { reportFixture } from './reportFixture.js'
import { computeAggregate, type SweepAggregate } from '../../sim/src/sweep/aggregate.js'
import { aggregateHtml } from '../../sim/src/sweep/aggregateHtml.js'
import { figureChartId } from '../../sim/src/sweep/aggregateScript.js'
import { expandGrid, expandJobs, parseSets, seedList, type SweepParam } from '../../sim/src/sweep/grid.js'
import type { RunRecord } from '../../sim/src/sweep/runFiles.js'

/**
 * The aggregate of a sweep over `sets` with seeds 1 and 2: lpReturn = point index + seed / 10
 * (each point's mean is index + 0.15) and insolventDebt = 100 × point index + seed.
 */
export function aggregateOf(sets: string[]): SweepAggregate {
  const grid: SweepParam[] = parseSets(sets)
  const points = expandGrid(grid)
  const jobs = expandJobs(points, seedList(1, 2))
  const records = new Map<number, RunRecord>()
  for (const job of jobs) {
    const summary = { ...reportFixture().summary, lpReturn: job.point.index + job.seed / 10, insolventDebt: 100 * job.point.index + job.seed }
    records.set(job.index, { ok: true, file: { key: job.key, point: job.point.id, overrides: job.point.overrides, seed: job.seed, scenarioHash: '', summary, keepers: [] } })
  }
  const manifest = {
    schemaVersion: 1 as const,
    scenario: { file: 'x.yaml', name: 'sweep </script> <b>', hash: 'a'.repeat(64) },
    grid,
    points: points.map((p) => ({ id: p.id, hash: '' })),
    seeds: { base: 1, count: 2 },
    shard: null,
    jobs: jobs.length,
  }
  return computeAggregate(manifest, jobs, records)
}

export interface ChartInstance {
  canvas: { id: string }
  config: { type: string }
  data: { labels: string[]; datasets: { label: string; data: unknown[]; band?: boolean; fill: unknown }[] }
}

/** Runs the page's scripts; `slice` gives select values by id (others read as empty: their defaults). */
export function runPage(a: SweepAggregate, slice?: Record<string, string>) {
  const page = aggregateHtml(a)
  const bodies = [...page.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!)
  const elements = new Map<string, unknown>()
  for (const [, id] of page.matchAll(/<canvas id="([^"]+)"/g)) {
    const canvas: Record<string, unknown> = { id, width: 600, height: 300, style: {}, getAttribute: () => null, setAttribute: () => {}, removeAttribute: () => {} }
    canvas['getContext'] = () => new Proxy({ canvas }, { get: (t, k) => (k in t ? t[k as 'canvas'] : k === 'measureText' ? () => ({ width: 10 }) : k === 'getLineDash' ? () => [] : () => {}) })
    elements.set(id!, canvas)
  }
  elements.set('aggregate-data', { textContent: bodies[0] })
  for (const [, id] of page.matchAll(/<select id="([^"]+)"/g)) elements.set(id!, { value: slice?.[id!] ?? '', addEventListener: () => {} })
  for (const [, id] of page.matchAll(/<p class="note" id="([^"]+)"/g)) elements.set(id!, { textContent: '' })
  const context = vm.createContext({ document: { getElementById: (id: string) => elements.get(id) ?? null, createElement: () => ({}) } })
  for (const body of bodies.slice(1)) vm.runInContext(body, context)
  const charts = Object.values((context as { Chart: { instances: Record<string, ChartInstance> } }).Chart.instances)
  const byId = (id: string) => charts.find((c) => c.canvas.id === id)
  return { page, charts, elements, byId, chart: (i: number) => byId(figureChartId(i))! }
}

