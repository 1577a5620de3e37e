import { execFileSync } from 'node:child_process'
import type { Keypair } from '@stellar/stellar-sdk'
import { uploadWasm, type Chain } from '../chain/index.js'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Repository root (this file is src/world/wasm.ts). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')

/** The project's own contracts, built by scripts/build-wasm.sh to target/wasm/<name>.wasm. */
export type OwnContract = 'dex_pair' | 'dex_router' | 'rebalance_vault' | 'vault' | 'registry' | 'executor'

/** Published Blend v2 and SEP-40 mock WASMs, copied by scripts/blend-wasms.sh. */
export type BlendContract = 'pool' | 'backstop' | 'pool_factory' | 'emitter' | 'comet' | 'sep40_oracle_mock'

export class WasmNotFoundError extends Error {
  override name = 'WasmNotFoundError'
}

export function ownWasmPath(name: OwnContract): string {
  return join(REPO_ROOT, 'target', 'wasm', `${name}.wasm`)
}

export function blendWasmPath(name: BlendContract): string {
  return join(REPO_ROOT, 'target', 'wasm', 'blend', `${name}.wasm`)
}

/**
 * Reads a contract wasm, building it first when it is missing (`build: true`): the project's
 * own contracts with scripts/build-wasm.sh, the Blend ones with scripts/blend-wasms.sh.
 */
export function loadWasm(kind: 'own', name: OwnContract, build?: boolean): Buffer
export function loadWasm(kind: 'blend', name: BlendContract, build?: boolean): Buffer
export function loadWasm(kind: 'own' | 'blend', name: string, build = true): Buffer {
  const path = kind === 'own' ? ownWasmPath(name as OwnContract) : blendWasmPath(name as BlendContract)
  if (!existsSync(path) && build) {
    const script = kind === 'own' ? 'build-wasm.sh' : 'blend-wasms.sh'
    const args = kind === 'own' ? [join('scripts', script), name.replaceAll('_', '-')] : [join('scripts', script)]
    execFileSync('bash', args, { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] })
  }
  if (!existsSync(path)) {
    throw new WasmNotFoundError(
      `missing ${path}: run ${kind === 'own' ? 'bash scripts/build-wasm.sh' : 'bash scripts/blend-wasms.sh'}`,
    )
  }
  return readFileSync(path)
}

/**
 * Hashes (hex) of every uploaded contract code the world uses. The executor's is the registry's
 * `executor_wasm` (the registry deploys executors for keepers, later), so it is uploaded first.
 */
export type WasmHashes = Record<OwnContract | BlendContract, string>

/** In upload order: the executor before the registry, whose configuration names its hash. */
const OWN: readonly OwnContract[] = ['dex_pair', 'dex_router', 'rebalance_vault', 'vault', 'executor', 'registry']
const SERVICE: readonly OwnContract[] = ['vault', 'executor', 'registry']
const BLEND: readonly BlendContract[] = ['pool', 'backstop', 'pool_factory', 'emitter', 'comet', 'sep40_oracle_mock']

/**
 * Uploads every contract code the world uses (one transaction each, from `source`).
 * `service: false` skips the vault, the executor and the registry.
 */
export async function uploadWasms(chain: Chain, source: Keypair, service: boolean): Promise<WasmHashes> {
  const out: Partial<WasmHashes> = {}
  for (const name of BLEND) out[name] = await uploadWasm(chain, source, loadWasm('blend', name))
  for (const name of OWN) {
    if (!service && SERVICE.includes(name)) continue
    out[name] = await uploadWasm(chain, source, loadWasm('own', name))
  }
  return out as WasmHashes
}
