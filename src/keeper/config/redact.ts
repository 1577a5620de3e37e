/**
 * Credentials kept out of the keeper's logs and API: the rule for URLs is src/chain/redact.ts
 * (userinfo, key-like query parameters, key-like path segments); here the strings this
 * configuration must never show, and a log destination that masks them in every line.
 */
import { redactText, urlSecrets } from '../../chain/redact.js'
import type { KeeperConfig } from './config.js'

export { redactText, redactUrl } from '../../chain/redact.js'

/** The literal credentials of `config`: those of its RPC URLs, the seed and the API token. */
export function configSecrets(config: Pick<KeeperConfig, 'rpcUrl' | 'historyApiUrl' | 'apiToken'> & { keypair?: { secret(): string } }): string[] {
  const out = [...urlSecrets(config.rpcUrl), ...(config.historyApiUrl === undefined ? [] : urlSecrets(config.historyApiUrl))]
  if (config.apiToken !== undefined) out.push(config.apiToken)
  if (config.keypair !== undefined) out.push(config.keypair.secret())
  return [...new Set(out)].sort((a, b) => b.length - a.length)
}

/** A destination for pino that writes every line to `dest` with its credentials masked. */
export function redactingDestination(dest: { write(line: string): unknown }, secrets: readonly string[]): { write(line: string): boolean } {
  return {
    write(line: string) {
      dest.write(redactText(line, secrets))
      return true
    },
  }
}
