import { Keypair } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { CONFIG_KEYS, PRE_PARSE_KEYS, parseConfig } from './config.js'
import { configProblems, minimalEnv } from '../../../test/keeper/configEnv.js'

const kp = Keypair.random()
const base = minimalEnv(kp)
const BAD = 'junk!'

/** Settings any text is valid for (names, paths, a passphrase): no value is refused. */
const FREE_TEXT = ['BORROWER_HINTS_FILE', 'NETWORK_PASSPHRASE', 'KEEPER_NAME']
/** Settings whose value is never echoed: the secret, the API token. */
const NEVER_ECHOED = ['KEEPER_SECRET', 'API_TOKEN']

describe('configuration problems say what they got', () => {
  it('LOG_LEVEL names the levels and quotes the value', () => {
    expect(configProblems({ ...base, LOG_LEVEL: 'loud' })).toEqual([
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    ])
    expect(parseConfig({ ...base, LOG_LEVEL: 'debug' }).logLevel).toBe('debug')
    expect(parseConfig({ ...base, LOG_LEVEL: ' ' }).logLevel).toBe('info')
  })

  it('every other setting refused ends its line with got "<value>"', () => {
    const keys = CONFIG_KEYS.filter((k) => !(PRE_PARSE_KEYS as readonly string[]).includes(k))
    const quiet: string[] = []
    for (const key of keys) {
      let lines: string[]
      try {
        parseConfig({ ...base, [key]: BAD })
        quiet.push(key)
        continue
      } catch {
        lines = configProblems({ ...base, [key]: BAD })
      }
      expect(lines, key).toHaveLength(1)
      if (NEVER_ECHOED.includes(key)) expect(lines[0], key).not.toContain(BAD)
      else expect(lines[0], key).toMatch(new RegExp(`^${key} .*, got "${BAD}"( \\(\\d+\\))?$`))
    }
    expect(quiet.sort()).toEqual([...FREE_TEXT].sort())
  })

  it('KEEPER_NAME over 64 characters, addresses, enumerations', () => {
    const long = 'k'.repeat(65)
    expect(configProblems({ ...base, KEEPER_NAME: long })).toEqual([`KEEPER_NAME must be at most 64 characters, got "${long}" (65)`])
    expect(configProblems({ ...base, VAULT_CONTRACT: kp.publicKey() })).toEqual([
      `VAULT_CONTRACT must be a contract address (C..., 56 characters), got "${kp.publicKey()}"`,
    ])
    expect(configProblems({ ...base, USDC_CONTRACT: 'usdc' })).toEqual([
      'USDC_CONTRACT must be a contract address (C..., 56 characters) or empty, got "usdc"',
    ])
    expect(configProblems({ ...base, WATCH_ADDRESSES: `${kp.publicKey()} GNOPE` })).toEqual([
      'WATCH_ADDRESSES entries must be Stellar addresses (G... or C...), got "GNOPE"',
    ])
    expect(configProblems({ ...base, PROFIT_BASIS: 'dex' })).toEqual(['PROFIT_BASIS must be oracle or executable, got "dex"'])
    expect(configProblems({ ...base, FAULT_CRASH_AT: 'later' })).toEqual([
      'FAULT_CRASH_AT must be one of drawn, filled, swapped (or unset), got "later"',
    ])
    expect(parseConfig({ ...base, FAULT_CRASH_AT: 'filled' }).crashAt).toBe('filled')
    expect(parseConfig(base).crashAt).toBeUndefined()
    expect(parseConfig(base).profitBasis).toBe('oracle')
  })
})
