/**
 * `npm run dashboard -- --addresses <file> [--runs DIR] [--port N] [--host H] [--keeper-api URL ...] [--no-build]`
 * `npm run dashboard -- --runs DIR [...]` (Research alone: no world)
 *
 * Builds the dashboard (unless target/dashboard is up to date, or --no-build) and serves it with a
 * config.json derived from the addresses file; on the sandbox also POST /sandbox/faucet; with
 * --runs the sim runs and sweeps under DIR for Research (GET /api/runs, runs.ts). Exit 2 on
 * a bad command line or addresses file, 1 when the server cannot start.
 */
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { keeperApiUrl, UsageError } from './config.js'

export const USAGE = `usage: npm run dashboard -- --addresses <file> [options]
       npm run dashboard -- --runs <dir> [options]   (Research only, without a world)

  --addresses <file>     addresses file of a deployed world (e.g. target/demo/addresses.json)
  --runs <dir>           a folder of sim runs and sweeps (e.g. runs) to list and open in Research
  --port <n>             port to listen on (default 5173; 0 = any free port)
  --host <address>       address to bind (default 127.0.0.1; 0.0.0.0 for every interface)
  --keeper-api <url>     a keeper daemon's API base URL (http://host:port); repeat for several
  --no-build             serve target/dashboard as it is, without building
  -h, --help             this text
`

export interface CliOptions {
  /** Undefined only with --runs (Research alone). */
  addresses: string | undefined
  runsDir: string | undefined
  port: number
  host: string
  keeperApis: string[]
  build: boolean
  help: boolean
}

/** The command line → options. @throws UsageError with a message in words */
export function parseCliArgs(argv: readonly string[]): CliOptions {
  let values
  try {
    ;({ values } = parseArgs({
      args: [...argv],
      options: {
        addresses: { type: 'string' },
        runs: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        'keeper-api': { type: 'string', multiple: true },
        'no-build': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }))
  } catch (err) {
    throw new UsageError((err as Error).message)
  }
  if (values.help) return { addresses: undefined, runsDir: undefined, port: 5173, host: '127.0.0.1', keeperApis: [], build: true, help: true }
  if (values.runs === '') throw new UsageError('--runs is empty (give a folder of sim runs, e.g. runs)')
  if ((values.addresses === undefined || values.addresses === '') && values.runs === undefined)
    throw new UsageError('give --addresses <file> (e.g. target/demo/addresses.json), or --runs <dir> for Research alone')
  let port = 5173
  if (values.port !== undefined) {
    port = Number(values.port)
    if (!/^\d+$/.test(values.port) || port > 65535) throw new UsageError(`--port must be an integer in [0, 65535], got ${JSON.stringify(values.port)}`)
  }
  const host = values.host ?? '127.0.0.1'
  if (host.trim() === '') throw new UsageError('--host is empty')
  const keeperApis = (values['keeper-api'] ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '').map(keeperApiUrl)
  return { addresses: values.addresses || undefined, runsDir: values.runs, port, host, keeperApis, build: !values['no-build'], help: false }
}

export async function main(argv: readonly string[]): Promise<void> {
  const say = (line: string) => process.stdout.write(`[dashboard] ${line}\n`)
  let opts: CliOptions
  try {
    opts = parseCliArgs(argv)
  } catch (err) {
    process.stderr.write(`dashboard: ${(err as Error).message}\n\n${USAGE}`)
    process.exit(2)
  }
  if (opts.help) {
    process.stdout.write(USAGE)
    return
  }
  const { startDashboardServer } = await import('./index.js')
  let server
  try {
    server = await startDashboardServer({ ...opts, log: say })
  } catch (err) {
    process.stderr.write(`dashboard: ${(err as Error).message}\n`)
    process.exit(err instanceof UsageError ? 2 : 1)
  }
  const config = server.config
  if (config === undefined) say('no addresses file: Research only (the other views say the dashboard is not configured)')
  else {
    say(`network ${config.network.rpcUrl} (${config.network.networkPassphrase})`)
    say(`vault ${config.contracts.vault}, registry ${config.contracts.registry}`)
    say(config.keeperApis.length > 0 ? `keeper APIs ${config.keeperApis.join(', ')}` : 'no keeper APIs (--keeper-api URL to add one)')
    const f = server.faucet
    say('url' in f ? `sandbox faucet: POST ${f.url} {"account": "G…"}` : `no faucet (${f.unavailable})`)
  }
  if (opts.runsDir !== undefined) say(`runs: ${opts.runsDir} (GET ${server.url}api/runs)`)
  process.stdout.write(`dashboard: ${server.url}\n`)
  const stop = () => void server.close().then(() => process.exit(0))
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) void main(process.argv.slice(2))
