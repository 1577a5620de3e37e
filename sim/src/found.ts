/**
 * A run whose world is found, not deployed (scenario `world.from`): the sandbox starts from a
 * LedgerSnapshot file or forks an upstream RPC, the borrowers are gathered from the snapshot's
 * Positions entries or the upstream's pool events plus hints and a list, and our vault,
 * registry, DEX pools and accounts go on top (src/world/found). The scenario comes back with
 * `world.assets` set to the pool's collaterals at their oracle prices, so the market paths,
 * the arbitrageurs and the report work as on a deployed world.
 */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { relative, resolve } from 'node:path'
import { startSandbox, type ForkStatus, type Sandbox } from '../../sandbox/ts/launch.js'
import { ErrNotBlendV2 } from '../../src/keeper/adapters/blend/errors.js'
import { redactUrl } from '../../src/chain/redact.js'
import type { World } from '../../src/world/index.js'
import type { ScanResult } from '../../src/keeper/adapters/blend/scan.js'
import {
  borrowersInHintsFile,
  borrowersInSnapshot,
  borrowersInUpstreamEvents,
  buildOnFoundPool,
  mergeBorrowers,
  snapshotLedger,
} from '../../src/world/found/index.js'
import { assetCodeProblems } from './scenario/load.js'
import { serviceSettings, usd } from './serviceSettings.js'
import { snapshotPassphrase } from './snapshotNetwork.js'
import type { Scenario, WorldFrom } from './scenario/schema.js'

export interface FoundStart {
  sandbox: Sandbox
  world: World & { startScan: ScanResult }
  /** The scenario with `world.assets` taken from the pool. */
  scenario: Scenario
}

export interface FoundParameters {
  scenario: Scenario & { world: { from: WorldFrom } }
  /** The scenario file's folder (relative snapshot and hints paths). */
  dir: string
  seed: number
  /** Sandbox arguments every run uses (retention, quiet). */
  extraArgs: string[]
  log: (line: string) => void
}

function forkArgs(from: WorldFrom): string[] {
  return ['--fork-url', from.fork!, ...Object.entries(from.headers).flatMap(([k, v]) => ['--fork-header', `${k}: ${v}`])]
}

/** A found world that cannot be started: the message says what and where (the CLI prints it alone). */
export class FoundWorldError extends Error {
  override name = 'FoundWorldError'
}

export async function startFromFound(p: FoundParameters): Promise<FoundStart> {
  try {
    return await start(p)
  } catch (err) {
    if (err instanceof FoundWorldError) throw err
    throw new FoundWorldError(`cannot start from ${p.scenario.world.from.snapshot ?? redactUrl(p.scenario.world.from.fork ?? '')}: ${err instanceof Error ? err.message : String(err)}`, { cause: err })
  }
}

async function start(p: FoundParameters): Promise<FoundStart> {
  const s = p.scenario
  const from = s.world.from
  let snapshot: { file: string; sha256: string; doc: unknown } | undefined
  if (from.snapshot !== undefined) {
    const file = resolve(p.dir, from.snapshot)
    const bytes = await readFile(file).catch((err: unknown) => {
      throw new FoundWorldError(`world.from.snapshot ${file}: ${err instanceof Error ? err.message : String(err)}`)
    })
    let doc: unknown
    try {
      doc = JSON.parse(bytes.toString('utf8'))
    } catch (err) {
      throw new FoundWorldError(`world.from.snapshot ${file} is not JSON: ${err instanceof Error ? err.message : String(err)}`)
    }
    snapshot = { file, sha256: createHash('sha256').update(bytes).digest('hex'), doc }
  }
  let networkPassphrase = from.networkPassphrase
  if (snapshot !== undefined) {
    try {
      networkPassphrase = snapshotPassphrase(snapshot.file, snapshot.doc, from.networkPassphrase)
    } catch (err) {
      throw new FoundWorldError(err instanceof Error ? err.message : String(err))
    }
  }
  p.log(snapshot !== undefined ? `starting from ${snapshot.file} on "${networkPassphrase}"` : `forking ${redactUrl(from.fork!)}`)
  // A fork takes the upstream's passphrase; one given must be the upstream's (the node refuses another).
  const sandbox = await startSandbox({
    manual: true,
    instant: true,
    seed: p.seed,
    ledgerIntervalSeconds: s.run.ledgerSeconds,
    ...(networkPassphrase === undefined ? {} : { networkPassphrase }),
    extraArgs: [...p.extraArgs, ...(snapshot !== undefined ? ['--snapshot', snapshot.file] : forkArgs(from))],
  })
  try {
    let ledger: number
    const lists: Record<string, string[]> = {}
    if (snapshot !== undefined) {
      ledger = snapshotLedger(snapshot.doc)
      lists['snapshot'] = borrowersInSnapshot(snapshot.doc, from.pool)
    } else {
      const status = await sandbox.call<ForkStatus>('sandbox_forkStatus')
      ledger = status.forkLedger
      if (from.ledger !== undefined && from.ledger !== ledger) {
        throw new FoundWorldError(`world.from.ledger is ${from.ledger} but ${redactUrl(from.fork!)} is at ledger ${ledger}: an RPC serves only its latest state (start from a snapshot to keep a ledger)`)
      }
      p.log('reading the pool\'s events upstream')
      lists['events'] = await borrowersInUpstreamEvents(from.fork!, from.pool, ledger, from.headers)
    }
    if (from.hints !== undefined) lists['hints'] = await borrowersInHintsFile(resolve(p.dir, from.hints))
    if (from.borrowers.length > 0) lists['list'] = [...from.borrowers]
    const { borrowers, counts } = mergeBorrowers(lists)
    const depth = (code: string) => usd(typeof from.dexDepthUsd === 'number' ? from.dexDepthUsd : (from.dexDepthUsd[code] ?? 1_000_000))
    const world = await buildOnFoundPool(
      sandbox,
      {
        seed: p.seed,
        pool: from.pool,
        ...(from.usdc === undefined ? {} : { usdc: from.usdc }),
        borrowers,
        ...(from.routers === undefined ? {} : { routers: from.routers }),
        dexDepthUsd: depth,
        ...serviceSettings(s),
        txTimeoutSeconds: 0,
        source: {
          kind: snapshot !== undefined ? 'snapshot' : 'fork',
          ...(snapshot !== undefined ? { file: relative(p.dir, snapshot.file), sha256: snapshot.sha256 } : { url: redactUrl(from.fork!) }),
          ledger,
          borrowerSources: counts,
        },
        log: p.log,
      },
    ).catch((err: unknown) => {
      // The pool's read side names what a pool that is not Blend v2 is (src/keeper/adapters/blend/poolKind.ts).
      if (err instanceof ErrNotBlendV2) throw new FoundWorldError(`world.from.pool ${err.pool}: ${err.what}, not Blend v2 — the sim runs Blend v2 pools only`, { cause: err })
      throw err
    })
    for (const [field, want, got] of [
      ['oracle', from.oracle, world.oracle],
      ['backstop', from.backstop, world.blend.backstop],
    ] as const) {
      if (want !== undefined && want !== got) throw new FoundWorldError(`world.from.${field} is ${want}, but pool ${from.pool} uses ${got}`)
    }
    const assets = world.collaterals.map((c, i) => ({
      code: c.code,
      price: Number(world.price(c.contract)) / 1e7,
      cFactor: Math.max(1e-7, world.blend.reserveConfigs[world.blend.reserves.indexOf(c.contract)]!.c_factor / 1e7),
      dexDepthUsd: Number(depth(c.code)) / 1e7,
      index: i,
    }))
    const scenario: Scenario = { ...s, world: { ...s.world, assets: assets.map(({ index: _i, ...a }) => a) } }
    const problems = assetCodeProblems(scenario, new Set(assets.map((a) => a.code)))
    if (problems.length > 0) throw new FoundWorldError(`the scenario names assets pool ${from.pool} does not lend against:\n${problems.map((x) => `  - ${x}`).join('\n')}`)
    return { sandbox, world, scenario }
  } catch (err) {
    await sandbox.stop()
    throw err
  }
}
