import { Account, Asset, Keypair, Networks, Operation, TransactionBuilder, xdr } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { addr, i128 } from '../../../src/chain/index.js'
import { encodeSwaps } from '../../../src/keeper/clients/executor.js'
import { encodeRequests, RequestType } from '../../../src/keeper/adapters/blend/requests.js'
import type { AppliedTx } from '../lockstep/mempool.js'
import { fillTargets, readKeeperTransactions } from './transactions.js'

const POOL = 'CDLZFC3SYJYDZT7K67VZ75HPJVIEUVNIXF47ZG2FB2RMQQVU2HHGCYSC'
const EXECUTOR = 'CA3D5KRYM6CB7OWQ6TWYRR3Z4T7GNZLKERYNZGGA5SOAOPIFY6YQGAXE'
const USDC = 'CBIELTK6YBZJU5UP2WWQEUCYKLPU6AUNZ2BQ4WWFEIE3USCIHMXQDAMA'
const WETH = 'CAS3J7GYLGXMF6TDJBBYYSE3HQ6BBSMLNUQ34T6TZMYMW2EVH34XOWMA'
const source = Keypair.random()
const borrower = Keypair.random().publicKey()

function envelope(...ops: xdr.Operation[]): xdr.TransactionEnvelope {
  const b = new TransactionBuilder(new Account(source.publicKey(), '1'), { fee: '100', networkPassphrase: Networks.TESTNET })
  for (const op of ops) b.addOperation(op)
  return b.setTimeout(30).build().toEnvelope()
}

const requests = (type: number, user: string) =>
  encodeRequests([
    { request_type: type as (typeof RequestType)[keyof typeof RequestType], address: user, amount: 100n },
    { request_type: RequestType.Repay, address: USDC, amount: 5_000n },
    { request_type: RequestType.WithdrawCollateral, address: WETH, amount: 7n },
  ])

describe('fillTargets', () => {
  it('finds the fill in a two-step Blend submit', () => {
    const op = Operation.invokeContractFunction({ contract: POOL, function: 'submit', args: [addr(source.publicKey()), addr(source.publicKey()), addr(source.publicKey()), requests(RequestType.FillUserLiquidationAuction, borrower)] })
    expect(fillTargets(envelope(op))).toEqual([{ type: 0, user: borrower }])
  })

  it("finds the fill in the executor's atomic liquidate, and the auction type of backstop fills", () => {
    const liquidate = (type: number) =>
      Operation.invokeContractFunction({
        contract: EXECUTOR,
        function: 'liquidate',
        args: [addr(POOL), i128(5_000n), requests(type, POOL), encodeSwaps([{ venue: { kind: 'router', router: EXECUTOR }, path: [WETH, USDC], amountIn: 0n, minOut: 1n }]), i128(5_000n), xdr.ScVal.scvU64(xdr.Uint64.fromString('0'))],
      })
    expect(fillTargets(envelope(liquidate(RequestType.FillBadDebtAuction)))).toEqual([{ type: 1, user: POOL }])
    expect(fillTargets(envelope(liquidate(RequestType.FillInterestAuction)))).toEqual([{ type: 2, user: POOL }])
  })

  it('finds nothing in transactions that fill no auction', () => {
    const open = Operation.invokeContractFunction({ contract: POOL, function: 'new_auction', args: [xdr.ScVal.scvU32(0), addr(borrower)] })
    const repay = Operation.invokeContractFunction({ contract: POOL, function: 'submit', args: [addr(borrower), addr(borrower), addr(borrower), encodeRequests([{ request_type: RequestType.Repay, address: USDC, amount: 1n }])] })
    const pay = Operation.payment({ destination: Keypair.random().publicKey(), asset: Asset.native(), amount: '1' })
    expect(fillTargets(envelope(open, repay, pay))).toEqual([])
  })
})

describe('readKeeperTransactions', () => {
  const applied = (hash: string): AppliedTx => ({ hash, source: "GSOURCE", agent: 'keeper-1', latencyMs: 200, submittedLedger: 9, ledger: 10, position: 3, arrivalMs: 200 })

  it('reads the fee charged and the fills of applied transactions, and marks unknown ones missing', async () => {
    const op = Operation.invokeContractFunction({ contract: POOL, function: 'submit', args: [addr(source.publicKey()), addr(source.publicKey()), addr(source.publicKey()), requests(RequestType.FillUserLiquidationAuction, borrower)] })
    const env = envelope(op)
    const server = {
      getTransaction: async (hash: string) =>
        hash === 'known'
          ? ({ status: 'FAILED', envelopeXdr: env, resultXdr: { feeCharged: 1_234_567n } } as never)
          : ({ status: 'NOT_FOUND' } as never),
    }
    const out = await readKeeperTransactions(server, [applied('known'), applied('gone')])
    expect(out[0]).toEqual({ ...applied('known'), status: 'FAILED', feeCharged: 1_234_567n, fills: [{ type: 0, user: borrower }] })
    expect(out[1]).toEqual({ ...applied('gone'), status: 'MISSING', feeCharged: 0n, fills: [] })
  })
})
