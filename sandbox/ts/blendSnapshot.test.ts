/**
 * --snapshot with real mainnet data: Blend v1's "Fixed XLM-USDC" pool at ledger 55,261,759, cut
 * down to the entries these tests read (sandbox/fixtures/blend-mainnet-55261759/README.md).
 * Every expected value is read from the fixture file itself, not typed in twice.
 */
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  Address,
  BASE_FEE,
  Contract,
  Keypair,
  Networks,
  TransactionBuilder,
  nativeToScVal,
  rpc,
  scValToNative,
  xdr,
} from '@stellar/stellar-sdk'
import { REPO_ROOT, startSandbox, type Sandbox } from './launch.js'

const FIXTURE = join(REPO_ROOT, 'sandbox', 'fixtures', 'blend-mainnet-55261759', 'snapshot.json')
const POOL = 'CDVQVKOY2YSXS2IC7KN6MNASSHPAO7UN2UR2ON4OI2SKMFJNVAMDX6DP'
const XLM = 'CAS3J7GYLGXMF6TDJBBYYSE3HQ6BBSMLNUQ34T6TZMYMW2EVH34XOWMA'
const USDC = 'CCW67TSZV3SSS2HXMBQ5JFGCKJNXKZM7UQUWUZPUTHXSTZLEO7SJMI75'
const BLND = 'CD25MNVTZDL4Y3XBCPCJXGXATV5WUHHOWMYFF4YBEGU5FCPGMYTVG5JY'
/** The v1 backstop: the one address with a Positions entry in the file (Blend's snapshot leaves out user pool data). */
const BACKSTOP = 'CAO3AGAMZVRMHITL36EJ2VZQWKYRPWMQAPDQD5YEOF3GIF7T44U4JAL3'
const SUPPLY_COLLATERAL = 2

// ---- the fixture, read as plain JSON -------------------------------------------------------------

/** Loosely typed serde JSON of stellar-xdr values. */
type J = any
interface Snapshot {
  sequence_number: number
  timestamp: number
  network_id: string
  ledger_entries: [J, [J, number | null]][]
}
const fixtureText = readFileSync(FIXTURE, 'utf8')
const fixture = JSON.parse(fixtureText) as Snapshot

/** Index of the fixture's contract-data entry `contract` / `key` (serde JSON of ScVal). */
function fileIndex(contract: string, key: J): number {
  const want = JSON.stringify(key)
  const i = fixture.ledger_entries.findIndex(([k]) => k.contract_data?.contract === contract && JSON.stringify(k.contract_data.key) === want)
  if (i < 0) throw new Error(`fixture has no entry ${contract} ${want}`)
  return i
}
const named = (name: string, address: string): J => ({ vec: [{ symbol: name }, { address }] })
const fileEntry = (i: number) => fixture.ledger_entries[i]![1]
const fileVal = (i: number): J => fileEntry(i)[0].data.contract_data.val

/** The file's serde JSON of an ScVal, as scValToNative would give it. */
function fileToNative(v: J): unknown {
  const [[type, x]] = Object.entries(v) as [[string, J]]
  switch (type) {
    case 'map':
      return Object.fromEntries((x as J[]).map((e) => [String(fileToNative(e.key)), fileToNative(e.val)]))
    case 'vec':
      return (x as J[]).map(fileToNative)
    case 'u32':
    case 'i32':
    case 'bool':
    case 'string':
    case 'symbol':
    case 'address':
      return x
    case 'u64':
    case 'i64':
      return BigInt(x)
    case 'i128':
    case 'u128':
      return typeof x === 'object' ? (BigInt(x.hi) << 64n) + BigInt(x.lo) : BigInt(x)
    default:
      throw new Error(`fileToNative: ${type} not handled`)
  }
}

// ---- the node --------------------------------------------------------------------------------------

function dataKey(contract: string, key: xdr.ScVal): xdr.LedgerKey {
  return xdr.LedgerKey.contractData(
    new xdr.LedgerKeyContractData({ contract: new Address(contract).toScAddress(), key, durability: xdr.ContractDataDurability.persistent }),
  )
}
const namedKey = (name: string, address: string) => dataKey(POOL, xdr.ScVal.scvVec([xdr.ScVal.scvSymbol(name), new Address(address).toScVal()]))

async function readEntry(s: Sandbox, key: xdr.LedgerKey): Promise<rpc.Api.LedgerEntryResult> {
  const { entries } = await s.server.getLedgerEntries(key)
  expect(entries.length).toBe(1)
  return entries[0]!
}
const nativeOf = (e: rpc.Api.LedgerEntryResult) => scValToNative(xdr.expectUnionVariant(e.val, 'contractData').contractData.val) as Record<string, unknown>

async function funded(s: Sandbox): Promise<Keypair> {
  const kp = Keypair.random()
  await s.server.requestAirdrop(kp.publicKey())
  return kp
}

async function simulate(s: Sandbox, source: Keypair, op: xdr.Operation): Promise<rpc.Api.SimulateTransactionSuccessResponse> {
  const tx = new TransactionBuilder(await s.server.getAccount(source.publicKey()), { fee: BASE_FEE, networkPassphrase: s.networkPassphrase })
    .addOperation(op)
    .setTimeout(0)
    .build()
  const sim = await s.server.simulateTransaction(tx)
  if (!rpc.Api.isSimulationSuccess(sim)) throw new Error(`simulation failed: ${JSON.stringify(sim)}`)
  return sim
}

const getPositions = (user: string) => new Contract(POOL).call('get_positions', new Address(user).toScVal())

function supplyCollateral(user: string, asset: string, amount: bigint): xdr.Operation {
  const request = xdr.ScVal.scvMap([
    new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('address'), val: new Address(asset).toScVal() }),
    new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('amount'), val: nativeToScVal(amount, { type: 'i128' }) }),
    new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('request_type'), val: nativeToScVal(SUPPLY_COLLATERAL, { type: 'u32' }) }),
  ])
  const who = new Address(user).toScVal()
  return new Contract(POOL).call('submit', who, who, who, xdr.ScVal.scvVec([request]))
}

/** No --network-passphrase: the node takes mainnet's from the file's network_id, and the launcher asks the node. */
const start = (extraArgs: string[]) => startSandbox({ manual: true, extraArgs })

// ---- broken copies of the fixture ------------------------------------------------------------------

const tmp = mkdtempSync(join(tmpdir(), 'blend-snapshot-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

/** Writes a copy of the fixture after `edit` changed it, and returns its path. */
function brokenCopy(name: string, edit: (s: Snapshot) => void): string {
  const copy = JSON.parse(fixtureText) as Snapshot
  edit(copy)
  const path = join(tmp, name)
  writeFileSync(path, JSON.stringify(copy, null, 2))
  return path
}

const XLM_CONFIG = fileIndex(POOL, named('ResConfig', XLM))
const XLM_DATA = fileIndex(POOL, named('ResData', XLM))

/** The key of the XLM ResConfig entry now names BLND's reserve, which its entry does not hold. */
const keyMismatch = brokenCopy('key-mismatch.json', (s) => {
  s.ledger_entries[XLM_CONFIG]![0].contract_data.key = named('ResConfig', BLND)
})
/** The XLM ResData entry holds a value that is no ScVal. */
const notXdr = brokenCopy('not-xdr.json', (s) => {
  s.ledger_entries[XLM_DATA]![1][0].data.contract_data.val = { u33: 5 }
})
/** A good change early in the file (XLM c_factor 1), then a broken last entry. */
const LAST = fixture.ledger_entries.length - 1
const lateBreak = brokenCopy('late-break.json', (s) => {
  const cfg = s.ledger_entries[XLM_CONFIG]![1][0].data.contract_data.val.map as J[]
  cfg.find((e) => e.key.symbol === 'c_factor').val.u32 = 1
  s.ledger_entries[LAST]![1][0].data = { no_such_entry_type: {} }
})

/** The error text names entry `i` by its place in the file, as the node writes it. */
const namesEntry = (message: string, i: number) => message.includes(`ledger_entries[${i}]`)

// ---- the tests -----------------------------------------------------------------------------------

describe('--snapshot with Blend v1 mainnet data (ledger 55261759)', () => {
  let sb: Sandbox

  beforeAll(async () => {
    sb = await start(['--snapshot', FIXTURE])
  })
  afterAll(async () => {
    await sb?.stop()
  })

  it('the file is mainnet data: its network id is the hash of the public passphrase', () => {
    expect(createHash('sha256').update(Networks.PUBLIC).digest('hex')).toBe(fixture.network_id)
  })

  it('starts at the snapshot ledger, with its close time, on the mainnet passphrase the file names', async () => {
    expect(sb.networkPassphrase).toBe(Networks.PUBLIC)
    expect(fixture.sequence_number).toBe(55261759)
    const latest = await sb.server.getLatestLedger()
    expect(latest.sequence).toBe(55261759)
    expect((await sb.server.getNetwork()).passphrase).toBe(Networks.PUBLIC)
    const { ledgers } = await sb.server.getLedgers({ startLedger: latest.sequence, pagination: { limit: 1 } })
    expect(ledgers[0]?.sequence).toBe(55261759)
    expect(Number(ledgers[0]?.ledgerCloseTime)).toBe(fixture.timestamp)
  })

  it('serves the Fixed pool reserve configs as the file holds them (c_factor 0.75 XLM, 0.95 USDC)', async () => {
    const expected: Record<string, number> = { [XLM]: 7_500_000, [USDC]: 9_500_000 }
    for (const asset of [XLM, USDC]) {
      const i = fileIndex(POOL, named('ResConfig', asset))
      const fromFile = fileToNative(fileVal(i)) as Record<string, unknown>
      expect(fromFile['c_factor']).toBe(expected[asset])
      const e = await readEntry(sb, namedKey('ResConfig', asset))
      const cfg = nativeOf(e)
      expect(cfg['c_factor']).toBe(expected[asset])
      expect(cfg).toEqual(fromFile)
      expect(e.lastModifiedLedgerSeq).toBe(fileEntry(i)[0].last_modified_ledger_seq)
      expect(e.liveUntilLedgerSeq).toBe(fileEntry(i)[1])
    }
  })

  it('serves the reserve data of both reserves unchanged', async () => {
    for (const asset of [XLM, USDC]) {
      const fromFile = fileToNative(fileVal(fileIndex(POOL, named('ResData', asset))))
      expect(nativeOf(await readEntry(sb, namedKey('ResData', asset)))).toEqual(fromFile)
    }
  })

  it("simulates get_positions in the pool's own Wasm and returns the Positions entry of the file", async () => {
    const source = await funded(sb)
    const fromFile = fileToNative(fileVal(fileIndex(POOL, named('Positions', BACKSTOP))))
    expect(Object.keys(fromFile as object).sort()).toEqual(['collateral', 'liabilities', 'supply'])
    const sim = await simulate(sb, source, getPositions(BACKSTOP))
    expect(scValToNative(sim.result!.retval)).toEqual(fromFile)
    // Someone the pool has never seen gets Blend's empty default.
    const none = await simulate(sb, source, getPositions(Keypair.random().publicKey()))
    expect(scValToNative(none.result!.retval)).toEqual({ collateral: {}, liabilities: {}, supply: {} })
  })

  it('a supply of XLM collateral runs against the real reserve, and get_positions then shows it', async () => {
    const user = await funded(sb)
    const amount = 1_000_000_000n // 100 XLM
    const before = fileToNative(fileVal(XLM_DATA)) as Record<string, bigint>
    const poolBalance = fileToNative(fileVal(fileIndex(XLM, named('Balance', POOL)))) as Record<string, bigint>

    const tx = new TransactionBuilder(await sb.server.getAccount(user.publicKey()), { fee: BASE_FEE, networkPassphrase: sb.networkPassphrase })
      .addOperation(supplyCollateral(user.publicKey(), XLM, amount))
      .setTimeout(0)
      .build()
    const prepared = await sb.server.prepareTransaction(tx)
    prepared.sign(user)
    const sent = await sb.server.sendTransaction(prepared)
    expect(sent.status).toBe('PENDING')
    await sb.closeLedgers(1)
    const res = await sb.server.getTransaction(sent.hash)
    expect(res.status).toBe(rpc.Api.GetTransactionStatus.SUCCESS)
    if (res.status !== rpc.Api.GetTransactionStatus.SUCCESS) return
    const returned = scValToNative(res.returnValue!) as { collateral: Record<string, bigint> }

    // The reserve accrued to the close time, then minted b-tokens at its new rate, rounding down.
    const after = nativeOf(await readEntry(sb, namedKey('ResData', XLM))) as Record<string, bigint>
    const minted = (amount * 1_000_000_000n) / after['b_rate']!
    expect(after['b_rate']!).toBeGreaterThanOrEqual(before['b_rate']!)
    expect(after['b_supply']).toBe(before['b_supply']! + minted)
    expect(after['last_time']).toBe(BigInt((await sb.server.getLedgers({ startLedger: res.ledger, pagination: { limit: 1 } })).ledgers[0]!.ledgerCloseTime))
    expect(returned).toEqual({ collateral: { '0': minted }, liabilities: {}, supply: {} })

    // The XLM moved into the pool's SAC balance, which started from its mainnet amount.
    const bal = nativeOf(await readEntry(sb, dataKey(XLM, xdr.ScVal.scvVec([xdr.ScVal.scvSymbol('Balance'), new Address(POOL).toScVal()]))))
    expect(bal['amount']).toBe(poolBalance['amount']! + amount)

    const sim = await simulate(sb, user, getPositions(user.publicKey()))
    expect(scValToNative(sim.result!.retval)).toEqual(returned)
  })
})

describe('--snapshot refuses a broken file', () => {
  it('an entry whose key does not match it: the node does not start, and says which entry', async () => {
    const err = await start(['--snapshot', keyMismatch]).then(
      async (s) => {
        await s.stop()
        throw new Error('the node started')
      },
      (e: Error) => e,
    )
    expect(err.message).toMatch(/exited/)
    expect(namesEntry(err.message, XLM_CONFIG), err.message).toBe(true)
    expect(err.message).toContain(BLND) // the key it carries
  })

  it('an entry that is not XDR JSON: the node does not start, and says which entry', async () => {
    const err = await start(['--snapshot', notXdr]).then(
      async (s) => {
        await s.stop()
        throw new Error('the node started')
      },
      (e: Error) => e,
    )
    expect(err.message).toMatch(/exited/)
    expect(namesEntry(err.message, XLM_DATA), err.message).toBe(true)
  })

  it('sandbox_loadSnapshot of a broken file fails and loads nothing of it', async () => {
    const sb = await start(['--snapshot', FIXTURE])
    try {
      const before = await sb.server.getLatestLedger()
      const err = await sb.call('sandbox_loadSnapshot', { path: lateBreak }).then(
        () => new Error('sandbox_loadSnapshot succeeded'),
        (e: Error) => e,
      )
      expect(err.name).toBe('SandboxError')
      expect(err.message).toMatch(/^sandbox_loadSnapshot: .*\(code -?\d+\)$/s)
      expect(namesEntry(err.message, LAST), err.message).toBe(true)
      const now = await sb.server.getLatestLedger()
      expect(now.sequence).toBe(before.sequence)
      expect(now.id).toBe(before.id)
      // The good change ahead of the broken entry was not applied either.
      expect(nativeOf(await readEntry(sb, namedKey('ResConfig', XLM)))['c_factor']).toBe(7_500_000)
    } finally {
      await sb.stop()
    }
  })
})
