/**
 * Errors of the market models. A bad model parameter or a bad price file is a mistake in the
 * scenario, so every message says which value (and for a CSV file: which file, line and
 * column) is wrong and what was expected.
 */

/** A market model got a value it cannot use (a non-positive price, a negative step count...). */
export class MarketModelError extends Error {
  override name = 'MarketModelError'
}

/** A CSV price file that cannot be replayed: unreadable, a missing column, a bad cell, uneven rows. */
export class CsvPriceError extends MarketModelError {
  override name = 'CsvPriceError'
  constructor(
    /** The file as resolved (absolute path). */
    readonly file: string,
    /** 1-based line in the file (1 = the header); undefined when the file as a whole is wrong. */
    readonly line: number | undefined,
    /** The column concerned, when one is. */
    readonly column: string | undefined,
    problem: string,
  ) {
    const where = [line === undefined ? undefined : `line ${line}`, column === undefined ? undefined : `column "${column}"`]
      .filter((w) => w !== undefined)
      .join(', ')
    super(`${file}${where === '' ? '' : `: ${where}`}: ${problem}`)
  }
}
