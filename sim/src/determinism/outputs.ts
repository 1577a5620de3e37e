/**
 * Comparing the files two runs of the same seed wrote: report.json (naming the first JSON path
 * whose value differs), timeseries.csv (the first differing line and column) and report.html
 * (byte for byte; it is drawn from report.json alone). keepers.log is left out: its lines carry
 * wall-clock times.
 */
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'

export const RUN_OUTPUTS = ['report.json', 'timeseries.csv', 'report.html'] as const

export interface FileDifference {
  file: string
  detail: string
}

const show = (v: unknown) => {
  const s = JSON.stringify(v) ?? 'undefined'
  return s.length > 60 ? `${s.slice(0, 60)}…` : s
}

const key = (path: string, k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`)

/** The first path (`$.keepers[1].feesPaid`) where two JSON values differ, with both values; null when equal. */
export function jsonDifference(a: unknown, b: unknown, path = '$'): string | null {
  if (a === b) return null
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const d = jsonDifference(a[i], b[i], `${path}[${i}]`)
      if (d !== null) return d
    }
    return a.length === b.length ? null : `${path}: ${a.length} vs ${b.length} items`
  }
  const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x)
  if (isObject(a) && isObject(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (!(k in a) || !(k in b)) return `${key(path, k)}: ${k in a ? show(a[k]) : 'absent'} vs ${k in b ? show(b[k]) : 'absent'}`
      const d = jsonDifference(a[k], b[k], key(path, k))
      if (d !== null) return d
    }
    return null
  }
  return `${path}: ${show(a)} vs ${show(b)}`
}

/** The cells of one CSV line (quoted cells may hold commas; quotes are kept). */
function cells(line: string): string[] {
  const out: string[] = []
  let start = 0
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '"') quoted = !quoted
    else if (line[i] === ',' && !quoted) {
      out.push(line.slice(start, i))
      start = i + 1
    }
  }
  out.push(line.slice(start))
  return out
}

/** The first differing line of two CSV texts, with the column it differs in (by the header). */
export function csvDifference(a: string, b: string): string | null {
  if (a === b) return null
  const lines = (t: string) => (t.endsWith('\n') ? t.slice(0, -1) : t).split('\n')
  const [la, lb] = [lines(a), lines(b)]
  const header = cells(la[0] ?? '')
  for (let i = 0; i < Math.max(la.length, lb.length); i++) {
    if (la[i] === lb[i]) continue
    if (la[i] === undefined || lb[i] === undefined) return `${la.length} vs ${lb.length} lines`
    const ca = cells(la[i]!)
    const cb = cells(lb[i]!)
    const c = ca.findIndex((x, j) => x !== cb[j])
    const col = c < 0 ? ca.length : c
    return `line ${i + 1}, column ${header[col] ?? col + 1}: ${show(ca[col])} vs ${show(cb[col])}`
  }
  return null
}

/** Compares the named files of two run directories; a file missing on one side is a difference. */
export async function compareRunFiles(dirA: string, dirB: string, files: readonly string[] = RUN_OUTPUTS): Promise<FileDifference[]> {
  const out: FileDifference[] = []
  for (const file of files) {
    const [pa, pb] = [join(dirA, file), join(dirB, file)]
    const [ea, eb] = [existsSync(pa), existsSync(pb)]
    if (!ea || !eb) {
      if (ea !== eb) out.push({ file, detail: `only in ${ea ? dirA : dirB}` })
      continue
    }
    const [a, b] = await Promise.all([readFile(pa), readFile(pb)])
    if (a.equals(b)) continue
    let detail = 'the bytes differ'
    if (file.endsWith('.json')) detail = jsonDifference(JSON.parse(a.toString('utf8')), JSON.parse(b.toString('utf8'))) ?? 'same JSON, different bytes'
    else if (file.endsWith('.csv')) detail = csvDifference(a.toString('utf8'), b.toString('utf8')) ?? detail
    out.push({ file, detail })
  }
  return out
}
