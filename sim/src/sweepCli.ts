/** `sweep` and `merge` on the command line (sim/src/sweep). */
export async function sweepCommand(_argv: string[], _scenarioPath: (arg: string | undefined) => string): Promise<number> {
  process.stderr.write('sweep: not available in this version yet (sim/src/sweep is being added)\n')
  return 2
}

export async function mergeCommand(_argv: string[]): Promise<number> {
  process.stderr.write('merge: not available in this version yet (sim/src/sweep is being added)\n')
  return 2
}
