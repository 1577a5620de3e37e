/**
 * Strict flag parsing for the project's commands: `--name value` flags only (no positionals),
 * unknown flags refused. Every problem is thrown as the command's own usage error.
 */
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util'

/** The flags of `argv` as `options` declares them. @throws the error `usageError` makes of parseArgs's message */
export function parseFlags<O extends ParseArgsOptionsConfig>(argv: readonly string[], options: O, usageError: (message: string) => Error) {
  try {
    return parseArgs({ args: [...argv], strict: true, allowPositionals: false, options }).values
  } catch (err) {
    throw usageError((err as Error).message)
  }
}
