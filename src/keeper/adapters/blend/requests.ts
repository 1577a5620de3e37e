/**
 * The request list of one fill: FillUserLiquidationAuction, then Repay of every bid asset and
 * WithdrawCollateral of every lot asset, all in the same `submit` so the keeper never holds the
 * auctioned debt (its HF check, error 1205, runs once at the end of the submit).
 *
 * Blend v2 semantics relied on (pool/src/pool/actions.rs):
 * - Repay of more than the liability burns all of it and refunds the excess in the same call.
 * - WithdrawCollateral of more than the collateral withdraws all of it.
 * So the repay amounts carry a small buffer (interest accrued between planning and inclusion)
 * and the withdraw amounts are generous upper bounds; neither over-spends.
 */
import { xdr } from '@stellar/stellar-sdk'
import { addr, i128, struct, u32 } from '../../../chain/index.js'
import { mulDiv, SCALAR_12 } from '../../../core/index.js'
import { AuctionType } from './storage.js'

export const RequestType = {
  Supply: 0,
  Withdraw: 1,
  SupplyCollateral: 2,
  WithdrawCollateral: 3,
  Borrow: 4,
  Repay: 5,
  FillUserLiquidationAuction: 6,
  FillBadDebtAuction: 7,
  FillInterestAuction: 8,
  DeleteLiquidationAuction: 9,
} as const
export type RequestType = (typeof RequestType)[keyof typeof RequestType]

export interface Request {
  request_type: RequestType
  address: string
  amount: bigint
}

export function encodeRequest(r: Request): xdr.ScVal {
  return struct({ request_type: u32(r.request_type), address: addr(r.address), amount: i128(r.amount) })
}

export function encodeRequests(rs: readonly Request[]): xdr.ScVal {
  return xdr.ScVal.scvVec(rs.map(encodeRequest))
}

const FILL_REQUEST: Record<AuctionType, RequestType> = {
  [AuctionType.UserLiquidation]: RequestType.FillUserLiquidationAuction,
  [AuctionType.BadDebt]: RequestType.FillBadDebtAuction,
  [AuctionType.Interest]: RequestType.FillInterestAuction,
}

/** Repay buffer: 10 bps over the planned debt covers accrual until inclusion (refunded if unused). */
export const REPAY_BUFFER_BPS = 10n

/**
 * Underlying amount that repays `dTokens` at `dRate` (12 decimals), rounded up (the pool rounds
 * the debt up), plus the buffer.
 */
export function repayAmount(dTokens: bigint, dRate: bigint): bigint {
  const debt = mulDiv(dTokens, dRate, SCALAR_12, 'ceil')
  return debt + mulDiv(debt, REPAY_BUFFER_BPS, 10_000n, 'ceil') + 1n
}

/**
 * Withdraw bound for `bTokens` at `bRate`: twice the current value, so later accrual (b_rate only
 * grows) can never leave a dust of collateral behind; the pool caps it at what the keeper holds.
 */
export function withdrawBound(bTokens: bigint, bRate: bigint): bigint {
  return mulDiv(bTokens, bRate, SCALAR_12, 'ceil') * 2n + 1n
}

export interface FillRequestsParameters {
  auctionType: AuctionType
  /** The liquidated user (the backstop for bad-debt and interest auctions). */
  user: string
  percent: number
  /** Scaled bid the fill takes on: asset -> dTokens (user liquidation / bad debt). */
  bid: Readonly<Record<string, bigint>>
  /** Scaled lot the fill receives: asset -> bTokens (user liquidation). */
  lot: Readonly<Record<string, bigint>>
  /** Current d_rate / b_rate per asset (12 decimals). */
  dRates: Readonly<Record<string, bigint>>
  bRates: Readonly<Record<string, bigint>>
}

/**
 * @example
 * import { fillRequests } from './requests.js'
 * fillRequests({ auctionType: 0, user, percent: 100, bid: { [usdc]: 100n }, lot: { [xlm]: 900n },
 *   dRates: { [usdc]: 10n ** 12n }, bRates: { [xlm]: 10n ** 12n } })
 * // [fill(user, 100), repay(usdc, 101), withdrawCollateral(xlm, 1801)]
 */
export function fillRequests(p: FillRequestsParameters): Request[] {
  if (!Number.isInteger(p.percent) || p.percent < 1 || p.percent > 100) throw new RangeError(`fill percent ${p.percent} not in 1..100`)
  const out: Request[] = [{ request_type: FILL_REQUEST[p.auctionType], address: p.user, amount: BigInt(p.percent) }]
  if (p.auctionType === AuctionType.Interest) return out // lot is paid out directly; bid is backstop tokens
  for (const [asset, dTokens] of Object.entries(p.bid)) {
    const rate = p.dRates[asset]
    if (rate === undefined) throw new RangeError(`no d_rate for bid asset ${asset}`)
    if (dTokens > 0n) out.push({ request_type: RequestType.Repay, address: asset, amount: repayAmount(dTokens, rate) })
  }
  if (p.auctionType === AuctionType.UserLiquidation) {
    for (const [asset, bTokens] of Object.entries(p.lot)) {
      const rate = p.bRates[asset]
      if (rate === undefined) throw new RangeError(`no b_rate for lot asset ${asset}`)
      if (bTokens > 0n) out.push({ request_type: RequestType.WithdrawCollateral, address: asset, amount: withdrawBound(bTokens, rate) })
    }
  }
  return out
}
