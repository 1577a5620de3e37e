/**
 * The simulated market: seeded random streams, per-asset price paths on the ledger grid, and
 * the oracle feed that turns a market path into on-chain price posts. Pure and deterministic:
 * the same scenario and seed give the same numbers, bit for bit, on every machine.
 */
export { derive, Rng, type StreamLabel } from './rng.js'
export { MarketModelError, CsvPriceError } from './errors.js'
export {
  DAY_SECONDS,
  YEAR_SECONDS,
  type ConstantModel,
  type BootstrapModel,
  type CsvModel,
  type GbmModel,
  type JumpsModel,
  type PathGrid,
  type ScriptedModel,
} from './grid.js'
export { gbmPath, jumpsPath, diffusionIncrements, diffusionShocks, jumpIncrements } from './gbm.js'
export { bootstrapPath, blockBootstrap, logReturns, type BlockBootstrap } from './bootstrap.js'
export { cholesky, correlateShocks, correlationMatrix, correlationProblems, type CholeskyResult, type CorrelationProblem, type CorrelationSpec } from './correlation.js'
export { scriptedPath, scriptFactor } from './scripted.js'
export { csvPath, loadCsvSeries, resolvePriceFile, parseTimestamp, resampleSeries, type CsvSeries, type LoadCsvSeriesParameters } from './csv.js'
export { marketTimeline, pricePath, type MarketAsset, type MarketTimelineParameters, type PricePathParameters } from './paths.js'
export { oracleFeed, oracleTimeline, toPrice7, type OracleFeed, type OraclePost, type OracleSettings, type OracleTimeline } from './oracle.js'
