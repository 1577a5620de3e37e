/**
 * Display formats of the competition figures (terminal summary and report.html): XLM fees keep
 * the chain's 7 decimals without trailing zeros (a fill costs hundredths of an XLM, which two
 * decimals would flatten), latencies are whole milliseconds.
 */
import { MISSING } from './format.js'

/** XLM: up to 7 decimals, trailing zeros dropped (`0.0349875`, `0`). */
export function formatXlm(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return MISSING
  const text = value.toFixed(7).replace(/\.?0+$/, '')
  return text === '-0' ? '0' : text
}

/** Milliseconds, rounded to whole ones (`612 ms`). */
export function formatMs(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return MISSING
  return `${Math.round(value)} ms`
}
