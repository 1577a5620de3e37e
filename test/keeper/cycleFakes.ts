/**
 * Fakes for the poll cycle's unit tests: a vault that keeps one keeper's draw, a registry that
 * lists one keeper, and CycleDeps around a real execution engine on a manual ledger clock.
 */
import { Keypair } from '@stellar/stellar-sdk'
import { createChain, type Chain } from '../../src/chain/index.js'
import type { KeeperInfo, VaultState } from '../../src/keeper/clients/index.js'
import { ExecutionEngine, ManualLedgerClock } from '../../src/keeper/engine/index.js'
import { DrawWatch } from '../../src/keeper/loop/drawWatch.js'
import { recordResult } from '../../src/keeper/loop/record.js'
import type { CycleDeps, CycleVault } from '../../src/keeper/loop/types.js'
import { createMetrics } from '../../src/keeper/metrics.js'
import { DashboardState } from '../../src/keeper/state/dashboard.js'
import { EventLog } from '../../src/keeper/state/events.js'

export const silentLogger = { info() {}, warn() {}, error() {}, debug() {} }

/** A logger that keeps every line (level, fields, message). */
export function recordingLogger() {
  const lines: { level: string; obj: Record<string, unknown>; msg: string | undefined }[] = []
  const at = (level: string) => (obj: object, msg?: string) => {
    lines.push({ level, obj: obj as Record<string, unknown>, msg })
  }
  return { lines, logger: { info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') } }
}

export const VAULT_STATE: VaultState = {
  totalUsdc: 5_000_0000000n,
  totalShares: 4_000_0000000n,
  totalProfit: 0n,
  activeLiq: 0n,
  lockedProfit: 0n,
  lockStart: 0n,
  lockEnd: 0n,
  pendingShares: 0n,
}

/** A vault holding one outstanding draw per keeper; `failState` makes get_state throw. */
export function fakeVault(opts: { draw?: bigint; failState?: () => boolean } = {}) {
  const box = { draw: opts.draw ?? 0n, calls: [] as string[] }
  const vault: CycleVault = {
    async getState() {
      if (opts.failState?.()) throw new Error('rpc down')
      return VAULT_STATE
    },
    async getKeeperDraw() {
      return box.draw
    },
    async balance() {
      return 7n
    },
    async getDepositor() {
      return { shares: 3n, costBasis: 2n, totalDeposited: 2n, totalWithdrawn: 0n, lastDepositTime: 0, withdrawRequest: 0n, raw: {} }
    },
    async returnProceeds(_kp, amount) {
      box.calls.push(`return ${amount}`)
      box.draw = box.draw > amount ? box.draw - amount : 0n
      return 0n
    },
    bind() {
      return {
        draw: async (a) => {
          box.calls.push(`draw ${a}`)
          box.draw += a
        },
        returnProceeds: async (a) => {
          box.calls.push(`return ${a}`)
          box.draw = box.draw > a ? box.draw - a : 0n
          return 0n
        },
      }
    },
  }
  return { vault, box }
}

export function keeperInfo(operator: string): KeeperInfo {
  return {
    operator,
    name: 'k',
    stake: 1n,
    totalExecutions: 0,
    successfulFills: 0,
    totalProfit: 0n,
    avgResponseTimeMs: 0,
    hasActiveDraw: false,
    drawAmount: 0n,
    drawTimestamp: 0,
    registeredAt: 0,
    slashed: false,
    slashCount: 0,
    totalSlashed: 0n,
    approved: false,
    // What a stake of 1 stroop backs at a 10 % slash rate: nothing.
    drawLimit: 0n,
  }
}

/**
 * A cycle's dependencies but the engine and the draw watch: an unreachable chain, a fake vault,
 * a registry listing only `keypair`'s keeper, no adapters, fresh state, events and metrics, a
 * silent logger. `over` replaces any of them.
 */
export function baseDeps<O extends Partial<Omit<CycleDeps, 'engine' | 'draws'>>>(keypair: Keypair, over: O) {
  const me = keeperInfo(keypair.publicKey())
  return {
    chain: over.chain ?? createChain({ rpcUrl: 'http://127.0.0.1:1', networkPassphrase: 'x' }),
    keypair,
    vault: fakeVault().vault,
    registry: { getKeepers: async () => [me], getKeeper: async () => me },
    usdcBalance: undefined,
    adapters: [],
    knownDepositors: [],
    state: new DashboardState(),
    events: new EventLog(),
    metrics: createMetrics({ defaultMetrics: false }),
    logger: silentLogger,
    ...over,
  }
}

export interface CycleWorld {
  deps: CycleDeps
  clock: ManualLedgerClock
  draws: DrawWatch
  /** Closes ledgers up to `sequence`. */
  ledger(sequence: number): void
}

/**
 * CycleDeps with a real engine (vault client reporting to a DrawWatch, as the runtime wires it)
 * on a manual clock that has just closed ledger 100. `over` replaces any dependency.
 */
export function cycleWorld(over: Partial<Omit<CycleDeps, 'engine' | 'draws'>> & { chain?: Chain; vaultContract?: string } = {}): CycleWorld {
  const keypair = over.keypair ?? Keypair.random()
  const base = baseDeps(keypair, over)
  const clock = new ManualLedgerClock({ sequence: 99, closeTimeMs: 99_000 })
  let engine: ExecutionEngine
  const draws = new DrawWatch({
    state: base.state,
    metrics: base.metrics,
    chain: base.chain,
    vaultContract: over.vaultContract ?? 'CVAULT',
    keeperAddress: base.keeperAddress ?? keypair.publicKey(),
    readDraw: (k) => base.vault.getKeeperDraw(k),
    latestLedger: () => engine.ledger,
  })
  engine = new ExecutionEngine({
    chain: base.chain,
    keypair,
    vault: draws.wrap(base.vault.bind(keypair)),
    limits: async () => ({ idle: 1_000_000_0000000n, maxDraw: 1_000_000_0000000n }),
    clock,
    logger: base.logger,
    emit: (kind, message, data) => base.events.push(kind, message, data),
    onResult: (e, r) => recordResult(base, e.adapter, e.label, r),
  })
  engine.start()
  clock.subscribe((l) => draws.onLedger(l.sequence))
  clock.set({ sequence: 100, closeTimeMs: 100_000 })
  return {
    deps: { ...base, engine, draws },
    clock,
    draws,
    ledger: (sequence) => clock.set({ sequence, closeTimeMs: sequence * 1000 }),
  }
}
