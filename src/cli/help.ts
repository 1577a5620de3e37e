/**
 * `-h` / `--help` on the project's commands: each command keeps its usage text (every option with
 * its default, and an example) next to its argument parsing and prints it on stdout, exit 0.
 */
import type { ParseArgsOptionsConfig } from 'node:util'

/** Whether `argv` asks for help: `-h` or `--help` before any `--` that ends the options. */
export function wantsHelp(argv: readonly string[]): boolean {
  for (const a of argv) {
    if (a === '--') return false
    if (a === '-h' || a === '--help') return true
  }
  return false
}

/** The flags a parseArgs configuration accepts, as written on a command line (`--name`). */
export function flagsOf(options: ParseArgsOptionsConfig): string[] {
  return Object.keys(options).map((name) => `--${name}`)
}
