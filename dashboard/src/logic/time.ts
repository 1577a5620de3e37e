/** Ledger-clock durations for people: cooldowns and draw ages, in seconds of ledger close time. */

/**
 * Whole seconds as "45 s", "2 min 5 s", "3 h 0 min", "2 d 4 h" (two units at most).
 *
 * @example
 * formatDuration(125) // '2 min 5 s'
 */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds))
  if (s < 60) return `${s} s`
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`
  if (s < 86_400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`
  return `${Math.floor(s / 86_400)} d ${Math.floor((s % 86_400) / 3600)} h`
}
