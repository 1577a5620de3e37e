/**
 * Rebalancing adapter (only with REBALANCE_VAULT): keeps an external vault's OWN funds at their
 * target weights. getTasks reads the vault's drift report; when the largest drift exceeds
 * REBALANCE_DRIFT_BPS it offers one task with the planned trades; execute calls the vault's
 * `rebalance(caller, max_slippage_bps, deadline)` as its authorized rebalancer. It never draws
 * from the service vault (estimateCapital is 0 and the vault client is not used).
 */
import { xdr, type Keypair } from '@stellar/stellar-sdk'
import { addr, invoke, simulateRead, u32, u64, type Chain } from '../../../chain/index.js'
import type { AdapterContext, AdapterFactory, ProtocolAdapter, Result, Task, VaultClient } from '../../sdk/index.js'
import { scAddress, scI128, scU32 } from '../blend/storage.js'
import { planRebalance, type HoldingInput, type RebalancePlan } from './plan.js'

export { planRebalance, ErrBadRebalanceInput, type RebalancePlan, type Trade, type AssetDrift, type HoldingInput } from './plan.js'

export interface RebalanceTaskData {
  vault: string
  maxDriftBps: number
  plan: RebalancePlan
}

export interface DriftReport {
  totalValue: bigint
  maxDriftBps: number
  holdings: HoldingInput[]
}

function fields(v: xdr.ScVal): Map<string, xdr.ScVal> {
  const m = new Map<string, xdr.ScVal>()
  for (const e of xdr.expectUnionVariant(v, 'scvMap').map ?? []) m.set(xdr.expectUnionVariant(e.key, 'scvSymbol').sym.toString(), e.val)
  return m
}

/** Decode the fixture's `DriftReport { total_value, max_drift_bps, assets: Vec<AssetDrift> }`. */
export function decodeDriftReport(v: xdr.ScVal): DriftReport {
  const f = fields(v)
  const assetsVal = f.get('assets')
  const assets = (assetsVal === undefined ? undefined : xdr.expectUnionVariant(assetsVal, 'scvVec').vec) ?? []
  return {
    totalValue: scI128(f.get('total_value') ?? xdr.ScVal.scvVoid(), 'DriftReport.total_value'),
    maxDriftBps: scU32(f.get('max_drift_bps') ?? xdr.ScVal.scvVoid(), 'DriftReport.max_drift_bps'),
    holdings: assets.map((a) => {
      const g = fields(a)
      const need = (k: string) => g.get(k) ?? xdr.ScVal.scvVoid()
      return {
        asset: scAddress(need('asset'), 'AssetDrift.asset'),
        balance: scI128(need('balance'), 'AssetDrift.balance'),
        price: scI128(need('price'), 'AssetDrift.price'),
        weightBps: scU32(need('weight_bps'), 'AssetDrift.weight_bps'),
      }
    }),
  }
}

/** The routing hub (`VaultConfig.base`) of the external vault. */
async function vaultBase(chain: Chain, vault: string): Promise<string> {
  const cfg = fields(await simulateRead(chain, vault, 'get_config'))
  return scAddress(cfg.get('base') ?? xdr.ScVal.scvVoid(), 'VaultConfig.base')
}

export interface RebalanceAdapterParameters {
  vault: string
  driftBps: number
  slippageBps: number
  /** Seconds the router swaps stay valid. */
  deadlineSeconds?: number
  emit?: AdapterContext['emit']
}

export function rebalanceAdapter(p: RebalanceAdapterParameters): ProtocolAdapter<RebalanceTaskData> {
  let base: string | undefined
  return {
    name: () => 'rebalance',
    async getTasks(chain: Chain): Promise<Task<RebalanceTaskData>[]> {
      base ??= await vaultBase(chain, p.vault)
      const report = decodeDriftReport(await simulateRead(chain, p.vault, 'get_drift'))
      const plan = planRebalance({ holdings: report.holdings, base, driftThresholdBps: p.driftBps })
      if (plan.trades.length === 0) return []
      return [
        {
          priority: 1,
          estProfit: 0n,
          label: `rebalance ${p.vault.slice(0, 6)} drift ${plan.maxDriftBps} bps`,
          data: { vault: p.vault, maxDriftBps: plan.maxDriftBps, plan },
        },
      ]
    },
    async execute(chain: Chain, keypair: Keypair, task: Task<RebalanceTaskData>, _vault: VaultClient): Promise<Result> {
      const started = Date.now()
      const deadline = BigInt(Math.floor(Date.now() / 1000) + (p.deadlineSeconds ?? 300))
      const res = await invoke(chain, keypair, task.data.vault, 'rebalance', [
        addr(keypair.publicKey()),
        u32(p.slippageBps),
        u64(deadline),
      ])
      const after = res.returnValue === undefined ? undefined : decodeDriftReport(res.returnValue)
      p.emit?.('rebalance', `rebalanced ${task.data.vault}: drift ${task.data.maxDriftBps} -> ${after?.maxDriftBps ?? '?'} bps`)
      return {
        drew: 0n,
        proceeds: 0n,
        profit: 0n,
        responseTimeMs: Date.now() - started,
        success: true,
        txHash: res.hash,
        note: `drift ${task.data.maxDriftBps} -> ${after?.maxDriftBps ?? '?'} bps`,
        // Not a liquidation: counted in service_tasks_total, not in service_liquidations_total.
        liquidation: false,
      }
    },
    estimateCapital: () => 0n,
  }
}

/** Factory the keeper calls when REBALANCE_VAULT is set. */
export const createRebalanceAdapter: AdapterFactory = (ctx) => {
  if (ctx.rebalanceVault === undefined) throw new Error('REBALANCE_VAULT is not set')
  return rebalanceAdapter({
    vault: ctx.rebalanceVault,
    driftBps: ctx.rebalanceDriftBps,
    slippageBps: ctx.slippageBps,
    emit: ctx.emit,
  })
}
