/**
 * A run's report: the data type (report.json) and what is rendered from it — the terminal
 * summary, timeseries.csv, the self-contained report.html — and the writer of the run directory.
 */
export * from './types.js'
export { timeseriesCsv, csvNumber, plainDecimal } from './csv.js'
export { reportHtml } from './html.js'
export { headlineFigures, type HeadlineFigure } from './headline.js'
export { summaryTable, textTable } from './summary.js'
export { reportJson, writeRunOutputs, type RunOutputPaths } from './write.js'
