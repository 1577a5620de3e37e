/**
 * The deployments file: where a network's service contracts are. `npm run deploy` writes it
 * (deployments/<network>.json) and a seeded world writes the same shape (target/demo/addresses.json);
 * the keeper (DEPLOYMENTS_FILE), the dashboard and the auditor (`--addresses`) read it.
 *
 * Browser-safe: this module validates parsed JSON; `deploymentsFile.ts` reads it from disk.
 */
import { z } from 'zod'

const contractId = (what: string) =>
  z.string({ error: `${what} is missing` }).regex(/^C[A-Z2-7]{55}$/, `${what} must be a contract address (C…, 56 characters)`)
const accountId = (what: string) =>
  z.string({ error: `${what} is missing` }).regex(/^G[A-Z2-7]{55}$/, `${what} must be an account address (G…, 56 characters)`)
const httpUrl = (what: string) =>
  z
    .string({ error: `${what} is missing` })
    .refine((s) => /^https?:\/\/[^\s]+$/.test(s) && URL.canParse(s), { message: `${what} must be an http(s) URL` })

export const deploymentsSchema = z.looseObject({
  /** A seeded world's seed (decimal); absent for a real deployment. */
  seed: z
    .string()
    .regex(/^\d+$/, 'seed must be a decimal integer string')
    .optional(),
  network: z.looseObject(
    {
      /** testnet | local | a world's label; informational. */
      name: z.string().optional(),
      rpcUrl: httpUrl('network.rpcUrl'),
      networkPassphrase: z.string({ error: 'network.networkPassphrase is missing' }).min(1, 'network.networkPassphrase is empty'),
      friendbotUrl: httpUrl('network.friendbotUrl').optional(),
    },
    { error: 'no network section (rpcUrl, networkPassphrase)' },
  ),
  service: z.looseObject(
    { vault: contractId('service.vault'), registry: contractId('service.registry') },
    { error: 'no service section (service.vault and service.registry); was the world deployed with its vault and registry?' },
  ),
  assets: z.looseObject(
    {
      usdc: z.looseObject(
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

export type Deployments = z.infer<typeof deploymentsSchema>

/** A deployments file that does not validate; `problems` name the field of each. */
export class DeploymentsError extends Error {
  override name = 'DeploymentsError'
  readonly problems: string[]
  constructor(source: string, problems: string[]) {
    super(`${source}: ${problems.join('; ')}`)
    this.problems = problems
  }
}

/** Validates parsed JSON; `source` names the file in messages. @throws DeploymentsError */
export function parseDeployments(json: unknown, source: string): Deployments {
  const parsed = deploymentsSchema.safeParse(json)
  if (!parsed.success) {
    throw new DeploymentsError(
      source,
      parsed.error.issues.map((i) => {
        const at = i.path.join('.')
        return at !== '' && !i.message.includes(at) ? `${at}: ${i.message}` : i.message
      }),
    )
  }
  return parsed.data
}
