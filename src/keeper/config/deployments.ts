import { DeploymentsError } from '../../chain/deployments.js'
import { readDeploymentsFile } from '../../chain/deploymentsFile.js'
import { ConfigError } from './config.js'

/** The variables a deployments file supplies, and where in the file each comes from. */
const FROM_FILE = {
  VAULT_CONTRACT: (d) => d.service.vault,
  REGISTRY_CONTRACT: (d) => d.service.registry,
  USDC_CONTRACT: (d) => d.assets.usdc.contract,
  CONTRACT_RPC: (d) => d.network.rpcUrl,
  NETWORK_PASSPHRASE: (d) => d.network.networkPassphrase,
} satisfies Record<string, (d: ReturnType<typeof readDeploymentsFile>) => string>

/**
 * DEPLOYMENTS_FILE (written by `npm run deploy`): the vault, registry, USDC, RPC URL and
 * passphrase it holds become the defaults of VAULT_CONTRACT, REGISTRY_CONTRACT, USDC_CONTRACT,
 * CONTRACT_RPC and NETWORK_PASSPHRASE. A variable set in the environment wins.
 *
 * @throws ConfigError when the file is named but unreadable or invalid.
 */
export function applyDeploymentsFile(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const path = env.DEPLOYMENTS_FILE?.trim()
  if (!path) return env
  let file
  try {
    file = readDeploymentsFile(path)
  } catch (err) {
    if (err instanceof DeploymentsError) throw new ConfigError(err.problems.map((p) => `DEPLOYMENTS_FILE ${path}: ${p}`))
    throw err
  }
  const out = { ...env }
  for (const [key, pick] of Object.entries(FROM_FILE)) {
    if ((out[key] ?? '').trim() === '') out[key] = pick(file)
  }
  return out
}
