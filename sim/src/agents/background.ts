/**
 * Other users of the network: Soroban transactions that arrive every ledger and compete with the
 * keepers' for room in the ledger (scenario `chain.background`, core ordering only). Each is a
 * read-only call of the USDC contract (`decimals`) from one of the load's own accounts: it takes
 * a Soroban transaction slot and some instructions like any other call, and changes nothing a
 * keeper reads. How many arrive in a ledger (Poisson around `txPerLedger`) and what each bids
 * (the fee model) are drawn from the seed, the ledger and the transaction's index, so a seed
 * gives the same load on every run.
 *
 * An account has at most one transaction in the node's queue: it sends again once the last one
 * was applied (next sequence number) or dropped (the same one).
 */
import { Account, Contract, Keypair, TransactionBuilder, rpc, xdr, type Transaction } from '@stellar/stellar-sdk'
import type { Chain } from '../../../src/chain/index.js'
import { MIN_INCLUSION_FEE } from '../../../src/core/index.js'
import { keypairFor } from '../../../src/world/index.js'
import { keyedNormal, keyedUniform } from '../lockstep/keyed.js'
import type { Mempool } from '../lockstep/mempool.js'
import type { SimRpc } from '../lockstep/simRpc.js'
import type { BackgroundSpec, FeeModel } from '../scenario/chainSchema.js'

/** One inclusion-fee draw (stroops) from `model`, keyed by the ledger and the transaction's index. */
export function drawFee(model: FeeModel, seed: number, ledger: number, i: number): number {
  let fee: number
  switch (model.model) {
    case 'constant':
      fee = model.stroops
      break
    case 'uniform':
      fee = model.min + keyedUniform(seed, 'background-fee', ledger, i) * (model.max - model.min)
      break
    case 'lognormal':
      fee = model.medianStroops * Math.exp(model.sigma * keyedNormal(seed, 'background-fee', ledger, i))
      break
  }
  return Math.max(MIN_INCLUSION_FEE, Math.round(fee))
}

/** A Poisson draw with mean `mean` (inverse transform of one keyed uniform). */
export function poisson(mean: number, u: number): number {
  if (mean <= 0) return 0
  let k = 0
  let p = Math.exp(-mean)
  let cdf = p
  while (u > cdf && k < 10_000) {
    k++
    p *= mean / k
    cdf += p
  }
  return k
}

export interface BackgroundStats {
  sent: number
  applied: number
  dropped: number
}

export class BackgroundLoad {
  readonly stats: BackgroundStats = { sent: 0, applied: 0, dropped: 0 }
  private readonly seqs: bigint[]
  private readonly out: (string | undefined)[]
  private readonly sends: Promise<unknown>[] = []
  private rotate = 0

  private constructor(
    private readonly spec: BackgroundSpec,
    private readonly seed: number,
    private readonly accounts: Keypair[],
    startSeqs: bigint[],
    private readonly call: xdr.Operation,
    private readonly data: xdr.SorobanTransactionData,
    private readonly passphrase: string,
    private readonly rpc: SimRpc,
    private readonly mempool: Mempool,
  ) {
    this.seqs = startSeqs
    this.out = accounts.map(() => undefined)
  }

  /**
   * Funds the load's accounts and simulates its call once (every account's transaction has the
   * same footprint and resources). `chain` is the set-up's (a ledger per transaction).
   */
  static async create(p: { spec: BackgroundSpec; seed: number; chain: Chain; usdc: string; rpc: SimRpc; mempool: Mempool; fund: (accounts: readonly Keypair[]) => Promise<void> }): Promise<BackgroundLoad> {
    const accounts = Array.from({ length: p.spec.accounts }, (_, i) => keypairFor(BigInt(p.seed), `background/${i}`))
    await p.fund(accounts)
    const call = new Contract(p.usdc).call('decimals')
    const first = await p.chain.server.getAccount(accounts[0]!.publicKey())
    const probe = new TransactionBuilder(first, { fee: String(MIN_INCLUSION_FEE), networkPassphrase: p.chain.networkPassphrase }).addOperation(call).setTimeout(0).build()
    const sim = await p.chain.server.simulateTransaction(probe)
    if (!rpc.Api.isSimulationSuccess(sim)) throw new Error(`background load: cannot simulate USDC decimals(): ${'error' in sim ? sim.error : 'restore needed'}`)
    const data = sim.transactionData.build()
    const seqs: bigint[] = []
    for (const a of accounts) seqs.push(BigInt((await p.chain.server.getAccount(a.publicKey())).sequenceNumber()) + 1n)
    return new BackgroundLoad(p.spec, p.seed, accounts, seqs, call, data, p.chain.networkPassphrase, p.rpc, p.mempool)
  }

  /** Sends this ledger's transactions (through the scheduler, like every agent's). */
  act(ledger: number): void {
    for (const [i, hash] of this.out.entries()) {
      if (hash === undefined) continue
      const fate = this.mempool.fate(hash)
      if (fate === undefined) continue
      if (fate === 'applied') {
        this.seqs[i]!++
        this.stats.applied++
      } else this.stats.dropped++
      this.out[i] = undefined
    }
    const n = poisson(this.spec.txPerLedger, keyedUniform(this.seed, 'background-count', ledger))
    const idle = this.accounts.length
    let sent = 0
    for (let j = 0; j < idle && sent < n; j++) {
      const i = (this.rotate + j) % idle
      if (this.out[i] !== undefined) continue
      const tx = this.build(i, drawFee(this.spec.fee, this.seed, ledger, sent))
      const hash = xdr.encodeBytes(tx.hash(), 'hex')
      this.out[i] = hash
      this.stats.sent++
      sent++
      this.sends.push(
        this.rpc.sendTransaction(tx).then(
          (res) => {
            if (res.status !== 'PENDING' && res.status !== 'DUPLICATE') this.out[i] = undefined
          },
          () => (this.out[i] = undefined),
        ),
      )
    }
    this.rotate = (this.rotate + sent) % idle
  }

  private build(i: number, bid: number): Transaction {
    const kp = this.accounts[i]!
    const account = new Account(kp.publicKey(), (this.seqs[i]! - 1n).toString())
    const tx = new TransactionBuilder(account, { fee: String(bid), networkPassphrase: this.passphrase, sorobanData: this.data })
      .addOperation(this.call)
      .setTimeout(0)
      .build()
    tx.sign(kp)
    return tx
  }

  /** Every send started so far has its answer. */
  async settled(): Promise<void> {
    await Promise.all(this.sends.splice(0))
  }
}
