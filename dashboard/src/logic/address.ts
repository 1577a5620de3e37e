/** Stellar addresses for people. */

/**
 * The first and last few characters of a G… or C… address.
 *
 * @example
 * shortAddress('GDFYZRXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX3WCX') // 'GDFYZR…3WCX'
 */
export function shortAddress(address: string): string {
  return address.length <= 12 ? address : `${address.slice(0, 6)}…${address.slice(-4)}`
}

/** A G… account or C… contract address (56 base32 characters). */
export function isStellarAddress(text: string): boolean {
  return /^[GC][A-Z2-7]{55}$/.test(text)
}
