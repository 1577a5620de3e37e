/** A minimal keeper environment and the problems parseConfig reports, for the config tests. */
import type { Keypair } from '@stellar/stellar-sdk'
import { expect } from 'vitest'
import { ConfigError, parseConfig } from '../../src/keeper/config/config.js'

export const C1 = 'CA3D5KRYM6CB7OWQ6TWYRR3Z4T7GNZLKERYNZGGA5SOAOPIFY6YQGAXE'
export const C2 = 'CBIELTK6YBZJU5UP2WWQEUCYKLPU6AUNZ2BQ4WWFEIE3USCIHMXQDAMA'

/** The settings a keeper cannot start without: `kp`'s secret, a registry and a vault. */
export function minimalEnv(kp: Keypair): Record<string, string> {
  return { KEEPER_SECRET: kp.secret(), REGISTRY_CONTRACT: C1, VAULT_CONTRACT: C2 }
}

/** The problems parseConfig reports for `env` (it must refuse it). */
export function configProblems(env: Record<string, string | undefined>): string[] {
  try {
    parseConfig(env)
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError)
    return (e as ConfigError).problems
  }
  throw new Error('expected a ConfigError')
}
