/** How a swept parameter's value is written (no Node imports: the dashboard and the page script use it too). */

/** A value as it appears in point ids and tables: strings bare, everything else as JSON. */
export function formatValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value)
}
