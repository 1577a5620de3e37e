/**
 * The addresses file (a deployments file: `npm run deploy`'s deployments/<network>.json or a
 * world's, e.g. target/demo/addresses.json) → the dashboard's config.json. The file is read and
 * validated by src/chain/deployments (the one format the keeper, the auditor and the dashboard
 * share); every problem is reported in words with its path in the file.
 */
import { DeploymentsError, parseDeployments, type Deployments } from '../../src/chain/deployments.js'
import { readDeploymentsFile } from '../../src/chain/deploymentsFile.js'
import { SANDBOX_PASSPHRASE, configSchema, type DashboardConfig } from '../src/config/schema.js'

export { SANDBOX_PASSPHRASE, type DashboardConfig }

/** A bad command line or addresses file: the message is for the user (exit 2). */
export class UsageError extends Error {
  override name = 'UsageError'
}

/** What the dashboard reads from the addresses file: network, service, assets.usdc and a world's seed. */
export type DashboardAddresses = Deployments

function usageError(err: unknown): unknown {
  // DeploymentsError's message is "<file>: <problems>".
  return err instanceof DeploymentsError ? new UsageError(`--addresses ${err.message}`) : err
}

/** Validates parsed JSON; `source` names the file in messages. @throws UsageError */
export function parseAddresses(json: unknown, source: string): DashboardAddresses {
  try {
    return parseDeployments(json, source)
  } catch (err) {
    throw usageError(err)
  }
}

/** Reads and validates an addresses file. @throws UsageError */
export function readAddressesFile(path: string): DashboardAddresses {
  try {
    return readDeploymentsFile(path)
  } catch (err) {
    throw usageError(err)
  }
}

/** Whether the addresses describe the local sandbox network (the faucet is offered there only). */
export function isSandboxNetwork(a: DashboardAddresses): boolean {
  return a.network.networkPassphrase === SANDBOX_PASSPHRASE
}

/**
 * The config.json the app loads: network, the service's vault and registry, the USDC token
 * contract, the keeper API base URLs, and the faucet's URL when there is one.
 */
export function dashboardConfig(a: DashboardAddresses, opts: { keeperApis?: readonly string[]; faucetUrl?: string } = {}): DashboardConfig {
  const config = {
    network: {
      rpcUrl: a.network.rpcUrl,
      networkPassphrase: a.network.networkPassphrase,
      ...(a.network.friendbotUrl === undefined ? {} : { friendbotUrl: a.network.friendbotUrl }),
    },
    contracts: { vault: a.service.vault, registry: a.service.registry, usdc: a.assets.usdc.contract },
    keeperApis: [...(opts.keeperApis ?? [])],
    ...(opts.faucetUrl === undefined ? {} : { faucetUrl: opts.faucetUrl }),
  }
  // The app validates with the same schema: a config it would refuse is a bug here.
  const parsed = configSchema.safeParse(config)
  if (!parsed.success) throw new UsageError(`the derived config.json is invalid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`)
  return parsed.data
}

/** A keeper API base URL from the command line, without a trailing slash. @throws UsageError */
export function keeperApiUrl(raw: string): string {
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    throw new UsageError(`--keeper-api ${JSON.stringify(raw)} is not a URL (expected http://host:port)`)
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`--keeper-api ${raw}: must be an http(s) URL (http://host:port)`)
  return raw.replace(/\/+$/, '')
}
