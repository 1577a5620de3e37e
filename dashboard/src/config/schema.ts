/**
 * The dashboard's configuration: which network, which contracts, which keeper APIs. It comes from
 * `config.json` next to index.html (written by `npm run dashboard` and the demo from an addresses
 * file), then what the user saved in Settings (localStorage), then URL parameters.
 */
import { z } from 'zod'

// Objects are parsed a few times a session here: compiling a fast parser for each schema (zod's
// JIT, `new Function`) costs the first load more than it ever saves.
z.config({ jitless: true })

export { SANDBOX_PASSPHRASE, isSandbox } from './network.js'

const contractId = z.string().regex(/^C[A-Z2-7]{55}$/, 'a contract address (C…, 56 characters)')
const httpUrl = z.url({ protocol: /^https?$/ })

export const configSchema = z.object({
  network: z.object({
    rpcUrl: httpUrl,
    networkPassphrase: z.string().min(1),
    friendbotUrl: httpUrl.optional(),
  }),
  contracts: z.object({ vault: contractId, registry: contractId, usdc: contractId }),
  /** Keeper daemons' HTTP API base URLs (http://host:port). */
  keeperApis: z.array(httpUrl).default([]),
  /** The keepers' API token (their API_TOKEN): sent as a bearer token, it unlocks their planned executions. */
  keeperToken: z.string().regex(/^[\x21-\x7e]+$/, 'printable characters without spaces').optional(),
  /** The dashboard server's sandbox USDC faucet (POST {account}); sandbox only. */
  faucetUrl: httpUrl.optional(),
  /** The dashboard server's list of sim runs and sweeps (GET → RunsListing, logic/runsApi.ts); only with `--runs`. */
  runsUrl: httpUrl.optional(),
})

export type DashboardConfig = z.infer<typeof configSchema>


/** A partial configuration: the fields one source gives. */
export interface ConfigPatch {
  network?: Partial<DashboardConfig['network']>
  contracts?: Partial<DashboardConfig['contracts']>
  keeperApis?: string[]
  keeperToken?: string
  faucetUrl?: string
  runsUrl?: string
}

/** URL parameters: rpc, passphrase, friendbot, vault, registry, usdc, keepers (comma-separated), keeperToken, faucet. */
export function patchFromParams(params: URLSearchParams): ConfigPatch {
  const patch: ConfigPatch = {}
  const network: Partial<DashboardConfig['network']> = {}
  const rpc = params.get('rpc')
  if (rpc) network.rpcUrl = rpc
  const passphrase = params.get('passphrase')
  if (passphrase) network.networkPassphrase = passphrase
  const friendbot = params.get('friendbot')
  if (friendbot) network.friendbotUrl = friendbot
  if (Object.keys(network).length > 0) patch.network = network
  const contracts: Partial<DashboardConfig['contracts']> = {}
  for (const key of ['vault', 'registry', 'usdc'] as const) {
    const v = params.get(key)
    if (v) contracts[key] = v
  }
  if (Object.keys(contracts).length > 0) patch.contracts = contracts
  const keepers = params.get('keepers')
  if (keepers !== null) patch.keeperApis = keepers.split(',').map((s) => s.trim()).filter((s) => s !== '')
  const token = params.get('keeperToken')
  if (token) patch.keeperToken = token
  const faucet = params.get('faucet')
  if (faucet) patch.faucetUrl = faucet
  return patch
}

/** Later patches win field by field. */
export function mergePatches(...patches: ConfigPatch[]): ConfigPatch {
  const out: ConfigPatch = {}
  for (const p of patches) {
    if (p.network) out.network = { ...out.network, ...p.network }
    if (p.contracts) out.contracts = { ...out.contracts, ...p.contracts }
    if (p.keeperApis) out.keeperApis = p.keeperApis
    if (p.keeperToken) out.keeperToken = p.keeperToken
    if (p.faucetUrl) out.faucetUrl = p.faucetUrl
    if (p.runsUrl) out.runsUrl = p.runsUrl
  }
  return out
}

/** The configuration, or every problem with it in words ("contracts.vault: a contract address …"). */
export function parseConfig(patch: ConfigPatch): { ok: true; config: DashboardConfig } | { ok: false; problems: string[] } {
  const r = configSchema.safeParse(patch)
  if (r.success) return { ok: true, config: r.data }
  return { ok: false, problems: r.error.issues.map((i) => `${i.path.join('.') || 'config'}: ${i.message}`) }
}
