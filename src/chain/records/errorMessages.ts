/**
 * Contract error codes in words, for people: the dashboard shows them after a refused write, logs
 * can quote them. The numbers are the contracts' public interface: the vault's 100-199
 * (contracts/vault/src/errors.rs), the registry's 200-299 (contracts/registry/src/errors.rs) and
 * the Stellar Asset Contract's 1-15 (soroban-env-host, builtin_contracts/contract_error.rs), which
 * is what USDC is on every network this project runs on.
 *
 * A refusal carries only its number (`Error(Contract, #n)`), not which contract raised it. The
 * ranges do not overlap, so the number alone says whose it is: below 100 is read as the token's
 * (the only other contract a vault or registry call reaches with codes that low), 100-199 as the
 * vault's, 200-299 as the registry's. A contract added later with codes below 300 would break
 * this; give it its own range (Blend's pool uses 1200 and up).
 */

export const VAULT_ERRORS: Readonly<Record<number, { name: string; message: string }>> = {
  100: { name: 'InvalidConfig', message: 'The vault configuration is out of range.' },
  101: { name: 'NotInit', message: 'The vault is not linked to a keeper registry yet.' },
  102: { name: 'AlreadyInit', message: 'The vault is already linked to a registry.' },
  103: { name: 'InvalidAmount', message: 'The amount must be greater than zero.' },
  104: { name: 'ZeroShares', message: 'This deposit is too small to mint a single share.' },
  105: { name: 'PoolInsolvent', message: 'The vault holds no assets for its shares, so shares cannot be priced.' },
  106: { name: 'Overflow', message: 'The amount is too large to compute.' },
  107: { name: 'DepositCapExceeded', message: 'This deposit would take the vault over its deposit cap.' },
  108: { name: 'CooldownActive', message: 'The withdrawal cooldown after your last deposit has not passed yet.' },
  109: { name: 'InsufficientShares', message: 'You hold fewer shares than this withdrawal asks for.' },
  110: { name: 'InsufficientLiquidity', message: 'The vault does not hold enough idle USDC right now (capital is out with keepers).' },
  111: { name: 'DepositsPaused', message: 'Deposits are paused by the vault admin.' },
  112: { name: 'DrawsPaused', message: 'Draws are paused by the vault admin.' },
  113: { name: 'DrawCapExceeded', message: 'The draw is above the per-keeper limit.' },
  114: { name: 'DrawOutstanding', message: 'This keeper already holds a draw.' },
  115: { name: 'NoActiveDraw', message: 'This keeper has no outstanding draw.' },
  116: { name: 'KeeperSlashed', message: 'This keeper was slashed.' },
  117: { name: 'Unauthorized', message: 'Only the registry may do this.' },
  118: { name: 'ZeroAssets', message: 'These shares are worth 0 USDC; nothing would be paid out.' },
  119: { name: 'InvalidCooldown', message: 'The withdrawal cooldown may be at most 30 days.' },
  120: { name: 'InvalidKeeperFee', message: 'The keeper fee may be at most 5000 basis points (50 %).' },
  121: { name: 'InvalidUnlockPeriod', message: 'The profit unlock period must be from 1 second to 30 days.' },
  122: { name: 'NotApprovedExecutor', message: 'Only an executor deployed by the registry may flash-draw.' },
  123: { name: 'FlashNotRepaid', message: 'The flash draw was not repaid in full.' },
  124: { name: 'WithdrawalPending', message: 'The vault keeps this idle USDC for requested withdrawals.' },
}

export const REGISTRY_ERRORS: Readonly<Record<number, { name: string; message: string }>> = {
  200: { name: 'InvalidConfig', message: 'The registry configuration is out of range (the minimum stake must be more than 0).' },
  201: { name: 'AlreadyRegistered', message: 'This account is already registered as a keeper.' },
  202: { name: 'NotRegistered', message: 'This account is not a registered keeper.' },
  203: { name: 'Unauthorized', message: 'Only the vault may do this.' },
  204: { name: 'VaultNotSet', message: 'The registry is not linked to a vault yet.' },
  205: { name: 'VaultAlreadySet', message: 'The registry is already linked to a vault.' },
  206: { name: 'DrawOutstanding', message: 'The keeper still holds vault capital; return it before deregistering or withdrawing bond.' },
  207: { name: 'NoActiveDraw', message: 'This keeper has no active draw to slash.' },
  208: { name: 'SlashTooEarly', message: 'The draw has not been out longer than the slash timeout yet.' },
  209: { name: 'KeeperBanned', message: 'This operator was slashed and may not register, draw or add bond again.' },
  210: { name: 'InvalidAmount', message: 'The amount must be greater than zero.' },
  211: { name: 'Overflow', message: 'The amount is too large to compute.' },
  212: { name: 'InvalidName', message: 'The keeper name must be 1 to 64 bytes.' },
  213: { name: 'InvalidSlashRate', message: 'The slash rate must be from 1 to 5000 basis points.' },
  214: { name: 'InvalidTimeout', message: 'The slash timeout must be from 1 second to 7 days.' },
  215: { name: 'BondBelowMinimum', message: 'Withdrawing this much bond would leave less than the minimum stake.' },
  216: { name: 'BondTooSmall', message: 'The keeper’s bond does not back a draw this large; add bond first.' },
  217: { name: 'PageOutOfRange', message: 'The page starts past the last keeper.' },
  218: { name: 'InvalidPageSize', message: 'A page of keepers holds 1 to 200 records.' },
}

/**
 * The Stellar Asset Contract's errors (a classic asset such as USDC as a Soroban token). 1 is
 * reserved (formerly InternalError).
 */
export const SAC_ERRORS: Readonly<Record<number, { name: string; message: string }>> = {
  2: { name: 'OperationNotSupportedError', message: 'The token does not support this operation.' },
  3: { name: 'AlreadyInitializedError', message: 'The token contract is already initialized.' },
  4: { name: 'UnauthorizedError', message: 'The token refused: this account is not authorized for this operation.' },
  5: { name: 'AuthenticationError', message: 'The token could not authenticate the account.' },
  6: { name: 'AccountMissingError', message: 'The account does not exist on this network yet (fund it with XLM first).' },
  7: { name: 'AccountIsNotClassic', message: 'The token operation needs a classic Stellar account (G…).' },
  8: { name: 'NegativeAmountError', message: 'The token amount must not be negative.' },
  9: { name: 'AllowanceError', message: 'The token allowance is too small for this.' },
  10: { name: 'BalanceError', message: 'Your USDC balance is too small for this.' },
  11: { name: 'BalanceDeauthorizedError', message: 'The USDC issuer has not authorized (or has frozen) this account’s trustline.' },
  12: { name: 'OverflowError', message: 'The token amount is too large (the balance would overflow).' },
  13: { name: 'TrustlineMissingError', message: 'This account has no USDC trustline yet; add one in your wallet first.' },
  14: { name: 'InsufficientAccountReserve', message: 'The account lacks the XLM reserve this needs (a new trustline or balance entry).' },
  15: { name: 'TooManyAccountSubentries', message: 'The account has too many trustlines, offers or signers to add another.' },
}

/** Whose error table a code belongs to, by its range (see the file comment). */
function knownError(code: number): { name: string; message: string } | undefined {
  if (code < 100) return SAC_ERRORS[code]
  return VAULT_ERRORS[code] ?? REGISTRY_ERRORS[code]
}

/**
 * The contract error `code` in words, e.g. 107 → "This deposit would take the vault over its
 * deposit cap. (DepositCapExceeded, #107)", 10 → "Your USDC balance is too small for this.
 * (BalanceError, #10)".
 */
export function contractErrorMessage(code: number): string {
  const known = knownError(code)
  if (known === undefined) return `The contract refused the call (error #${code}).`
  return `${known.message} (${known.name}, #${code})`
}
