/**
 * `npm run deploy` as a function of its arguments, environment and output streams: parses,
 * deploys, prints the progress and the addresses, and returns the exit status (0 done, 1 a step
 * failed on the chain, 2 bad command line or a refused file or network).
 */
import { relative } from 'node:path'
import { formatXlm } from './context.js'
import { deploy, type DeployIo } from './deploy.js'
import { StepFailedError, UsageError } from './errors.js'
import { USAGE, parseOptions, type CrashPoint } from './options.js'
import { describeParameters, parametersFromJson } from './preset.js'

export interface CliIo {
  out(text: string): void
  err(text: string): void
  env: Record<string, string | undefined>
  cwd?: string
  /** How an injected crash ends the run (the command: SIGKILL to itself). */
  crash?: (point: CrashPoint) => void
}

export async function runDeployCli(argv: readonly string[], io: CliIo): Promise<number> {
  const cwd = io.cwd ?? process.cwd()
  let opts
  try {
    opts = parseOptions(argv, io.env, cwd)
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`deploy: ${err.message}\n(npm run deploy -- --help for the flags)\n`)
      return 2
    }
    throw err
  }
  if (opts === 'help') {
    io.out(`${USAGE}\n`)
    return 0
  }
  const shown = (p: string) => (relative(cwd, p).startsWith('..') ? p : relative(cwd, p))
  const dio: DeployIo = { log: (line) => io.out(`deploy: ${line}\n`), ...(io.crash === undefined ? {} : { crash: io.crash }) }
  try {
    const outcome = await deploy(opts, dio)
    const { file } = outcome
    const all = file.deploy.transactions
    const fees = all.reduce((a, t) => a + BigInt(t.feeCharged), 0n)
    const mine = outcome.sent.reduce((a, t) => a + BigInt(t.feeCharged), 0n)
    if (outcome.sent.length === 0 && outcome.alreadyComplete) {
      io.out(`deploy: already complete and verified on the chain; nothing sent${outcome.wrote ? ` (${shown(opts.out)} updated)` : ''}\n`)
    } else {
      io.out(
        `deploy: complete: this run sent ${outcome.sent.length} transaction(s) for ${formatXlm(mine)} in ${(outcome.elapsedMs / 1000).toFixed(1)} s; ` +
          `the file records ${all.length} transaction(s), ${formatXlm(fees)} in fees, ${(file.deploy.elapsedMs / 1000).toFixed(1)} s of deploying\n`,
      )
    }
    const usdc = file.assets?.usdc
    io.out(
      [
        `parameters (${file.deploy.preset}): ${describeParameters(parametersFromJson(file.deploy.parameters)).join(', ')}`,
        `vault     ${file.service?.vault}`,
        `registry  ${file.service?.registry}`,
        `usdc      ${usdc?.contract} (${usdc?.code}:${usdc?.issuer})`,
        `file      ${shown(opts.out)}  (keeper: DEPLOYMENTS_FILE=${shown(opts.out)}; npm run dashboard / npm run audit -- --addresses ${shown(opts.out)})`,
        '',
      ].join('\n'),
    )
    return 0
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`deploy: ${err.message}\n`)
      return 2
    }
    if (err instanceof StepFailedError) {
      io.err(`deploy: ${err.message}\ndeploy: the steps done so far are recorded in ${shown(opts.out)}; rerun the same command to resume from step ${err.step}\n`)
      return 1
    }
    io.err(`deploy: ${err instanceof Error ? err.message : String(err)}\n`)
    return 1
  }
}
