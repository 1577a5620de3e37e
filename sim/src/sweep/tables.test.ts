/**
 * The sweep's tables end to end: a fake-runner sweep (with failing runs) writes runs, auctions
 * and keepers as Parquet and CSV; DuckDB reads the Parquet files back with the documented
 * columns and types, and every value equals the CSV's and the run files'.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { reportFixture } from '../../../test/sim/reportFixture.js'
import { FAKE_RUNNER, SWEEP_SCENARIO, tempDir } from '../../../test/sim/sweepHelpers.js'
import { csvTextOf, duckdb, readCsv, sqlPath } from '../../../test/sim/tablesHelpers.js'
import type { AuctionResult, KeeperResult, Report } from '../report/types.js'
import { manifestJobs, readManifest, type SweepManifest } from './manifest.js'
import { collectRuns, runDir, type RunErrorFile, type RunSummaryFile } from './runFiles.js'
import { runSweep } from './sweep.js'
import { TABLE_NAMES, writeTables } from './tables.js'
import { SUMMARY_FIGURES, type AuctionExtras, type KeeperExtras } from './tablesColumns.js'
import type { TableName } from './tablesSchema.js'

const tmp = tempDir('sim-tables-')
const db = await duckdb()
afterAll(() => {
  db.close()
  tmp.cleanup()
})

const out = join(tmp.dir, 'sweep')
const SETS = ['keepers.count=1,2', 'keepers.minProfit=1.05', 'keepers.slippageBps=300,666']
const log: string[] = []
let manifest: SweepManifest

beforeAll(async () => {
  await runSweep({ file: SWEEP_SCENARIO, sets: SETS, seeds: 2, workers: 2, out, runner: FAKE_RUNNER, progress: 'none', log: (l) => log.push(l) })
  manifest = (await readManifest(out))!
}, 120_000)

const parquet = (dir: string, t: TableName) => join(dir, `${t}.parquet`)
const select = (dir: string, t: TableName) => db.query(`select * from read_parquet(${sqlPath(parquet(dir, t))})`)
const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T

const IDENTITY: [string, string, boolean][] = [
  ['key', 'VARCHAR', false],
  ['point', 'VARCHAR', false],
  ['keepers.count', 'BIGINT', false],
  ['keepers.minProfit', 'DOUBLE', false],
  ['keepers.slippageBps', 'BIGINT', false],
  ['seed', 'BIGINT', false],
]

/** name, DuckDB type, nullable — the documented columns of each table. */
const DOCUMENTED: Record<TableName, [string, string, boolean][]> = {
  runs: [
    ...IDENTITY,
    ['scenarioHash', 'VARCHAR', false],
    ['status', 'VARCHAR', false],
    ['errorKind', 'VARCHAR', true],
    ['errorMessage', 'VARCHAR', true],
    ['errorAttempts', 'INTEGER', true],
    ['lpReturn', 'DOUBLE', true],
    ['lpApy.kind', 'VARCHAR', true],
    ['lpApy.value', 'DOUBLE', true],
    ['lpApy.text', 'VARCHAR', true],
    ['sharePriceStart', 'DOUBLE', true],
    ['sharePriceEnd', 'DOUBLE', true],
    ['vaultProfit', 'DOUBLE', true],
    ['keeperRewards', 'DOUBLE', true],
    ['lockedProfitEnd', 'DOUBLE', true],
    ['vaultTerms.keeperFeeBps', 'INTEGER', true],
    ['vaultTerms.profitUnlockSecs', 'INTEGER', true],
    ['attacks.attempts', 'INTEGER', true],
    ['attacks.refused', 'INTEGER', true],
    ['attacks.maxGain', 'DOUBLE', true],
    ['attacks.maxDepositorLoss', 'DOUBLE', true],
    ['auctions.created', 'INTEGER', true],
    ['auctions.filled', 'INTEGER', true],
    ['auctions.expired', 'INTEGER', true],
    ['auctions.open', 'INTEGER', true],
    ['fills', 'INTEGER', true],
    ['failedTransactions', 'INTEGER', true],
    ['lostRaceTransactions', 'INTEGER', true],
    ['sales.primary', 'INTEGER', true],
    ['sales.fallback', 'INTEGER', true],
    ['sales.via', 'INTEGER', true],
    ['sales.comet', 'INTEGER', true],
    ['sales.split', 'INTEGER', true],
    ['missed', 'INTEGER', true],
    ['fillDelay.median', 'DOUBLE', true],
    ['fillDelay.p95', 'DOUBLE', true],
    ['fillDelay.max', 'DOUBLE', true],
    ['fillDelaySale.median', 'DOUBLE', true],
    ['fillDelaySale.p95', 'DOUBLE', true],
    ['fillDelaySale.max', 'DOUBLE', true],
    ['badDebt', 'DOUBLE', true],
    ['borrowedStart', 'DOUBLE', true],
    ['insolventDebt', 'DOUBLE', true],
    ['liquidatedCollateral', 'DOUBLE', true],
    ['slashes', 'INTEGER', true],
    ['keeperProfit', 'DOUBLE', true],
    ['peakUtilisation', 'DOUBLE', true],
    ['replayMismatches', 'INTEGER', true],
    ['auditHolds', 'BOOLEAN', true],
    ['fees.ordering', 'VARCHAR', true],
    ['fees.keepersXlm', 'DOUBLE', true],
    ['fees.perWinXlm', 'DOUBLE', true],
    ['fees.shareOfVaultProfit', 'DOUBLE', true],
    ['fees.inclusionDelay.p50', 'DOUBLE', true],
    ['fees.inclusionDelay.p95', 'DOUBLE', true],
    ['fees.droppedTransactions', 'INTEGER', true],
    ['fees.feeBumps', 'INTEGER', true],
    ['fees.xlmPriceUsd', 'DOUBLE', true],
    ['fees.winsByStrategy', 'VARCHAR', true],
    ['fees.background.sent', 'INTEGER', true],
    ['fees.background.applied', 'INTEGER', true],
    ['fees.background.dropped', 'INTEGER', true],
  ],
  auctions: [
    ...IDENTITY,
    ['id', 'VARCHAR', false],
    ['user', 'VARCHAR', false],
    ['kind', 'VARCHAR', false],
    ['createdLedger', 'INTEGER', false],
    ['firstProfitableLedger', 'INTEGER', true],
    ['filledLedger', 'INTEGER', true],
    ['filledBy', 'VARCHAR', true],
    ['fillDelay', 'INTEGER', true],
    ['fillCount', 'INTEGER', true],
    ['fillPercents', 'VARCHAR', true],
    ['remainingPercent', 'DOUBLE', true],
    ['lotValue', 'DOUBLE', true],
    ['bidValue', 'DOUBLE', true],
    ['outcome', 'VARCHAR', false],
    ['fillLatencyMs', 'DOUBLE', true],
    ['fillFee', 'DOUBLE', true],
    ['fillProfit', 'DOUBLE', true],
    ['contenderCount', 'INTEGER', true],
    ['contenders', 'VARCHAR', true],
  ],
  keepers: [
    ...IDENTITY,
    ['index', 'INTEGER', false],
    ['name', 'VARCHAR', false],
    ['path', 'VARCHAR', false],
    ['minProfit', 'DOUBLE', false],
    ['pollIntervalLedgers', 'INTEGER', false],
    ['wins', 'INTEGER', false],
    ['losses', 'INTEGER', false],
    ['abandoned', 'INTEGER', false],
    ['profit', 'DOUBLE', false],
    ['vaultProfit', 'DOUBLE', false],
    ['rewards', 'DOUBLE', true],
    ['winRate', 'DOUBLE', false],
    ['crashed', 'BOOLEAN', false],
    ['slashed', 'DOUBLE', false],
    ['missed', 'INTEGER', true],
    ['unprofitable', 'INTEGER', true],
    ['feesPaid', 'DOUBLE', true],
    ['fills', 'INTEGER', true],
    ['failedTransactions', 'INTEGER', true],
    ['lostRaceTransactions', 'INTEGER', true],
    ['failedTransactionFees', 'DOUBLE', true],
    ['feeStrategy', 'VARCHAR', true],
    ['feesPerWin', 'DOUBLE', true],
    ['inclusionDelayP50', 'DOUBLE', true],
    ['droppedTransactions', 'INTEGER', true],
    ['feeBumps', 'INTEGER', true],
    ['inclusionDelayP95', 'DOUBLE', true],
    ['laneCount', 'INTEGER', true],
    ['laneSent', 'VARCHAR', true],
    ['laneApplied', 'VARCHAR', true],
    ['tryAgainLater', 'INTEGER', true],
    ['salesPrimary', 'INTEGER', true],
    ['salesFallback', 'INTEGER', true],
    ['salesVia', 'INTEGER', true],
    ['salesComet', 'INTEGER', true],
    ['salesSplit', 'INTEGER', true],
  ],
}

/** A value at a dotted path of an object. */
function at(obj: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | null)?.[k], obj)
}

/** Job keys in job order, from the manifest. */
const jobKeys = () => manifestJobs(manifest).jobs.map((j) => j.key)
const identity = (key: string) => {
  const s = readJson<RunSummaryFile | RunErrorFile>(join(runDir(out, key), existsSummary(key) ? 'summary.json' : 'error.json'))
  const count = s.overrides.find((o) => o.path === 'keepers.count')!.value as number
  const slippage = s.overrides.find((o) => o.path === 'keepers.slippageBps')!.value as number
  return { key, point: s.point, 'keepers.count': BigInt(count), 'keepers.minProfit': 1.05, 'keepers.slippageBps': BigInt(slippage), seed: BigInt(s.seed) }
}
const existsSummary = (key: string) => !key.includes('slippageBps=666')
const report = (key: string) => readJson<Report>(join(runDir(out, key), 'report.json'))

describe('a sweep writes runs, auctions and keepers tables', () => {
  it('names them in its log', () => {
    expect(log.at(-1)).toBe(`tables: ${TABLE_NAMES.map((t) => parquet(out, t)).join(', ')} (and .csv beside each)`)
  })

  it.each(TABLE_NAMES)('%s.parquet has the documented columns, types and nullability', async (t) => {
    const described = await db.query(`describe select * from read_parquet(${sqlPath(parquet(out, t))})`)
    expect(described.map((r) => [r['column_name'], r['column_type']])).toEqual(DOCUMENTED[t].map(([n, type]) => [n, type]))
    const schema = await db.query(`select name, repetition_type from parquet_schema(${sqlPath(parquet(out, t))}) where num_children is null`)
    expect(schema.map((r) => [r['name'], r['repetition_type'] === 'OPTIONAL'])).toEqual(DOCUMENTED[t].map(([n, , nullable]) => [n, nullable]))
  })

  it.each(TABLE_NAMES)('%s: the CSV holds the same header and values as the Parquet file', async (t) => {
    const rows = await select(out, t)
    const csv = readCsv(join(out, `${t}.csv`))
    expect(csv.header).toEqual(DOCUMENTED[t].map(([n]) => n))
    expect(csv.rows).toEqual(rows.map((r) => csv.header.map((c) => csvTextOf(r[c]))))
  })

  it('runs: one row per job in job order, figures from summary.json, a failed run with its error', async () => {
    const rows = await select(out, 'runs')
    expect(rows.map((r) => r['key'])).toEqual(jobKeys())
    expect(rows).toHaveLength(8)
    for (const row of rows) {
      const key = row['key'] as string
      expect(row).toMatchObject(identity(key))
      if (existsSummary(key)) {
        const s = readJson<RunSummaryFile>(join(runDir(out, key), 'summary.json'))
        const json = (v: unknown) => (Array.isArray(v) ? JSON.stringify(v) : v)
        const figures = Object.fromEntries(SUMMARY_FIGURES.map((f) => [f.name, json(at(s.summary, f.name))]))
        expect(row).toEqual({ ...identity(key), scenarioHash: s.scenarioHash, status: 'finished', errorKind: null, errorMessage: null, errorAttempts: null, ...figures })
      } else {
        const e = readJson<RunErrorFile>(join(runDir(out, key), 'error.json'))
        const nulls = Object.fromEntries(SUMMARY_FIGURES.map((f) => [f.name, null]))
        const pointHash = manifest.points.find((p) => p.id === e.point)!.hash
        expect(row).toEqual({ ...identity(key), scenarioHash: pointHash, status: 'failed', errorKind: 'error', errorMessage: 'fake runner: slippage 666 is cursed', errorAttempts: e.attempts ?? 1, ...nulls })
      }
    }
    // the fake's fill delay is null on even seeds
    expect(rows.filter((r) => r['status'] === 'finished').map((r) => r['fillDelay.median'])).toEqual([1, null, 1, null])
  })

  it('auctions: one row per auction of every finished run, in report order, with nulls where the report has none', async () => {
    const rows = await select(out, 'auctions')
    const finished = jobKeys().filter(existsSummary)
    const expected = finished.flatMap((key) =>
      report(key).auctions.map((auction) => {
        const { contenders, fills, ...a } = auction as AuctionResult & AuctionExtras
        const names = Array.isArray(contenders) ? contenders : null
        return {
          ...identity(key),
          ...a,
          fillLatencyMs: a.fillLatencyMs ?? null,
          fillFee: a.fillFee ?? null,
          fillProfit: a.fillProfit ?? null,
          contenderCount: names?.length ?? null,
          contenders: names && JSON.stringify(names),
          fillCount: fills.length,
          fillPercents: JSON.stringify(fills.map((f) => [f.ledger, f.percent, f.filledBy, f.profit])),
        }
      }),
    )
    expect(rows.length).toBeGreaterThan(0)
    expect(rows).toEqual(expected)
    expect(rows.filter((r) => r['outcome'] === 'expired').every((r) => r['filledLedger'] === null && r['lotValue'] === null)).toBe(true)
  })

  it('keepers: one row per keeper of every finished run, addresses left out', async () => {
    const rows = await select(out, 'keepers')
    const finished = jobKeys().filter(existsSummary)
    const expected = finished.flatMap((key) =>
      report(key).keepers.map((keeper) => {
        const { address: _a, operator: _o, ...k } = keeper as KeeperResult & KeeperExtras
        const { inclusionDelay, lanes, sales, ...rest } = k
        return {
          ...identity(key),
          ...rest,
          missed: k.missed ?? null,
          unprofitable: k.unprofitable ?? null,
          feesPaid: k.feesPaid ?? null,
          inclusionDelayP50: inclusionDelay.p50,
          inclusionDelayP95: inclusionDelay.p95,
          laneCount: lanes?.count ?? null,
          laneSent: lanes === undefined ? null : JSON.stringify(lanes.sent),
          laneApplied: lanes === undefined ? null : JSON.stringify(lanes.applied),
          tryAgainLater: lanes?.tryAgainLater ?? null,
          salesPrimary: sales?.primary ?? null,
          salesFallback: sales?.fallback ?? null,
          salesVia: sales?.via ?? null,
          salesComet: sales?.comet ?? null,
          salesSplit: sales?.split ?? null,
        }
      }),
    )
    expect(rows.length).toBeGreaterThan(0)
    expect(rows).toEqual(expected)
  })
})

describe('writeTables', () => {
  const jobsAndRecords = async () => {
    const { jobs } = manifestJobs(manifest)
    return { jobs, records: (await collectRuns([out], jobs)).records }
  }

  it('writes the same rows in several row groups, and the same bytes twice', async () => {
    const { jobs, records } = await jobsAndRecords()
    const small = join(tmp.dir, 'small-groups')
    const again = join(tmp.dir, 'again')
    for (const d of [small, again]) cpSync(join(out, 'sweep.json'), join(d, 'sweep.json'))
    await writeTables(small, manifest, jobs, records, { rowGroupRows: 5 })
    await writeTables(again, manifest, jobs, records)
    for (const t of TABLE_NAMES) {
      expect(await select(small, t)).toEqual(await select(out, t))
      expect(readFileSync(join(small, `${t}.csv`), 'utf8')).toBe(readFileSync(join(out, `${t}.csv`), 'utf8'))
      expect(readFileSync(parquet(again, t)).equals(readFileSync(parquet(out, t))), t).toBe(true)
    }
    const groups = await db.query(`select count(distinct row_group_id) as n from parquet_metadata(${sqlPath(parquet(small, 'auctions'))})`)
    expect(groups[0]!['n']).toBe(4n) // 16 rows, 5 per group
  })

  it('reads the competition fields when a report has them, null when an older one lacks them, and lists a job without a record as missing', async () => {
    const copy = join(tmp.dir, 'extras')
    cpSync(out, copy, { recursive: true })
    const key = jobKeys()[0]!
    const path = join(runDir(copy, key), 'report.json')
    const r = readJson<Record<string, unknown>>(path) as unknown as { auctions: Record<string, unknown>[]; keepers: Record<string, unknown>[] }
    Object.assign(r.auctions[0]!, { fillLatencyMs: 412.5, fillFee: 0.0123, fillProfit: 35.25, contenders: ['keeper-0', 'a "quoted", name'] })
    for (const f of ['fillLatencyMs', 'fillFee', 'fillProfit', 'contenders']) delete r.auctions[1]![f]
    Object.assign(r.keepers[0]!, { missed: 2, unprofitable: 5, feesPaid: 0.5 })
    const older = { ...r.keepers[0]! }
    for (const f of ['missed', 'unprofitable', 'feesPaid']) delete older[f]
    r.keepers.push({ ...older, index: 9, name: 'older' })
    writeFileSync(path, JSON.stringify(r))
    const { jobs } = manifestJobs(manifest)
    const records = (await collectRuns([copy], jobs)).records
    records.delete(jobs[1]!.index)
    await writeTables(copy, manifest, jobs, records)
    const auctions = await select(copy, 'auctions')
    const pick = (row: Record<string, unknown>, fields: string[]) => fields.map((f) => row[f])
    const competition = ['fillLatencyMs', 'fillFee', 'fillProfit', 'contenderCount', 'contenders']
    expect(pick(auctions[0]!, competition)).toEqual([412.5, 0.0123, 35.25, 2, '["keeper-0","a \\"quoted\\", name"]'])
    expect(pick(auctions[1]!, competition)).toEqual([null, null, null, null, null])
    const keepers = (await select(copy, 'keepers')).filter((k) => k['key'] === key)
    expect(keepers.map((k) => pick(k, ['name', 'missed', 'unprofitable', 'feesPaid'])).at(0)).toEqual([keepers[0]!['name'], 2, 5, 0.5])
    expect(keepers.map((k) => pick(k, ['name', 'missed', 'unprofitable', 'feesPaid'])).at(-1)).toEqual(['older', null, null, null])
    // the CSV quotes a cell holding quotes and commas, and parses back to the same text
    const csv = readCsv(join(copy, 'auctions.csv'))
    expect(csv.rows[0]![csv.header.indexOf('contenders')]).toBe(auctions[0]!['contenders'])
    const runs = await select(copy, 'runs')
    expect(runs[1]).toMatchObject({ key: jobs[1]!.key, status: 'missing', errorKind: null, lpReturn: null })
    // the missing run's auctions and keepers are not in the tables
    expect(auctions.some((a) => a['key'] === jobs[1]!.key)).toBe(false)
    expect(keepers.some((k) => k['key'] === jobs[1]!.key)).toBe(false)
    expect(auctions).toHaveLength(jobKeys().filter((k) => existsSummary(k) && k !== jobs[1]!.key).reduce((n, k) => n + report(k).auctions.length, 0))
  })

  it('writes empty auctions and keepers tables, with their columns, when no run finished', async () => {
    const { jobs, records } = await jobsAndRecords()
    for (const [i, r] of records) if (r.record.ok) records.delete(i)
    const dir = join(tmp.dir, 'none-finished')
    cpSync(join(out, 'sweep.json'), join(dir, 'sweep.json'))
    await writeTables(dir, manifest, jobs, records)
    for (const t of ['auctions', 'keepers'] as const) {
      expect(await select(dir, t)).toEqual([])
      const described = await db.query(`describe select * from read_parquet(${sqlPath(parquet(dir, t))})`)
      expect(described.map((r) => r['column_name'])).toEqual(DOCUMENTED[t].map(([n]) => n))
      expect(readCsv(join(dir, `${t}.csv`)).rows).toEqual([])
    }
    expect((await select(dir, 'runs')).map((r) => r['status'])).toEqual(jobKeys().map((k) => (existsSummary(k) ? 'missing' : 'failed')))
  })

  it('refuses a finished run whose report is gone', async () => {
    const { jobs, records } = await jobsAndRecords()
    const dir = join(tmp.dir, 'elsewhere')
    const first = records.get(0)!
    records.set(0, { ...first, dir })
    cpSync(join(out, 'sweep.json'), join(dir, 'sweep.json'))
    await expect(writeTables(dir, manifest, jobs, records)).rejects.toThrow(/report.json: cannot read the finished run's report/)
  })
})

describe('SUMMARY_FIGURES', () => {
  it('covers every field of the Summary (a new figure needs a runs column)', () => {
    const leaves = (o: object, prefix = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? leaves(v as object, `${prefix}${k}.`) : [`${prefix}${k}`]))
    expect(SUMMARY_FIGURES.map((f) => f.name).sort()).toEqual(leaves(reportFixture().summary).sort())
  })
})
