/**
 * The addresses file (src/world `writeAddresses`, e.g. target/demo/addresses.json) → the
 * dashboard's config.json. Only the parts the dashboard and the sandbox faucet need are read and
 * validated; every problem is reported in words with its path in the file.
 */
import { readFileSync } from 'node:fs'
import { z } from 'zod'
import { SANDBOX_PASSPHRASE, configSchema, type DashboardConfig } from '../src/config/schema.js'

export { SANDBOX_PASSPHRASE, type DashboardConfig }

/** A bad command line or addresses file: the message is for the user (exit 2). */
export class UsageError extends Error {
  override name = 'UsageError'
}

const contractId = (what: string) =>
  z.string({ error: `${what} is missing` }).regex(/^C[A-Z2-7]{55}$/, `${what} must be a contract address (C…, 56 characters)`)
const accountId = (what: string) =>
  z.string({ error: `${what} is missing` }).regex(/^G[A-Z2-7]{55}$/, `${what} must be an account address (G…, 56 characters)`)
const httpUrl = (what: string) =>
  z
    .string({ error: `${what} is missing` })
    .refine((s) => /^https?:\/\/[^\s]+$/.test(s) && URL.canParse(s), { message: `${what} must be an http(s) URL` })

export const addressesSchema = z.object({
  /** The world's seed (decimal): with it the sandbox faucet derives the USDC issuer's key. */
  seed: z
    .string()
    .regex(/^\d+$/, 'seed must be a decimal integer string')
    .optional(),
  network: z.object(
    {
      rpcUrl: httpUrl('network.rpcUrl'),
      networkPassphrase: z.string({ error: 'network.networkPassphrase is missing' }).min(1, 'network.networkPassphrase is empty'),
      friendbotUrl: httpUrl('network.friendbotUrl').optional(),
    },
    { error: 'no network section (rpcUrl, networkPassphrase)' },
  ),
  service: z.object(
    { vault: contractId('service.vault'), registry: contractId('service.registry') },
    { error: 'no service section (service.vault and service.registry); was the world deployed with its vault and registry?' },
  ),
  assets: z.object(
    {
      usdc: z.object(
        {
          code: z.string({ error: 'assets.usdc.code is missing' }).regex(/^[A-Za-z0-9]{1,12}$/, 'assets.usdc.code must be an asset code (1–12 letters or digits)'),
          issuer: accountId('assets.usdc.issuer'),
          contract: contractId('assets.usdc.contract'),
        },
        { error: 'no assets.usdc section (code, issuer, contract)' },
      ),
    },
    { error: 'no assets section (assets.usdc)' },
  ),
})

export type DashboardAddresses = z.infer<typeof addressesSchema>

/** Validates parsed JSON; `source` names the file in messages. @throws UsageError */
export function parseAddresses(json: unknown, source: string): DashboardAddresses {
  const parsed = addressesSchema.safeParse(json)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const at = i.path.join('.')
      return at !== '' && !i.message.includes(at) ? `${at}: ${i.message}` : i.message
    })
    throw new UsageError(`--addresses ${source}: ${lines.join('; ')}`)
  }
  return parsed.data
}

/** Reads and validates an addresses file. @throws UsageError */
export function readAddressesFile(path: string): DashboardAddresses {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    throw new UsageError(`--addresses ${path}: cannot read the file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (err) {
    throw new UsageError(`--addresses ${path}: not JSON (${(err as Error).message})`)
  }
  return parseAddresses(json, path)
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
