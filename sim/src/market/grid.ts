/**
 * The ledger grid every price path is sampled on, and the per-model parameter types (the
 * scenario schema's `priceModel` variants, defaults applied).
 */
import type { PriceModel } from '../scenario/schema.js'
import { MarketModelError } from './errors.js'

/** Seconds in the year that annualised drift and volatility refer to (365 days). */
export const YEAR_SECONDS = 31_536_000
/** Seconds in the day that `jumpsPerDay` refers to. */
export const DAY_SECONDS = 86_400

export type ConstantModel = Extract<PriceModel, { model: 'constant' }>
export type GbmModel = Extract<PriceModel, { model: 'gbm' }>
export type JumpsModel = Extract<PriceModel, { model: 'jumps' }>
export type ScriptedModel = Extract<PriceModel, { model: 'scripted' }>
export type CsvModel = Extract<PriceModel, { model: 'csv' }>
export type BootstrapModel = Extract<PriceModel, { model: 'bootstrap' }>

/** Where a path is sampled: ledgers 0..steps, `dtSeconds` apart, starting at `startPrice`. */
export interface PathGrid {
  /** Ledger steps after the start; a path has steps + 1 values. */
  steps: number
  /** Seconds between ledgers. */
  dtSeconds: number
  /** The price at ledger 0 (USD). */
  startPrice: number
}

/** Throws unless the grid can carry a path (whole steps, positive finite spacing and price). */
export function checkGrid(grid: PathGrid): void {
  if (!Number.isSafeInteger(grid.steps) || grid.steps < 0) {
    throw new MarketModelError(`steps must be a whole number >= 0, got ${grid.steps}`)
  }
  if (!Number.isFinite(grid.dtSeconds) || grid.dtSeconds <= 0) {
    throw new MarketModelError(`dtSeconds must be finite and > 0, got ${grid.dtSeconds}`)
  }
  if (!Number.isFinite(grid.startPrice) || grid.startPrice <= 0) {
    throw new MarketModelError(`startPrice must be finite and > 0, got ${grid.startPrice}`)
  }
}
