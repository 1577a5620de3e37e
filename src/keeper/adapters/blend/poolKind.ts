/**
 * What a pool contract is, told from its instance storage before anything is decoded as Blend v2.
 *
 * The two Blend pool layouts differ in the instance's "Config" (PoolConfig):
 * - Blend v1 (blend-contracts pool/src/storage.rs): { oracle, bstop_rate, status, max_positions },
 *   and the instance keeps an "IsInit" flag (v1 pools are initialised by a call);
 * - Blend v2 (blend-contracts-v2 pool/src/storage.rs): { oracle, min_collateral, bstop_rate,
 *   status, max_positions }, no "IsInit" (v2 pools are set up by their constructor).
 * (v1's ReserveConfig also lacks v2's supply_cap and enabled; the Config alone decides here, as
 * it is in the one entry every read of the pool loads.)
 */
import type { xdr } from '@stellar/stellar-sdk'
import { ErrNotBlendV2 } from './errors.js'

const V2_CONFIG = ['bstop_rate', 'max_positions', 'min_collateral', 'oracle', 'status']
const V1_CONFIG = ['bstop_rate', 'max_positions', 'oracle', 'status']

export type PoolKind =
  | { kind: 'blend-v2' }
  /** `what`: the pool as a phrase ("a Blend v1 pool (...)", "not a Blend pool (...)"). */
  | { kind: 'blend-v1' | 'other'; what: string }

/** The symbol field names of a map ScVal, sorted; undefined when `v` is not a map of symbols. */
function fieldNames(v: xdr.ScVal): string[] | undefined {
  if (v.type !== 'scvMap') return undefined
  const names: string[] = []
  for (const e of v.map ?? []) {
    if (e.key.type !== 'scvSymbol') return undefined
    names.push(e.key.sym.toString())
  }
  return names.sort()
}

const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i])

/** Identifies a pool from its instance storage (Symbol key -> value; decodeInstanceStorage). */
export function poolKind(storage: ReadonlyMap<string, xdr.ScVal>): PoolKind {
  const config = storage.get('Config')
  if (config === undefined) return { kind: 'other', what: 'not a Blend pool (its instance storage has no "Config")' }
  const names = fieldNames(config)
  if (names === undefined) return { kind: 'other', what: `not a Blend pool (its instance "Config" is a ${config.type}, not a PoolConfig map)` }
  if (same(names, V2_CONFIG)) return { kind: 'blend-v2' }
  if (same(names, V1_CONFIG)) {
    const init = storage.has('IsInit') ? ', and its instance keeps v1\'s "IsInit"' : ''
    return { kind: 'blend-v1', what: `a Blend v1 pool (its PoolConfig has no min_collateral, which Blend v2 pools have${init})` }
  }
  return { kind: 'other', what: `not a Blend v2 pool (its "Config" has fields ${names.join(', ')}; a Blend v2 PoolConfig has ${V2_CONFIG.join(', ')})` }
}

/**
 * Refuses a pool that is not Blend v2, in one line naming what it is.
 * @throws ErrNotBlendV2
 */
export function assertBlendV2(pool: string, storage: ReadonlyMap<string, xdr.ScVal>): void {
  const k = poolKind(storage)
  if (k.kind !== 'blend-v2') throw new ErrNotBlendV2(pool, k.kind, k.what)
}
