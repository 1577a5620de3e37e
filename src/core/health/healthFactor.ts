import { InvalidInputError, InvalidPriceError } from '../errors.js'
import { assertI128 } from '../fixed/assertI128.js'
import { mulDiv } from '../fixed/mulDiv.js'
import { accrueReserve } from '../reserve/accrueReserve.js'
import { toAssetFromBToken, toAssetFromDToken, toEffectiveAssetFromBToken, toEffectiveAssetFromDToken } from '../reserve/conversions.js'
import type { Reserve } from '../reserve/types.js'
import { indexedEntries, type Positions } from './types.js'

export type HealthFactorParameters = {
  /** The pool's reserves; each is found by its `config.index` (the key positions use). */
  reserves: readonly Reserve[]
  positions: Positions
  /** Oracle prices keyed by asset address, with `oracleDecimals` decimals. */
  prices: Readonly<Record<string, bigint>> | ReadonlyMap<string, bigint>
  /** The oracle's `decimals()`. */
  oracleDecimals: number
  /**
   * Accrue every reserve to this time first, as the pool does on every load. Omit only when the
   * reserve data is already current (e.g. read through `get_reserve`).
   */
  accrual?: { timestamp: bigint; bstopRate: number }
}

export type HealthFactorReturnType = {
  /** `floor(collateralBase * scalar / liabilityBase)`, oracle decimals; `null` without liabilities. */
  healthFactor: bigint | null
  /** Effective collateral in the oracle's base currency (c_factor applied). */
  collateralBase: bigint
  /** Effective liabilities in the oracle's base currency (l_factor applied). */
  liabilityBase: bigint
  /** Collateral value without factors. */
  collateralRaw: bigint
  /** Liability value without factors. */
  liabilityRaw: bigint
  /** `10^oracleDecimals`: 1.0 in the health factor's fixed point. */
  scalar: bigint
}

/**
 * A user's health factor exactly as Blend v2 computes it (`PositionData::calculate_from_positions`
 * and `as_health_factor`), reserve by reserve in index order:
 *
 * - collateral: `floor(price * floor(floor(b * b_rate / 1e12) * c_factor / 1e7) / 10^decimals)`
 * - liability: `ceil(price * ceil(ceil(d * d_rate / 1e12) * 1e7 / l_factor) / 10^decimals)`
 * - `HF = floor(collateral_base * 10^oracleDecimals / liability_base)`
 *
 * Collateral rounds down and liabilities up: the pool never thinks a user healthier than they
 * are. The user is liquidatable when `healthFactor < scalar` (liabilities exceed collateral).
 *
 * Errors: `InvalidPrice` for a missing or non-positive price of a reserve the user holds;
 * `InvalidInput` for a position whose reserve is unknown, or bad decimals.
 *
 * @example
 * import { healthFactor } from './index.js'
 * const config = { index: 0, decimals: 7, c_factor: 7_500_000, l_factor: 7_500_000, util: 7_500_000, max_util: 9_500_000,
 *   r_base: 100_000, r_one: 500_000, r_two: 5_000_000, r_three: 15_000_000, reactivity: 20 }
 * const data = { d_rate: 10n ** 12n, b_rate: 10n ** 12n, ir_mod: 10_000_000n, b_supply: 100_0000000n,
 *   d_supply: 75_0000000n, backstop_credit: 0n, last_time: 0n }
 * healthFactor({
 *   reserves: [{ asset: 'XLM', config, data }, { asset: 'USDC', config: { ...config, index: 1 }, data }],
 *   positions: { collateral: { 0: 1000_0000000n }, liabilities: { 1: 70_0000000n } },
 *   prices: { XLM: 1_000_000n, USDC: 10_000_000n }, oracleDecimals: 7,
 *   accrual: { timestamp: 0n, bstopRate: 2_000_000 },
 * }).healthFactor // 8_035_714n: 75 USD of collateral against 93.33 USD of liabilities
 */
/** Amounts by reserve index: a Map as given (the keeper's decoded positions), else built once. */
function asIndexMap(amounts: Positions['collateral']): ReadonlyMap<number, bigint> {
  return amounts instanceof Map ? amounts : new Map(indexedEntries(amounts))
}

export function healthFactor(parameters: HealthFactorParameters): HealthFactorReturnType {
  const { reserves, positions, oracleDecimals, accrual } = parameters
  if (!Number.isInteger(oracleDecimals) || oracleDecimals < 0 || oracleDecimals > 38)
    throw new InvalidInputError('Oracle decimals must be an integer in 0..38.', `oracleDecimals = ${oracleDecimals}`)
  const priceOf = (asset: string): bigint | undefined =>
    parameters.prices instanceof Map ? parameters.prices.get(asset) : (parameters.prices as Readonly<Record<string, bigint>>)[asset]

  const byIndex = new Map<number, Reserve>()
  for (const reserve of reserves) byIndex.set(reserve.config.index, reserve)

  const collateral = asIndexMap(positions.collateral)
  const liabilities = asIndexMap(positions.liabilities)
  const indices = [...new Set([...collateral.keys(), ...liabilities.keys()])].sort((a, b) => a - b)

  let collateralBase = 0n
  let liabilityBase = 0n
  let collateralRaw = 0n
  let liabilityRaw = 0n
  for (const index of indices) {
    const bTokens = assertI128(collateral.get(index) ?? 0n, `collateral[${index}]`)
    const dTokens = assertI128(liabilities.get(index) ?? 0n, `liabilities[${index}]`)
    if (bTokens < 0n || dTokens < 0n)
      throw new InvalidInputError('Positions must be >= 0.', `reserve ${index}: collateral ${bTokens}, liabilities ${dTokens}`)
    if (bTokens === 0n && dTokens === 0n) continue
    const reserve = byIndex.get(index)
    if (reserve === undefined) throw new InvalidInputError(`No reserve with index ${index}.`, `known: ${[...byIndex.keys()].join(', ')}`)
    const { config } = reserve
    const data = accrual === undefined ? reserve.data : accrueReserve({ config, data: reserve.data, ...accrual })
    const price = priceOf(reserve.asset)
    if (price === undefined || price <= 0n) throw new InvalidPriceError(reserve.asset, price)
    if (!Number.isInteger(config.decimals) || config.decimals < 0 || config.decimals > 38)
      throw new InvalidInputError('Reserve decimals must be an integer in 0..38.', `${reserve.asset}: ${config.decimals}`)
    const scalar = 10n ** BigInt(config.decimals)

    if (bTokens > 0n) {
      collateralBase += mulDiv(price, toEffectiveAssetFromBToken(config, data, bTokens), scalar, 'floor')
      collateralRaw += mulDiv(price, toAssetFromBToken(data, bTokens), scalar, 'floor')
    }
    if (dTokens > 0n) {
      liabilityBase += mulDiv(price, toEffectiveAssetFromDToken(config, data, dTokens), scalar, 'ceil')
      liabilityRaw += mulDiv(price, toAssetFromDToken(data, dTokens), scalar, 'ceil')
    }
  }
  const scalar = 10n ** BigInt(oracleDecimals)
  return {
    healthFactor: liabilityBase === 0n ? null : mulDiv(collateralBase, scalar, liabilityBase, 'floor'),
    collateralBase: assertI128(collateralBase, 'collateral_base'),
    liabilityBase: assertI128(liabilityBase, 'liability_base'),
    collateralRaw: assertI128(collateralRaw, 'collateral_raw'),
    liabilityRaw: assertI128(liabilityRaw, 'liability_raw'),
    scalar,
  }
}
