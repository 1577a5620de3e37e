/**
 * The safety switches a configuration leaves off, in words: the `keeper starting` log line
 * lists them (`off`), so an operator sees at start what this keeper will not do for them.
 */
import type { KeeperConfig } from './config.js'

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/i

export function safetySwitchesOff(c: KeeperConfig): string[] {
  const off: string[] = []
  if (c.lendingPools.length === 0) off.push('no LENDING_POOLS: monitor-only, no liquidation')
  if (c.usdcContract === undefined) off.push('no USDC_CONTRACT: stale-draw recovery disabled')
  if (c.executorContract === undefined) off.push('no EXECUTOR_CONTRACT: two-step path, a draw stays out across ledgers (a crash can leave it to recovery)')
  if (c.lendingPools.length > 0 && c.primaryDexRouter === undefined) off.push('no PRIMARY_DEX_ROUTER: lots valued at the oracle only, not at what a pool pays')
  if (c.primaryDexRouter !== undefined && c.fallbackDexRouter === undefined) off.push('no FALLBACK_DEX_ROUTER: no second router when the primary fails')
  if (c.borrowerHintsFile === undefined) off.push("no BORROWER_HINTS_FILE: borrowers older than the RPC's event retention are forgotten on restart")
  if (c.feeBumpLedgers === 0) off.push('FEE_BUMP_LEDGERS=0: a transaction the network does not include is never fee-bumped')
  if (c.channelAccounts === 0) off.push('CHANNEL_ACCOUNTS=0: one transaction per ledger, from the operator')
  if (!LOOPBACK.test(c.apiHost)) off.push(`API_HOST=${c.apiHost}: the API is reachable from other machines`)
  if (c.apiCorsOrigins.includes('*')) off.push('API_CORS_ORIGINS=*: any web page can read the API')
  if (!c.strictSecrets) off.push('STRICT_SECRETS=false: credential files readable by others are only warned about')
  if (c.crashAt !== undefined) off.push(`FAULT_CRASH_AT=${c.crashAt}: the process kills itself during executions (tests only)`)
  return off
}
